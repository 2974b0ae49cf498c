import net from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { SHUTDOWN_RETRY_AFTER_SECONDS } from '../../src/http/shutdown.js'
import { expectError } from '../conventions/expectations.js'
import { basicAuth } from '../support/test-app.js'
import { createTestDatabase, type TestDatabase } from '../support/test-database.js'
import { LEVEL, startKassaServe, type KassaServe } from './kassa-serve.js'

/**
 * Issue 14: `kassa serve --workers 2` — two HTTP processes on one port under a primary that prepared the
 * database — replaces a worker that dies, and shuts down gracefully on SIGTERM: the request in flight is
 * answered, the next one on that kept-alive connection gets the 503 envelope with Retry-After, the primary exits 0.
 */

let db: TestDatabase
let kassa: KassaServe
beforeAll(async () => {
  db = await createTestDatabase()
  kassa = await startKassaServe(db.url, 2)
}, 180_000)
afterAll(async () => {
  if (kassa?.child.exitCode === null) kassa.child.kill('SIGKILL')
  await db?.destroy()
})

/** The pids of the workers the primary saw serve, in order. */
function servingWorkers(): number[] {
  return kassa.logs().filter((line) => line.msg === 'a worker is serving').map((line) => line.worker as number)
}

/** Responses read off one raw keep-alive connection, in order (their bodies are JSON without "HTTP/1.1 " in them). */
function responsesIn(raw: string): { status: number; headers: Record<string, string>; body: string }[] {
  return raw
    .split(/(?=HTTP\/1\.1 \d{3} )/)
    .filter((part) => part !== '')
    .map((part) => {
      const [head = '', body = ''] = part.split('\r\n\r\n')
      const [statusLine = '', ...lines] = head.split('\r\n')
      const headers = Object.fromEntries(lines.map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]))
      return { status: Number(statusLine.split(' ')[1]), headers, body }
    })
}

describe('kassa serve --workers 2', () => {
  it('prints the Owner key once (from the primary) and answers on the shared port', async () => {
    expect(kassa.logs().filter((line) => line.msg === 'started the workers')).toEqual([expect.objectContaining({ workers: 2 })])
    expect(kassa.stdout().match(/Its Owner access key is shown this once/g)).toHaveLength(1)
    const accounts = await fetch(`http://127.0.0.1:${kassa.port}/financial-data/v2/accounts`, { headers: { authorization: basicAuth(kassa.owner) } })
    expect(accounts.status).toBe(200)
  })

  it('replaces a worker that dies, and says so', async () => {
    const [victim] = servingWorkers()
    process.kill(victim!, 'SIGKILL')
    const exited = await kassa.logged((line) => line.msg === 'a worker exited unexpectedly; starting another', 'the worker exit logged')
    expect(exited).toMatchObject({ level: LEVEL.error, worker: victim, signal: 'SIGKILL' })
    await kassa.logged(() => servingWorkers().length === 3, 'a third worker serving')
    expect(servingWorkers()).not.toContain(undefined)
  }, 180_000)

  it('on SIGTERM answers the request in flight, answers the next on its connection 503 with Retry-After, and exits 0', async () => {
    const auth = basicAuth(kassa.owner)
    const socket = net.connect(kassa.port, '127.0.0.1')
    const chunks: Buffer[] = []
    socket.on('data', (chunk) => chunks.push(chunk))
    const closed = new Promise((resolve) => socket.on('close', resolve))
    await new Promise((resolve) => socket.on('connect', resolve))

    // The slow request is running in its worker (which logged it) when the shutdown begins...
    socket.write(`POST /v1/idempotency-test?sleep=6000 HTTP/1.1\r\nHost: localhost\r\nAuthorization: ${auth}\r\nContent-Length: 0\r\n\r\n`)
    const incoming = await kassa.logged((line) => line.msg === 'incoming request' && String((line.req as { url?: string }).url).includes('sleep=6000'), 'the slow request received')
    const signalled = kassa.logs().length
    kassa.child.kill('SIGTERM')
    // ...and the next request on its connection arrives once every worker is closing.
    await kassa.logged(
      () => kassa.logs().slice(signalled).filter((line) => line.msg === 'shutting down: finishing the requests in flight').length === 2,
      'both workers closing',
      20_000,
    )
    socket.write(`GET /payments/v2/counterparties HTTP/1.1\r\nHost: localhost\r\nAuthorization: ${auth}\r\n\r\n`)
    await closed
    const run = await kassa.done

    const [running, late] = responsesIn(Buffer.concat(chunks).toString('utf8'))
    expect(running?.status, Buffer.concat(chunks).toString('utf8')).toBe(200)
    expect(JSON.parse(running!.body)).toMatchObject({ uuid: expect.any(String) })
    expect(late).toBeDefined()
    const body = expectError(late!, 503, 'unavailable')
    expect(body.message).toBe('The server is shutting down; retry the request')
    expect(late!.headers['retry-after']).toBe(String(SHUTDOWN_RETRY_AFTER_SECONDS))
    expect(late!.headers.connection).toBe('close')

    expect(run.code, run.stderr).toBe(0)
    expect(run.stderr).toBe('')
    // Every process ended of its own accord: the worker that served the slow request, its peer, and the primary.
    const closing = kassa.logs().slice(signalled).filter((line) => line.msg === 'shutting down: finishing the requests in flight').map((line) => line.pid)
    expect(closing).toContain(incoming.pid)
    expect(kassa.logs().filter((line) => line.level >= LEVEL.error && line.msg !== 'a worker exited unexpectedly; starting another')).toEqual([])
  }, 60_000)
})
