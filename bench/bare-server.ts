/**
 * Forked by bench/run.ts: the baseline. A bare Fastify server answering the same routes with the
 * same JSON bodies Kassa produced, serialized per request, with no hooks, no auth, no validation
 * and no database. POST parses its JSON body like any Fastify route and answers 201.
 */
import Fastify from 'fastify'
import { answerCpuRequests, type BareBodies, type FromServer, type ToServer } from './protocol.js'

function send(message: FromServer): void {
  process.send?.(message)
}

async function start(bodies: BareBodies): Promise<void> {
  const app = Fastify({ logger: false })
  app.get('/payments/v2/counterparties/:id', async () => bodies.counterparty)
  app.get('/payments/v2/counterparties', async () => bodies.list)
  app.post('/payments/v2/counterparties', async (_request, reply) => {
    reply.code(201)
    return bodies.created
  })
  if (bodies.creditTransfer !== undefined) {
    app.post('/payments/v2/credit-transfers', async (_request, reply) => {
      reply.code(201)
      return bodies.creditTransfer
    })
  }
  await app.listen({ host: '127.0.0.1', port: 0 })
  const address = app.server.address()
  if (address === null || typeof address === 'string') throw new Error('the bare server is not listening on TCP')
  process.on('message', (message: ToServer) => {
    if (message.type === 'stop') void app.close().finally(() => process.exit(0))
  })
  answerCpuRequests()
  send({ type: 'ready', port: address.port })
}

process.on('message', (message: ToServer) => {
  if (message.type !== 'bodies') return
  start(message.bodies).catch((error: unknown) => {
    send({ type: 'error', message: error instanceof Error ? (error.stack ?? error.message) : String(error) })
    process.exit(1)
  })
})
