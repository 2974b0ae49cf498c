/**
 * Forked by bench/payments.ts: the floor for writes (issue 14). A plain Fastify server in its own process that
 * does for `POST /payments/v2/credit-transfers` with an Idempotency-Key the same reads and row writes Kassa does
 * (prepared-write-rows.ts), with statements prepared once — better-sqlite3 in one transaction per request or
 * with group commit (prepared-write-sqlite.ts), `pg` in two round trips (prepared-write-postgres.ts) — and
 * answers 201 with the stored JSON. No auth, no validation beyond what the reads need, no hooks: it is the
 * least a server can do for these writes on this machine, not a rival to Kassa.
 */
import Fastify from 'fastify'
import { answerCpuRequests, type FromServer, type PreparedWriteSetup, type ToServer } from './protocol.js'
import { postgresWriter } from './prepared-write-postgres.js'
import { CREATE_PATH, requestOf, type CreateBody, type CreditTransferTemplate } from './prepared-write-rows.js'
import { sqliteWriter, type Writer } from './prepared-write-sqlite.js'

function send(message: FromServer): void {
  process.send?.(message)
}

function writerFor(setup: PreparedWriteSetup): Writer {
  const template = setup.creditTransfer as CreditTransferTemplate
  if (/^postgres(ql)?:\/\//.test(setup.databaseUrl)) return postgresWriter(setup.databaseUrl, template)
  return sqliteWriter(setup.databaseUrl.replace(/^sqlite:/, ''), setup.commit, template)
}

async function start(setup: PreparedWriteSetup): Promise<void> {
  const writer = writerFor(setup)
  const app = Fastify({ logger: false })
  app.post<{ Body: CreateBody; Headers: { 'idempotency-key'?: string } }>(CREATE_PATH, async (request, reply) => {
    const key = request.headers['idempotency-key']
    if (!key) return reply.code(400).send({ field: 'Idempotency-Key' })
    const answer = await writer.create(requestOf(key, request.body))
    return reply.code(answer.status).header('content-type', 'application/json; charset=utf-8').send(answer.body)
  })
  await app.listen({ host: '127.0.0.1', port: 0 })
  const address = app.server.address()
  if (address === null || typeof address === 'string') throw new Error('the prepared-statement server is not listening on TCP')
  process.on('message', (message: ToServer) => {
    if (message.type === 'stop') void app.close().then(() => writer.close()).finally(() => process.exit(0))
  })
  answerCpuRequests()
  send({ type: 'ready', port: address.port })
}

process.on('message', (message: ToServer) => {
  if (message.type !== 'prepared') return
  start(message.setup).catch((error: unknown) => {
    send({ type: 'error', message: error instanceof Error ? (error.stack ?? error.message) : String(error) })
    process.exit(1)
  })
})
