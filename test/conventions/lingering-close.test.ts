import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { MAX_HEADER_BYTES } from '../../src/http/client-errors.js'
import { answerProblems } from '../fuzz/answer-checks.js'
import { HttpClient } from '../fuzz/http-client.js'
import { startKassaProcess, stopped, type KassaProcess } from '../support/kassa-processes.js'
import { createTestDatabase, type TestDatabase } from '../support/test-database.js'

/**
 * RFC 9112 §9.6 (tear-down): a server that answers before it has read the whole request — headers over
 * MAX_HEADER_BYTES, a 431 — half-closes and reads on for a while, so that the client still sending gets the
 * answer rather than a connection reset. Found by the fuzz suite across processes (issue 14): with the server
 * in a process of its own, a request line of megabytes was answered with ECONNRESET; in the test's own process
 * the timing hid it.
 */

let db: TestDatabase
let kassa: KassaProcess
let client: HttpClient
beforeAll(async () => {
  db = await createTestDatabase()
  kassa = await startKassaProcess(db.url)
  client = new HttpClient(new URL(kassa.url))
}, 60_000)
afterAll(async () => {
  client?.close()
  if (kassa) await stopped(kassa.child)
  await db?.destroy()
})

describe('an answer given before the request was read', () => {
  it('a request line of megabytes gets its 431 in the envelope, not a reset, every time', async () => {
    for (let attempt = 0; attempt < 5; attempt += 1) {
      const answer = await client.send({ method: 'GET', path: `/payments/v2/counterparties?q=${'%F0%9F%99%82'.repeat(1_100_000)}`, headers: {} })
      expect(answerProblems(answer), `attempt ${attempt + 1}`).toEqual([])
      expect(answer.status).toBe(431)
      expect(JSON.parse(answer.body)).toMatchObject({ code: 'headers_too_large', message: expect.stringContaining(`${MAX_HEADER_BYTES / 1024} KiB`) })
    }
  })
})
