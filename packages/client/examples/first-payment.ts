/**
 * The README's first payment, written with @kassa/client: a counterparty, the own accounts, a JSON Patch,
 * a webhook whose deliveries are verified, a credit transfer approved by the Owner and followed to
 * RECONCILED. Run against a server started with KASSA_WEBHOOK_ALLOW_LOOPBACK=true:
 *
 *   KASSA_URL=http://127.0.0.1:8080 KASSA_ACCESS_KEY=… KASSA_SECRET=… node first-payment.js
 */
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { pathToFileURL } from 'node:url'
import { createKassaClient, KassaApiError, paginate, patchResource, verifyWebhookSignature } from '@kassa/client'

export interface FirstPaymentOptions {
  baseUrl: string
  accessKey: string
  secret: string
  /** Where each step reports; the console by default. */
  log?: (line: string) => void
  /** How long to follow the transfer to RECONCILED. Default 30 s. */
  timeoutMilliseconds?: number
}

export interface FirstPaymentResult {
  counterpartyId: string
  transferId: string
  status: string
  /** The event names of the transfer, in order. */
  events: string[]
  /** Each webhook delivery received: its event name and whether its signature verified. */
  webhooks: Array<{ event: string; verified: boolean }>
}

/** A webhook receiver on 127.0.0.1 that verifies each delivery's signature with the webhook's keys. */
async function startReceiver(keys: () => string[], received: FirstPaymentResult['webhooks'], log: (line: string) => void) {
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = []
    request.on('data', (chunk: Buffer) => chunks.push(chunk))
    request.on('end', async () => {
      const body = Buffer.concat(chunks)
      const verified = await verifyWebhookSignature({
        body,
        timestamp: request.headers['webhook-request-timestamp'] as string | undefined,
        signatureHeader: request.headers['webhook-signature'] as string | undefined,
        keys: keys(),
      })
      const { event, entity } = JSON.parse(body.toString('utf8')) as { event: { name: string }; entity: { status?: string } }
      received.push({ event: event.name, verified })
      log(`webhook: ${event.name} -> ${entity.status} ${verified ? '(signature ok)' : '(BAD SIGNATURE)'}`)
      response.writeHead(verified ? 200 : 400).end()
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/kassa`, close: () => new Promise((resolve) => server.close(resolve)) }
}

export async function firstPayment(options: FirstPaymentOptions): Promise<FirstPaymentResult> {
  const { baseUrl, accessKey, secret, log = console.log, timeoutMilliseconds = 30_000 } = options
  const kassa = createKassaClient({ baseUrl, accessKey, secret })

  // 1. A counterparty holding an external account. Our own key, named after what it creates, makes
  // running this again replay the first answer instead of creating a second Acme.
  const create = () =>
    kassa.POST('/payments/v2/counterparties', {
      body: {
        externalId: 'acme-gmbh',
        legalName: 'Acme GmbH',
        alias: 'acme',
        partyType: 'COMPANY',
        accounts: [{ market: 'DE', identifiers: [{ market: 'DE', type: 'IBAN', number: 'DE89370400440532013000' }] }],
      },
      headers: { 'Idempotency-Key': 'create-acme-gmbh' },
    })
  const { data: counterparty } = await create()
  log(`1. counterparty ${counterparty.id} (${counterparty.legalName}), account ${counterparty.accounts[0]!.id}`)

  // 2. The retry replays the first answer: the same counterparty, nothing created.
  const { data: again, response } = await create()
  log(`2. retried: same id ${again.id === counterparty.id}, replayed ${response.headers.get('idempotent-replayed')}`)

  // 3. The own accounts, every page: paginate follows nextToken until it is empty.
  const accounts = []
  for await (const account of paginate(kassa, '/financial-data/v2/accounts', { query: { limit: 2 } })) accounts.push(account)
  log(`3. accounts: ${accounts.map((account) => `${account.name} (${account.currency})`).join(', ')}`)
  const source = accounts.find((account) => account.currency === 'EUR')
  if (!source) throw new Error('no EUR account to pay from')

  // 4. The counterparty by the id we gave it.
  const { data: byExternalId } = await kassa.GET('/payments/v2/counterparties/{id}', { params: { path: { id: 'external:acme-gmbh' } } })
  log(`4. external:acme-gmbh is ${byExternalId.id}, etag ${byExternalId.etag}`)

  // 5. A JSON Patch at its etag; the same patch at the now stale etag is refused with a 412.
  const path = { id: 'external:acme-gmbh' }
  const patched = await patchResource(kassa, '/payments/v2/counterparties/{id}', {
    params: { path },
    etag: byExternalId.etag,
    operations: [{ op: 'replace', path: '/alias', value: 'acme-payables' }],
  })
  log(`5. alias ${patched.alias}, version ${patched.version}`)
  try {
    await patchResource(kassa, '/payments/v2/counterparties/{id}', {
      params: { path },
      etag: byExternalId.etag,
      operations: [{ op: 'replace', path: '/alias', value: 'acme' }],
    })
  } catch (error) {
    if (!(error instanceof KassaApiError)) throw error
    log(`   stale etag: ${error.status} ${error.code} (request ${error.requestId})`)
  }

  // 6. A webhook for credit transfers, delivered to a receiver that checks every signature.
  const webhooks: FirstPaymentResult['webhooks'] = []
  let signingKeys: string[] = []
  const receiver = await startReceiver(() => signingKeys, webhooks, log)
  try {
    const { data: webhook } = await kassa.POST('/v1/webhooks', {
      body: { name: 'payments', url: receiver.url, filter: [{ resource: 'credit_transfers', apiVersion: 2 }] },
    })
    signingKeys = webhook.keys.map((key) => key.signingKey)
    log(`6. webhook ${webhook.id} -> ${webhook.url}`)

    // 7. A credit transfer of EUR 125.00 (amounts are integer minor units), dated the bank's business day.
    const { data: clock } = await kassa.GET('/v1/sandbox/clock')
    const { data: transfer } = await kassa.POST('/payments/v2/credit-transfers', {
      body: {
        amount: { currency: 'EUR', value: 12500 },
        date: clock.today,
        scheme: 'SCT',
        source: { type: 'ACCOUNT', id: source.id },
        destination: { type: 'EXTERNAL_ACCOUNT', id: counterparty.accounts[0]!.id },
        reference: 'Invoice 2026-117',
      },
      headers: { 'Idempotency-Key': 'invoice-2026-117' },
    })
    log(`7. credit transfer ${transfer.id}: ${transfer.status}, ${transfer.amount.stringValue} ${transfer.amount.currency}`)

    // 8. The Owner approves it; the sandbox bank takes it from there.
    const step = transfer.approvalSteps.find((candidate) => candidate.status === 'PENDING')
    if (!step) throw new Error('the transfer waits for no approval')
    const { data: approved } = await kassa.POST('/payments/v2/credit-transfers/{id}:approve', {
      params: { path: { id: transfer.id } },
      body: { approvalStepId: step.id },
    })
    log(`8. approved: ${approved.status}`)
    let status = approved.status
    const deadline = Date.now() + timeoutMilliseconds
    while (status !== 'RECONCILED') {
      if (Date.now() > deadline) throw new Error(`the transfer is still ${status} after ${timeoutMilliseconds} ms`)
      await new Promise((resolve) => setTimeout(resolve, 200))
      const { data: current } = await kassa.GET('/payments/v2/credit-transfers/{id}', { params: { path: { id: transfer.id } } })
      status = current.status
    }
    log(`   status: ${status}`)
    // Deliveries run beside the payment: wait for the last one.
    while (!webhooks.some((delivery) => delivery.event === 'RECONCILED')) {
      if (Date.now() > deadline) throw new Error(`no RECONCILED webhook after ${timeoutMilliseconds} ms`)
      await new Promise((resolve) => setTimeout(resolve, 100))
    }

    // Its history, every page of it.
    const events: string[] = []
    for await (const event of paginate(kassa, '/payments/v2/credit-transfers/{id}/events', { path: { id: transfer.id } })) {
      events.push(event.name)
    }
    log(`   events: ${events.join(', ')}`)

    // 9. A mistake is a KassaApiError naming the field.
    try {
      await kassa.POST('/payments/v2/counterparties', {
        body: { legalName: 'Typo Ltd', accounts: [{ market: 'DE', identifiers: [{ market: 'DE', type: 'IBAN', number: 'DE89370400440532013001' }] }] },
      })
    } catch (error) {
      if (!(error instanceof KassaApiError)) throw error
      log(`9. ${error.status} ${error.code}: ${error.details.map((detail) => `${detail.field} ${detail.error}`).join('; ')}`)
    }
    return { counterpartyId: counterparty.id, transferId: transfer.id, status, events, webhooks }
  } finally {
    await receiver.close()
  }
}

// Run as a script: the server and credentials from the environment.
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const { KASSA_URL = 'http://127.0.0.1:8080', KASSA_ACCESS_KEY, KASSA_SECRET } = process.env
  if (!KASSA_ACCESS_KEY || !KASSA_SECRET) throw new Error('set KASSA_ACCESS_KEY and KASSA_SECRET (the Owner key printed at the first start)')
  await firstPayment({ baseUrl: KASSA_URL, accessKey: KASSA_ACCESS_KEY, secret: KASSA_SECRET })
}
