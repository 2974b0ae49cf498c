import type { FastifyReply } from 'fastify'

/**
 * An answer given before, sent again as it was (spec: Idempotency rules 2, a replay): its status and bytes, marked
 * `Idempotent-Replayed`. Thrown where a request finds it has one — inside its transaction, its work then rolled back —
 * and sent by the error handler (error-handler.ts); not an error of the request's own.
 */
export class StoredAnswer extends Error {
  constructor(
    readonly status: number,
    readonly body: string,
  ) {
    super('a stored answer')
  }
}

export function sendStoredAnswer(reply: FastifyReply, { status, body }: StoredAnswer): FastifyReply {
  reply.header('idempotent-replayed', 'true').code(status)
  if (body !== '') reply.type('application/json; charset=utf-8')
  return reply.send(body === '' ? undefined : body)
}
