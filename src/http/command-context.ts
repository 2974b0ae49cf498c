import type { FastifyReply, FastifyRequest } from 'fastify'
import type { CommandContext } from '../shared/command-context.js'
import { sendsSerialized } from './serialize-once.js'

/**
 * The CommandContext of an HTTP request. Its transaction also stores the response for the
 * request's Idempotency-Key, serialized exactly as it will be sent, before the commit: a client
 * retrying after a crash gets the resource that was created, never a second one.
 */
export function commandContext(request: FastifyRequest, reply: FastifyReply, status: number): CommandContext {
  const { database } = request.server
  // The last value serialized, for the status it was serialized under (a response schema is per status). A result may
  // be undefined (a 204), so "none yet" is told apart from it by `sent` itself, never by comparing `sent?.value`.
  let sent: { value: unknown; status: number; body: string } | undefined
  const wasSent = (value: unknown): boolean => sent !== undefined && sent.value === value && sent.status === status
  const serialized = (value: unknown): string => {
    if (sent !== undefined && wasSent(value)) return sent.body
    reply.code(status)
    const body = String(reply.serialize(value))
    sent = { value, status, body }
    return body
  }
  return {
    actor: request.actor!,
    requestId: request.id,
    clientAddress: request.ip,
    foundExisting: () => {
      status = 200
    },
    asSent: serialized,
    transaction: async (work) => {
      const held = request.idempotencyKey
      try {
        return await database.transaction(async (trx) => {
          // First, so that two processes never both do the work of one key (425 for the second): the key's checks go
          // out ahead of the work's statements (one round trip with its reads on PostgreSQL), and are answered before
          // the work's answer is stored or its failure reported — the second's work rolls back with its 425.
          const entry = held && !held.completed ? await held.enter(trx) : undefined
          let result: Awaited<ReturnType<typeof work>>
          try {
            result = await work(trx)
          } catch (error) {
            await entry?.held()
            throw error
          }
          await entry?.held()
          reply.code(status)
          // Serialized once (issue 14): the bytes stored for the key, or already for an event, are the ones sent.
          const body = held || wasSent(result) ? serialized(result) : undefined
          if (held) await held.complete(trx, status, body!)
          if (body !== undefined) sendsSerialized(reply, result, body)
          return result
        })
      } catch (error) {
        // The stored response rolled back with the work; the key must be released or stored like any failure's.
        held?.rolledBack()
        throw error
      }
    },
  }
}
