/**
 * `kassa counterparties|credit-transfers|transactions|webhooks …`: the real bin, spawned against a
 * running server, compared with what the API answers.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { counterpartyBody, IBANS } from '../support/fixtures.js'
import { createWebhook, waitForDeliveries } from '../webhooks/webhook-helpers.js'
import { startReceiver, type Receiver } from '../webhooks/receiver.js'
import { apiGet, apiServerForFile, jsonOf } from './api-server.js'

/** Each test spawns the bin a few times; on a loaded machine one run can take seconds. */
const SLOW = 120_000

interface Listed {
  id: string
  status?: string
  externalId?: string
}

const server = apiServerForFile()

/** The rows of a table, header first, split on the two-space column gap. */
function tableRows(stdout: string): string[][] {
  return stdout.trimEnd().split('\n').map((line) => line.split(/ {2,}/))
}

describe('kassa counterparties', { timeout: SLOW }, () => {
  beforeAll(async () => {
    for (const [legalName, externalId] of [['Listable Alpha', 'list-alpha'], ['Listable Beta', 'list-beta']]) {
      const created = await server.t.request({ method: 'POST', url: '/payments/v2/counterparties', body: counterpartyBody({ legalName, externalId }) })
      expect(created.statusCode, created.body).toBe(201)
    }
  })

  it('create takes the fields as options and prints the new counterparty', async () => {
    const run = await server.kassa(['counterparties', 'create', '--legal-name', 'Nordwind GmbH', '--alias', 'nordwind', '--iban', 'DE89 3704 0044 0532 0130 00', '--external-id', 'cli-nordwind'])
    expect(run.stderr).toBe('')
    expect(run.code).toBe(0)
    const stored = await apiGet<{ id: string; legalName: string; alias: string; accounts: Array<{ id: string; identifiers: Array<{ number: string }> }> }>(
      server,
      '/payments/v2/counterparties/external:cli-nordwind',
    )
    expect(stored).toMatchObject({ legalName: 'Nordwind GmbH', alias: 'nordwind' })
    expect(stored.accounts.map((account) => account.identifiers[0]!.number)).toEqual([IBANS.de])
    expect(run.stdout).toMatch(new RegExp(`^id: +${stored.id}$`, 'm'))
    expect(run.stdout).toMatch(/^legalName: +Nordwind GmbH$/m)
    expect(run.stdout).toMatch(new RegExp(`^account: +${stored.accounts[0]!.id} IBAN ${IBANS.de}$`, 'm'))
  })

  it('create --body - reads the JSON body from standard input; options win over it; --json prints the resource', async () => {
    const body = { legalName: 'From the body', partyType: 'COMPANY', metadata: { erp: '1042' } }
    const run = await server.kassa(['counterparties', 'create', '--body', '-', '--legal-name', 'From the option', '--json'], { input: JSON.stringify(body) })
    const created = jsonOf<{ id: string; legalName: string; partyType: string; metadata: Record<string, string> }>(run)
    expect(created).toMatchObject({ legalName: 'From the option', partyType: 'COMPANY', metadata: { erp: '1042' } })
    expect(created).toEqual(await apiGet(server, `/payments/v2/counterparties/${created.id}`))
  })

  it('list prints every counterparty, following nextToken page after page; --json prints the items the API lists', async () => {
    const all = await apiGet<{ items: Listed[] }>(server, '/payments/v2/counterparties?limit=500')
    expect(all.items.length).toBeGreaterThanOrEqual(3)
    const paged = await server.kassa(['counterparties', 'list', '--page-size', '1', '--json'])
    expect(jsonOf<Listed[]>(paged)).toEqual(all.items)

    const table = await server.kassa(['counterparties', 'list', '--page-size', '2'])
    expect(table.code).toBe(0)
    const rows = tableRows(table.stdout)
    expect(rows[0]).toEqual(['ID', 'LEGAL NAME', 'ALIAS', 'ACCOUNT', 'ACCOUNTS', 'EXTERNAL ID'])
    expect(rows.slice(1).map((row) => row[0])).toEqual(all.items.map((item) => item.id))
    expect(rows.find((row) => row[0] === all.items.find((item) => item.externalId === 'list-alpha')!.id)).toEqual([
      expect.any(String),
      'Listable Alpha',
      'acme',
      `IBAN ${IBANS.de}`,
      '1',
      'list-alpha',
    ])
  })

  it('list --limit stops after N items across pages; --query is the API filter query', async () => {
    const all = await apiGet<{ items: Listed[] }>(server, '/payments/v2/counterparties?limit=500')
    const limited = jsonOf<Listed[]>(await server.kassa(['counterparties', 'list', '--limit', '3', '--page-size', '2', '--json']))
    expect(limited).toEqual(all.items.slice(0, 3))
    const found = jsonOf<Listed[]>(await server.kassa(['counterparties', 'list', '--query', 'Alpha', '--json']))
    expect(found.map((item) => item.externalId)).toEqual(['list-alpha'])
    const none = await server.kassa(['counterparties', 'list', '--query', 'no such name'])
    expect(none).toMatchObject({ code: 0, stdout: 'No counterparties.\n' })
  })

  it('get shows one counterparty by id or external:ID; --json is the API resource', async () => {
    const stored = await apiGet<{ id: string }>(server, '/payments/v2/counterparties/external:list-beta')
    expect(jsonOf(await server.kassa(['counterparties', 'get', stored.id, '--json']))).toEqual(stored)
    const view = await server.kassa(['counterparties', 'get', 'external:list-beta'])
    expect(view.code).toBe(0)
    expect(view.stdout).toMatch(new RegExp(`^id: +${stored.id}\nexternalId: +list-beta\nlegalName: +Listable Beta\nalias: +acme\npartyType: +COMPANY\n`))
  })
})

describe('kassa credit-transfers', { timeout: SLOW }, () => {
  const create = (externalId: string, ...extra: string[]) =>
    server.kassa([
      'credit-transfers', 'create',
      '--source-account-id', server.operatingAccountId,
      '--destination-external-account-id', server.externalAccountId,
      '--amount', '1.15', '--currency', 'EUR',
      '--date', server.today,
      '--reference', `Invoice ${externalId}`,
      '--external-id', externalId,
      ...extra,
    ])

  it('create sends the decimal amount in exact minor units and prints the transfer', async () => {
    const run = await create('cli-ct-1')
    expect(run.stderr).toBe('')
    expect(run.code).toBe(0)
    const stored = await apiGet<{ id: string; status: string; amount: { value: number; currency: string }; scheme: string }>(
      server,
      '/payments/v2/credit-transfers/external:cli-ct-1',
    )
    // 1.15 * 100 is 114.99999999999999 in floating point.
    expect(stored).toMatchObject({ status: 'CREATED', amount: { value: 115, currency: 'EUR' }, scheme: 'SCT' })
    expect(run.stdout).toMatch(new RegExp(`^id: +${stored.id}$`, 'm'))
    expect(run.stdout).toMatch(/^status: +CREATED$/m)
    expect(run.stdout).toMatch(/^amount: +1\.15 EUR$/m)
  })

  it('create --idempotency-key: the same key twice creates one transfer', async () => {
    const first = jsonOf<{ id: string }>(await create('cli-ct-key', '--idempotency-key', 'cli-test-key-1', '--json'))
    const second = jsonOf<{ id: string }>(await create('cli-ct-key', '--idempotency-key', 'cli-test-key-1', '--json'))
    expect(second.id).toBe(first.id)
  })

  it('approve approves the first pending step', async () => {
    const created = jsonOf<{ id: string; approvalSteps: Array<{ id: string; status: string }> }>(await create('cli-ct-approve', '--json'))
    expect(created.approvalSteps.map((step) => step.status)).toEqual(['PENDING'])
    const run = await server.kassa(['credit-transfers', 'approve', created.id])
    expect(run.stderr).toBe('')
    expect(run.code).toBe(0)
    expect(run.stdout).toMatch(/^status: +APPROVED$/m)
    expect(run.stdout).toMatch(new RegExp(`^approvalStep: +${created.approvalSteps[0]!.id} APPROVED$`, 'm'))
    const stored = await apiGet<{ approvalSteps: Array<{ status: string }> }>(server, `/payments/v2/credit-transfers/${created.id}`)
    expect(stored.approvalSteps.map((step) => step.status)).toEqual(['APPROVED'])

    const again = await server.kassa(['credit-transfers', 'approve', created.id])
    expect(again.code).toBe(1)
    expect(again.stderr).toMatch(new RegExp(`^kassa: Credit transfer ${created.id} has no pending approval step \\(status [A-Z_]+\\)\n$`))
  })

  it('reject --reason rejects and the reason is kept in the REJECTED event', async () => {
    const created = jsonOf<{ id: string }>(await create('cli-ct-reject', '--json'))
    const rejected = jsonOf<{ status: string }>(await server.kassa(['credit-transfers', 'reject', created.id, '--reason', 'Duplicate of invoice 41', '--json']))
    expect(rejected.status).toBe('REJECTED')
    const events = await apiGet<{ items: Array<{ name: string; message?: string }> }>(server, `/payments/v2/credit-transfers/${created.id}/events`)
    expect(events.items.find((event) => event.name === 'REJECTED')?.message).toBe('Duplicate of invoice 41')
  })

  it('list maps its filters onto the query parameters and prints a table', async () => {
    const ids: Record<string, string> = {}
    for (const externalId of ['cli-list-a', 'cli-list-b']) {
      const created = await server.t.request({
        method: 'POST',
        url: '/payments/v2/credit-transfers',
        body: {
          amount: { currency: 'EUR', value: 125000 },
          date: server.today,
          scheme: 'SCT',
          source: { type: 'ACCOUNT', id: server.operatingAccountId },
          destination: { type: 'EXTERNAL_ACCOUNT', id: server.externalAccountId },
          reference: `Invoice ${externalId}`,
          externalId,
        },
      })
      expect(created.statusCode, created.body).toBe(201)
      ids[externalId] = created.json<{ id: string }>().id
    }
    const rejected = await server.t.request({ method: 'POST', url: `/payments/v2/credit-transfers/${ids['cli-list-b']}:reject` })
    expect(rejected.statusCode, rejected.body).toBe(202)

    const created = await apiGet<{ items: Listed[] }>(server, '/payments/v2/credit-transfers?status=CREATED&limit=500')
    expect(created.items.map((item) => item.id)).toContain(ids['cli-list-a'])
    expect(jsonOf<Listed[]>(await server.kassa(['credit-transfers', 'list', '--status', 'CREATED', '--json']))).toEqual(created.items)
    const byExternalId = jsonOf<Listed[]>(await server.kassa(['credit-transfers', 'list', '--external-id', 'cli-list-b', '--date-gte', server.today, '--json']))
    expect(byExternalId.map((item) => [item.id, item.status])).toEqual([[ids['cli-list-b'], 'REJECTED']])

    const table = await server.kassa(['credit-transfers', 'list', '--external-id', 'cli-list-a'])
    const rows = tableRows(table.stdout)
    expect(rows[0]).toEqual(['ID', 'STATUS', 'AMOUNT', 'DATE', 'TO', 'REFERENCE', 'EXTERNAL ID'])
    expect(rows.slice(1)).toEqual([[ids['cli-list-a'], 'CREATED', '1250.00 EUR', server.today, 'Payee GmbH', 'Invoice cli-list-a', 'cli-list-a']])
  })
})

describe('kassa transactions list', { timeout: SLOW }, () => {
  it('lists the transactions of an account as the API does; amounts right-aligned', async () => {
    const listed = await apiGet<{ items: Array<{ id: string; accountId: string }> }>(server, `/financial-data/v2/transactions?accountId=${server.operatingAccountId}&limit=4`)
    expect(listed.items).toHaveLength(4)
    const run = await server.kassa(['transactions', 'list', '--account-id', server.operatingAccountId, '--limit', '4', '--json'])
    expect(jsonOf(run)).toEqual(listed.items)
    const table = await server.kassa(['transactions', 'list', '--account-id', server.operatingAccountId, '--limit', '4'])
    const lines = table.stdout.trimEnd().split('\n')
    expect(lines[0]).toMatch(/^ID +DATE +AMOUNT +COUNTERPARTY +DESCRIPTION +RECONCILIATION$/)
    expect(lines.slice(1).map((line) => line.slice(0, 36))).toEqual(listed.items.map((item) => item.id))
    const amountEnds = lines.map((line) => /\d [A-Z]{3}(?= )/.exec(line)?.index)
    expect(new Set(amountEnds.slice(1)).size).toBe(1)
  })
})

describe('kassa webhooks deliveries WEBHOOK_ID', { timeout: SLOW }, () => {
  let receiver: Receiver
  afterAll(async () => {
    await receiver?.close()
  })

  it("lists the webhook's deliveries with their attempts", async () => {
    receiver = await startReceiver()
    const webhook = await createWebhook(server.t, { url: receiver.url, filter: [{ resource: 'counterparties', apiVersion: 2 }] })
    jsonOf(await server.kassa(['counterparties', 'create', '--legal-name', 'Webhook GmbH', '--json']))
    const deliveries = await waitForDeliveries(server.t, webhook.id, (all) => all.length === 1 && all[0]!.status === 'DELIVERED')
    expect(jsonOf<Listed[]>(await server.kassa(['webhooks', 'deliveries', webhook.id, '--json'])).map((item) => item.id)).toEqual(deliveries.map((item) => item.id))
    const table = await server.kassa(['webhooks', 'deliveries', webhook.id, '--status', 'DELIVERED'])
    expect(tableRows(table.stdout)).toEqual([
      ['ID', 'EVENT', 'ENTITY', 'STATUS', 'ATTEMPTS', 'LAST ATTEMPT', 'CREATED'],
      [deliveries[0]!.id, `counterparties ${deliveries[0]!.event.type}`, deliveries[0]!.entityId, 'DELIVERED', '1', 'HTTP 200', expect.any(String)],
    ])
    expect((await server.kassa(['webhooks', 'deliveries', webhook.id, '--status', 'FAILED'])).stdout).toBe('No deliveries.\n')
  })
})
