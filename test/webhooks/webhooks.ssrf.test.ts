import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { counterpartyBody } from '../support/fixtures.js'
import type { TestApp } from '../support/test-app.js'
import type { HostResolver } from '../../src/webhooks/index.js'
import { expectError, startWebhookTestApp, waitForDeliveries, WEBHOOKS } from './webhook-helpers.js'

/**
 * Name resolution is stubbed: these tests never open a connection to anything but loopback.
 * `dns` maps host names to what the "DNS" answers right now.
 */
const dns: Record<string, string[]> = {
  'hooks.example.com': ['93.184.215.14'],
  'intranet.example.com': ['10.20.30.40'],
  'metadata.example.com': ['169.254.169.254'],
  'localhost.example.com': ['127.0.0.1'],
}
const resolve: HostResolver = async (hostname) => {
  const addresses = dns[hostname]
  if (!addresses) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' })
  return addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }))
}

const FILTER = [{ resource: 'counterparties', apiVersion: 2 }]
let strict: TestApp
let loopback: TestApp

beforeAll(async () => {
  strict = await startWebhookTestApp({ webhookAllowLoopback: false, webhooks: { resolve } })
  loopback = await startWebhookTestApp({ webhookAllowLoopback: true, webhooks: { resolve, startWorker: false } })
})
afterAll(async () => {
  await strict.close()
  await loopback.close()
})

async function refusal(t: TestApp, url: string): Promise<string> {
  const response = await t.request({ method: 'POST', url: WEBHOOKS, body: { url, filter: FILTER } })
  const error = expectError(response, 400, 'invalid_request')
  expect(error.details).toHaveLength(1)
  expect(error.details![0]).toMatchObject({ field: 'url', code: 'refused_url' })
  return error.details![0]!.error
}

describe('webhook URLs: SSRF refusal at creation', () => {
  it('refuses http, loopback, private and link-local targets without KASSA_WEBHOOK_ALLOW_LOOPBACK', async () => {
    expect(await refusal(strict, 'http://hooks.example.com/kassa')).toBe('must be an https URL')
    expect(await refusal(strict, 'https://127.0.0.1:8443/hooks')).toMatch(/loopback/)
    expect(await refusal(strict, 'https://[::1]/hooks')).toMatch(/loopback/)
    expect(await refusal(strict, 'https://localhost.example.com/hooks')).toMatch(/resolves to 127\.0\.0\.1, a loopback address/)
    expect(await refusal(strict, 'https://10.0.0.1/hooks')).toMatch(/private/)
    expect(await refusal(strict, 'https://intranet.example.com/hooks')).toMatch(/resolves to 10\.20\.30\.40, a private address/)
    expect(await refusal(strict, 'https://169.254.169.254/latest/meta-data/')).toMatch(/linkLocal/)
    expect(await refusal(strict, 'https://metadata.example.com/')).toMatch(/linkLocal/)
    expect(await refusal(strict, 'https://unknown.example.com/')).toMatch(/does not resolve/)
  })

  it('accepts https to a public host, and refuses a PUT to a private one', async () => {
    const created = await strict.request({ method: 'POST', url: WEBHOOKS, body: { url: 'https://hooks.example.com/kassa', filter: FILTER } })
    expect(created.statusCode, created.body).toBe(201)
    const replaced = await strict.request({ method: 'PUT', url: `${WEBHOOKS}/${created.json().id}`, body: { url: 'https://10.0.0.1/', filter: FILTER } })
    expect(expectError(replaced, 400, 'invalid_request').details![0]!.field).toBe('url')
    await strict.request({ method: 'DELETE', url: `${WEBHOOKS}/${created.json().id}` })
  })

  it('with the setting, admits http and loopback but still refuses private and link-local targets', async () => {
    const created = await loopback.request({ method: 'POST', url: WEBHOOKS, body: { url: 'http://127.0.0.1:9/hooks', filter: FILTER } })
    expect(created.statusCode, created.body).toBe(201)
    expect(await refusal(loopback, 'http://10.0.0.1/hooks')).toMatch(/private/)
    expect(await refusal(loopback, 'http://169.254.169.254/latest/meta-data/')).toMatch(/linkLocal/)
    expect(await refusal(loopback, 'http://intranet.example.com/hooks')).toMatch(/private/)
  })
})

describe('webhook URLs: SSRF refusal at delivery', () => {
  it('checks the address again before every attempt: a host that now resolves privately is not contacted', async () => {
    dns['rebind.example.com'] = ['93.184.215.14']
    const webhook = (await strict.request({ method: 'POST', url: WEBHOOKS, body: { url: 'https://rebind.example.com/hooks', filter: FILTER } })).json()
    dns['rebind.example.com'] = ['169.254.169.254']
    await strict.request({ method: 'POST', url: '/payments/v2/counterparties', body: counterpartyBody() })
    const [delivery] = await waitForDeliveries(strict, webhook.id, ([d]) => (d?.attempts.length ?? 0) >= 2)
    expect(delivery!.status).toBe('PENDING')
    for (const attempt of delivery!.attempts) {
      expect(attempt).not.toHaveProperty('statusCode')
      expect(attempt.error).toBe('refused: the URL resolves to 169.254.169.254, a linkLocal address; webhooks may only target public addresses')
    }
    await strict.request({ method: 'DELETE', url: `${WEBHOOKS}/${webhook.id}` })
  })
})
