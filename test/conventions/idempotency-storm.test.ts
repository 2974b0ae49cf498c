import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Credentials } from '../../src/iam/index.js'
import { createSandboxOrganization } from '../../src/organizations/organization.service.js'
import { counterpartyBody } from '../support/fixtures.js'
import { startKassaProcess, stopped, type KassaProcess } from '../support/kassa-processes.js'
import type { WireAnswer } from '../support/raw-http.js'
import { releasedTogether, type ReleasedRequest } from '../support/released-requests.js'
import { basicAuth } from '../support/test-app.js'
import { createTestDatabase, testBackend, type TestDatabase } from '../support/test-database.js'
import { expectError } from './expectations.js'

/**
 * Issue 14, the storm: 200 POSTs of one credit transfer with one Idempotency-Key, each on a connection of its own,
 * half to each of two server processes on one database, released together. Exactly one payment is made; every
 * other answer is its replay (same status and bytes) or a 425 in the error envelope (spec: Idempotency rules 1
 * and 5) — never a 5xx, a 409, or a second payment. A body that differs under the key gets 422
 * idempotency_key_reused (Kassa's answer; the spec leaves it open) or 425 while the first still runs.
 */

const STORM = 200
const PATH = '/payments/v2/credit-transfers'

let db: TestDatabase
let owner: Credentials
let servers: KassaProcess[] = []
let source: string
let destination: string

beforeAll(async () => {
  db = await createTestDatabase()
  owner = await createSandboxOrganization(db.database, 'Storm test')
  // The payment worker has nothing to do here (no payment is approved): it idles at its default pace.
  servers = await Promise.all([startKassaProcess(db.url), startKassaProcess(db.url)])
  const headers = { authorization: basicAuth(owner), 'content-type': 'application/json' }
  const accounts = (await (await fetch(`${servers[0]!.url}/financial-data/v2/accounts?currency=EUR`, { headers })).json()) as { items: Array<{ id: string }> }
  source = accounts.items[0]!.id
  const counterparty = await fetch(`${servers[0]!.url}/payments/v2/counterparties`, { method: 'POST', headers, body: JSON.stringify(counterpartyBody()) })
  destination = ((await counterparty.json()) as { accounts: Array<{ id: string }> }).accounts[0]!.id
}, 120_000) // two server processes start, each compiling the app through tsx: slow on a loaded machine
afterAll(async () => {
  await Promise.all(servers.map((server) => stopped(server.child)))
  await db?.destroy()
})

function transfer(reference: string) {
  return {
    amount: { currency: 'EUR', value: 4_200 },
    date: new Date().toISOString().slice(0, 10),
    scheme: 'SCT',
    source: { type: 'ACCOUNT', id: source },
    destination: { type: 'EXTERNAL_ACCOUNT', id: destination },
    reference,
  }
}

function post(server: KassaProcess, key: string, body: unknown): ReleasedRequest {
  return {
    port: server.port,
    method: 'POST',
    path: PATH,
    headers: { authorization: basicAuth(owner), 'content-type': 'application/json', 'idempotency-key': key },
    body: JSON.stringify(body),
  }
}

/** The storm: request `index` carries `bodyOf(index)` and goes to process `index % 2`. */
function storm(key: string, bodyOf: (index: number) => unknown): Promise<WireAnswer[]> {
  return releasedTogether(Array.from({ length: STORM }, (_, index) => post(servers[index % servers.length]!, key, bodyOf(index))))
}

/** The one answer that ran the request: a 201 that is no replay. */
function theOriginal(answers: WireAnswer[]): WireAnswer {
  const originals = answers.filter((answer) => answer.status === 201 && answer.headers['idempotent-replayed'] === undefined)
  expect(originals).toHaveLength(1)
  return originals[0]!
}

function expectInUse(answer: WireAnswer): void {
  expectError(answer, 425, 'idempotency_key_in_use')
  expect(Number(answer.headers['retry-after'])).toBeGreaterThan(0)
}

function tally(answers: WireAnswer[]): Record<string, number> {
  const counts: Record<string, number> = {}
  for (const answer of answers) {
    const kind = `${answer.status}${answer.headers['idempotent-replayed'] === 'true' ? ' replay' : ''}`
    counts[kind] = (counts[kind] ?? 0) + 1
  }
  return counts
}

async function paymentsWith(references: string[]): Promise<string[]> {
  const rows = await db.database.db
    .selectFrom('payments')
    .select('id')
    .where('organization_id', '=', owner.organizationId)
    .where('reference', 'in', references)
    .execute()
  return rows.map((row) => row.id)
}

describe(`a storm of one Idempotency-Key across two processes (${testBackend()})`, () => {
  it('makes one payment of 200 identical POSTs; every other answer is its replay or a 425', async () => {
    const answers = await storm('storm-identical', () => transfer('Storm identical'))
    console.log(`storm, identical bodies (${testBackend()}): ${JSON.stringify(tally(answers))}`)
    const original = theOriginal(answers)
    const payment = JSON.parse(original.body) as { id: string; reference: string }
    expect(payment.reference).toBe('Storm identical')
    for (const answer of answers) {
      if (answer === original) continue
      if (answer.status === 425) expectInUse(answer)
      else expect({ status: answer.status, replayed: answer.headers['idempotent-replayed'], body: answer.body }).toEqual({ status: 201, replayed: 'true', body: original.body })
    }

    expect(await paymentsWith(['Storm identical'])).toEqual([payment.id])
    const listed = await fetch(`${servers[1]!.url}${PATH}?limit=500`, { headers: { authorization: basicAuth(owner) } })
    const items = ((await listed.json()) as { items: Array<{ id: string; reference: string }> }).items
    expect(items.filter((item) => item.reference === 'Storm identical').map((item) => item.id)).toEqual([payment.id])
    // A straggler after the storm, on the other process, gets the replay.
    const [late] = await releasedTogether([post(servers[1]!, 'storm-identical', transfer('Storm identical'))])
    expect({ status: late!.status, replayed: late!.headers['idempotent-replayed'], body: late!.body }).toEqual({ status: 201, replayed: 'true', body: original.body })
  })

  it('makes one payment of 200 POSTs of two bodies under one key; the other body gets 422 or 425', async () => {
    const references = ['Storm body A', 'Storm body B']
    const answers = await storm('storm-two-bodies', (index) => transfer(references[index % 2]!))
    console.log(`storm, two bodies (${testBackend()}): ${JSON.stringify(tally(answers))}`)
    const original = theOriginal(answers)
    const payment = JSON.parse(original.body) as { id: string; reference: string }
    answers.forEach((answer, index) => {
      if (answer === original) return
      if (answer.status === 425) return expectInUse(answer)
      if (references[index % 2] === payment.reference) {
        expect({ status: answer.status, replayed: answer.headers['idempotent-replayed'], body: answer.body }).toEqual({ status: 201, replayed: 'true', body: original.body })
      } else expectError(answer, 422, 'idempotency_key_reused')
    })
    expect(await paymentsWith(references)).toEqual([payment.id])
  })
})
