/** The benchmarks of issue 2: each pairs an authenticated Kassa request with the bare handler's equivalent. */
import { randomBytes } from 'node:crypto'
import type { Target } from './load.js'
import { counterpartyBody } from './seed.js'

export interface Scenario {
  name: string
  kassa: Target
  bare: Target
}

export interface ScenarioContext {
  kassaUrl: string
  bareUrl: string
  kassaCpu: () => Promise<number>
  bareCpu: () => Promise<number>
  authorization: string
  counterpartyId: string
}

const json = { 'content-type': 'application/json' }

/** A unique Idempotency-Key and a distinct body on every request: every POST really creates a counterparty. */
function freshCreates(extraHeaders: Record<string, string>): Target['setupRequest'] {
  const run = randomBytes(4).toString('hex')
  let n = 0
  return (request) => {
    n += 1
    request.headers = { ...extraHeaders, ...json, 'idempotency-key': `bench-${run}-${n}` }
    request.body = counterpartyBody(100_000 + n)
    return request
  }
}

export function scenarios(context: ScenarioContext): Scenario[] {
  const auth = { authorization: context.authorization }
  const k = { url: context.kassaUrl, cpuMicros: context.kassaCpu }
  const b = { url: context.bareUrl, cpuMicros: context.bareCpu }
  const byId = `/payments/v2/counterparties/${context.counterpartyId}`
  const list = '/payments/v2/counterparties?limit=100'
  const create = '/payments/v2/counterparties'
  return [
    {
      name: 'GET counterparty by id',
      kassa: { ...k, method: 'GET', path: byId, headers: auth, expectStatus: 200 },
      bare: { ...b, method: 'GET', path: byId, expectStatus: 200 },
    },
    {
      name: 'GET list page (limit 100)',
      kassa: { ...k, method: 'GET', path: list, headers: auth, expectStatus: 200 },
      bare: { ...b, method: 'GET', path: list, expectStatus: 200 },
    },
    {
      name: 'POST counterparty + Idempotency-Key',
      kassa: { ...k, method: 'POST', path: create, setupRequest: freshCreates(auth), expectStatus: 201 },
      bare: { ...b, method: 'POST', path: create, setupRequest: freshCreates({}), expectStatus: 201 },
    },
  ]
}
