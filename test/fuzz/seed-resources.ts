import { basicAuth } from '../support/test-app.js'
import { counterpartyBody, IBANS } from '../support/fixtures.js'
import type { Credentials } from '../../src/iam/index.js'
import type { FuzzServer } from './fuzz-server.js'
import type { KnownIds } from './known-ids.js'
import { collectionOf, type Operation } from './openapi-operations.js'

/**
 * Resources of every kind for the fuzzed requests to hit, made through the API as a client would:
 * counterparties, payments with approval steps, a mandate and a direct debit, roles, users and keys,
 * approval chains, webhooks with keys and deliveries — and a counterparty of another organization
 * (a 404 to everyone else). Then every GET of docs/openapi.json is walked once to learn their ids.
 */

const WEBHOOK_URLS = ['https://hooks.example.com/kassa', 'https://dual.example.com:8443/hooks?source=kassa']
const FILTER = [{ resource: 'counterparties', apiVersion: 2 }, { resource: 'credit_transfers', apiVersion: 2, events: ['CREATED'] }]

export interface Created {
  id: string
  [field: string]: unknown
}

/** A request the seeding needs to succeed: its JSON answer, or an error naming what failed. */
export async function call(server: FuzzServer, method: string, path: string, body?: unknown, as: Credentials = server.keys.owner, contentType = 'application/json'): Promise<Created> {
  const headers: Record<string, string> = { authorization: basicAuth(as) }
  if (body !== undefined) headers['content-type'] = contentType
  const text = typeof body === 'string' ? body : JSON.stringify(body)
  const answer = await server.send({ method, path, headers, ...(body === undefined ? {} : { body: Buffer.from(text) }) })
  if (answer.status < 200 || answer.status >= 300) throw new Error(`seeding: ${method} ${path} answered ${answer.status} ${answer.body.slice(0, 500)}`)
  return (answer.body === '' ? {} : JSON.parse(answer.body)) as Created
}

/** Every concrete path of an operation over the first `perParam` ids `known` lists for each of its path parameters. */
export function concretePaths(known: KnownIds, operation: Operation, perParam = 4): string[] {
  let paths = [operation.path]
  for (const param of operation.pathParams) {
    paths = paths.flatMap((path) => known.inCollection(collectionOf(path, param)).slice(0, perParam).map((id) => path.replace(`{${param}}`, id)))
  }
  return paths
}

/** Every GET of the document sent as `as`, the ids of the answers filed in `known`. */
export async function walkReads(server: FuzzServer, as: Credentials, known = server.known, perParam = 4): Promise<void> {
  // Twice: the first pass learns the ids that nested collections (a user's keys, a webhook's deliveries) are listed under.
  for (let pass = 0; pass < 2; pass += 1) {
    for (const operation of server.operations.filter((candidate) => candidate.method === 'GET')) {
      for (const path of concretePaths(known, operation, perParam)) {
        const list = operation.query.some((parameter) => parameter.name === 'limit')
        await server.send({ method: 'GET', path: list ? `${path}?limit=25` : path, headers: { authorization: basicAuth(as) } }, known)
      }
    }
  }
}

/** `walk: false` leaves server.known unlearnt, for a suite that learns the ids its own way (test/tenancy). */
export async function seedResources(server: FuzzServer, { walk = true }: { walk?: boolean } = {}): Promise<void> {
  const accounts = (await call(server, 'GET', '/financial-data/v2/accounts')) as unknown as { items: Array<{ id: string; name: string; currency: string; identifiers: Array<{ number: string }> }> }
  const account = (name: string) => accounts.items.find((item) => item.name === name)!
  const operating = account('Operating account')
  const { today } = (await call(server, 'GET', '/v1/sandbox/clock')) as unknown as { today: string }

  const counterparties: Created[] = []
  for (const [index, iban] of [IBANS.de, IBANS.fr, IBANS.nl].entries()) {
    const market = iban.slice(0, 2)
    const accountsOf = [{ market, externalId: `fuzz-ea-${index}`, identifiers: [{ market, type: 'IBAN', number: iban }] }]
    counterparties.push(await call(server, 'POST', '/payments/v2/counterparties', counterpartyBody({ alias: `fuzz ${index}`, externalId: `fuzz-cp-${index}`, accounts: accountsOf })))
  }
  const externalAccountId = (counterparties[0]!.accounts as Created[])[0]!.id
  for (let index = 0; index < 3; index += 1) {
    const destination = { type: 'EXTERNAL_ACCOUNT', id: (counterparties[index]!.accounts as Created[])[0]!.id }
    const source = { type: 'ACCOUNT', id: operating.id }
    await call(server, 'POST', '/payments/v2/credit-transfers', { amount: { currency: 'EUR', value: 1_000 + index }, date: today, scheme: 'SCT', source, destination, reference: `Fuzz ${index}`, externalId: `fuzz-ct-${index}` })
  }
  const mandate = await call(server, 'POST', '/payments/v2/mandates', { externalAccountId, scheme: 'SDD_CORE', creditorReference: 'DE98ZZZ09999999999', mandateReference: 'FUZZ-MANDATE-1', signatureDate: '2026-01-15', active: true, externalId: 'fuzz-md-1' })
  await call(server, 'POST', '/payments/v2/direct-debits', { amount: { currency: 'EUR', stringValue: '49.90' }, date: today, scheme: 'SDD_CORE', source: { type: 'EXTERNAL_ACCOUNT', id: externalAccountId }, destination: { type: 'ACCOUNT', id: operating.id }, reference: 'Fuzz subscription', mandateId: mandate.id, externalId: 'fuzz-dd-1' })
  await call(server, 'POST', '/v1/sandbox/transactions', { accountId: operating.id, amount: { currency: 'EUR', value: 4_200 }, description: 'Fuzz incoming' })

  const role = await call(server, 'POST', '/iam/v2/roles', { name: 'Fuzz approver', permissions: ['credit_transfers:read', 'credit_transfers:approve'] })
  await call(server, 'POST', '/iam/v2/roles', { name: 'Fuzz spare', permissions: ['accounts:read'], description: 'Deleted or patched by the fuzz run' })
  const human = await call(server, 'POST', '/iam/v2/users', { type: 'HUMAN', name: 'Fuzz Human', email: 'fuzz.human@example.com', roleId: role.id })
  await call(server, 'POST', '/iam/v2/users', { type: 'PROGRAMMATIC', name: 'Fuzz Robot', roleId: role.id })
  await call(server, 'POST', `/iam/v2/users/${human.id}/access-keys`)
  await call(server, 'POST', '/iam/v2/approval-chains', { name: 'Fuzz large EUR', trigger: { currency: 'EUR', amountAtLeast: { currency: 'EUR', value: 1_000_000 } }, steps: [{ requiredRoleIds: [role.id] }] })
  await call(server, 'POST', '/iam/v2/approval-chains', { name: 'Fuzz direct debits', trigger: { paymentTypes: ['DIRECT_DEBIT'] }, steps: [{ requiredUserIds: [human.id], allowCreatorApproval: true }] })

  for (const url of WEBHOOK_URLS) {
    const webhook = await call(server, 'POST', '/v1/webhooks', { name: 'Fuzz hook', url, filter: FILTER })
    await call(server, 'POST', `/v1/webhooks/${webhook.id}/keys`)
    await call(server, 'POST', `/v1/webhooks/${webhook.id}:test`, { resource: 'counterparties' })
  }
  // A change after the webhooks exist, so that they have real deliveries too.
  await call(server, 'POST', '/payments/v2/counterparties', counterpartyBody({ alias: 'fuzz delivered', accounts: [] }))

  const other = server.keys.otherOrganization
  await call(server, 'POST', '/payments/v2/counterparties', counterpartyBody({ externalId: 'fuzz-other-cp' }), other)
  if (walk) {
    await walkReads(server, other)
    await walkReads(server, server.keys.owner)
  }

  const nordic = account('Nordic account')
  const iban = (item: typeof operating) => item.identifiers[0]!.number
  server.context = {
    vocabulary: {
      idsFor: (field) => server.known.forField(field),
      externalIds: server.known.externalIds,
      today,
      webhookUrls: WEBHOOK_URLS,
    },
    statements: { operating: iban(operating), payroll: iban(account('Payroll account')), nordic: iban(nordic), today },
  }
}
