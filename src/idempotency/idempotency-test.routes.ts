import { randomUUID } from 'node:crypto'
import { setTimeout as sleep } from 'node:timers/promises'
import { Type } from 'typebox'
import type { ApiApp } from '../http/api-app.js'
import { errorResponses } from '../http/route-schemas.js'

export const MAX_TEST_SLEEP_MS = 30_000

const IdempotencyTestResponse = Type.Object({
  idempotencyKey: Type.Union([Type.String(), Type.Null()], { description: 'The Idempotency-Key header sent, or null' }),
  uuid: Type.String({ format: 'uuid', description: 'Fresh for every request that is not a replay' }),
})

/** `POST /v1/idempotency-test`: lets integrators exercise their retry logic against replays, 425s and 5xx. */
export function idempotencyTestRoutes(app: ApiApp): void {
  app.post(
    '/v1/idempotency-test',
    {
      // The sleep is no transaction: the key is claimed by a row, so a retry on another process gets its 425 too.
      config: { permission: null, idempotency: 'claim' },
      schema: {
        tags: ['Idempotency test'],
        summary: 'Echo the Idempotency-Key with a fresh UUID, after an optional sleep, with a chosen status',
        description:
          'Waits sleep milliseconds (0 to 30000), then answers with status (default 200) and a body of the ' +
          'Idempotency-Key sent, or null, and a fresh uuid. With a key, a retry gets the first answer again (same ' +
          'uuid, Idempotent-Replayed: true); a retry while the first request still sleeps gets 425 with Retry-After; ' +
          'the key with other query parameters is a 422. A 5xx is not stored: its retry runs again. No body; any ' +
          'valid access key may call it (spec: Specific endpoints, Idempotency rules).',
        querystring: Type.Object({
          status: Type.Optional(Type.Integer({ minimum: 200, maximum: 599, description: 'HTTP status to answer with' })),
          sleep: Type.Optional(
            Type.Integer({ minimum: 0, maximum: MAX_TEST_SLEEP_MS, description: 'Milliseconds to wait before answering' }),
          ),
        }),
        response: { 200: IdempotencyTestResponse, default: IdempotencyTestResponse, ...errorResponses(400, 422, 425) },
      },
    },
    async (request, reply) => {
      if (request.query.sleep) await sleep(request.query.sleep)
      const key = request.headers['idempotency-key']
      // Plain JSON, not the route's response schemas: for the error statuses a client may ask for, those
      // document the error envelope, which this body does not fit, and every such answer would become a 500.
      reply.code(request.query.status ?? 200).type('application/json; charset=utf-8').serializer(JSON.stringify)
      return { idempotencyKey: typeof key === 'string' ? key : null, uuid: randomUUID() }
    },
  )
}
