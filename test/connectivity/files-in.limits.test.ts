import { PassThrough } from 'node:stream'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { writePain002 as pain002 } from '../../src/connectivity/bank-side/index.js'
import { INBOUND_FILE_LIMIT } from '../../src/connectivity/files-in/pain002.model.js'
import type { Credentials } from '../../src/iam/index.js'
import { camtFixture, postStatement, sandboxAccounts } from '../financial-data/statements-helpers.js'
import { expectError } from '../payments/payments-helpers.js'
import { basicAuth, startTestApp, type TestApp } from '../support/test-app.js'
import { createConnection } from './connection-helpers.js'

/**
 * Issue 9 for POST /connectivity/v2/connections/{id}/files: the bank's file is read as a statement upload is —
 * bounded while it streams in, and under the same one-import-at-a-time gate — so an upload of either kind
 * waits for none of the other and several at once cannot add up past the statements' memory budget.
 */
let t: TestApp
let filesUrl: string
beforeAll(async () => {
  t = await startTestApp({ paymentWorkerIntervalMilliseconds: false, webhooks: { startWorker: false } })
  filesUrl = `/connectivity/v2/connections/${(await createConnection(t, {}, t.owner)).id}/files`
})
afterAll(() => t.close())

const report = (messageId: string) => pain002({ version: 'pain.002.001.10', messageId, originalMessageId: 'X', groupStatus: 'ACSC' })
const streamed = (url: string, payload: PassThrough, as: Credentials = t.owner) =>
  t.app.inject({ method: 'POST', url, headers: { authorization: basicAuth(as), 'content-type': 'application/xml' }, payload })

/** Starts an upload to `url` whose body arrives in two halves, and waits until the server has read the first. */
async function slowUpload(url: string, body: string, as?: Credentials) {
  const payload = new PassThrough()
  const answer = streamed(url, payload, as)
  payload.write(body.slice(0, body.length / 2))
  for (let waited = 0; payload.readableLength > 0 && waited < 5_000; waited += 10) await new Promise((resolve) => setTimeout(resolve, 10))
  expect(payload.readableLength).toBe(0)
  return { finish: () => (payload.end(body.slice(body.length / 2)), answer) }
}

const uploadFile = (xml: string) => t.request({ method: 'POST', url: filesUrl, body: xml, headers: { 'content-type': 'application/xml' } })

function expectBusy(response: Awaited<ReturnType<typeof uploadFile>>) {
  expect(expectError(response, 503, 'unavailable').message).toBe('Another statement or bank file is being imported; retry when it is done')
  expect(response.headers['retry-after']).toBe('5')
}

describe('files in: size', () => {
  it(`refuses a body streamed past ${INBOUND_FILE_LIMIT / 1024 / 1024} MiB without a Content-Length with a 413 naming the limit`, async () => {
    const payload = new PassThrough()
    const answer = streamed(filesUrl, payload)
    const slab = `<!--${' '.repeat(1024 * 1024 - 7)}-->`
    payload.write('<?xml version="1.0"?>')
    for (let sent = 0; sent <= INBOUND_FILE_LIMIT; sent += slab.length) payload.write(slab)
    payload.end()
    const response = await answer
    expect(expectError(response, 413, 'payload_too_large').message).toBe("The bank's file is too large: it is larger than 16 MiB. Kassa reads files of up to 16 MiB here")
  })

  it('refuses a Content-Length past the limit with a 413 before reading the body', async () => {
    const response = await t.request({ method: 'POST', url: filesUrl, body: report('STS-SIZE'), headers: { 'content-type': 'application/xml', 'content-length': String(INBOUND_FILE_LIMIT + 1) } })
    expect(expectError(response, 413, 'payload_too_large').message).toContain('its Content-Length is 16.0 MiB')
  })
})

describe('files in: one import at a time, with statements', () => {
  it('answers 503 with Retry-After to a bank file and to a statement while a bank file is read, then takes the next', async () => {
    const nordic = camtFixture('camt053-001-08-nordic.xml', { nordic: (await sandboxAccounts(t)).nordic.iban })
    const slow = await slowUpload(filesUrl, report('STS-SLOW'))
    expectBusy(await uploadFile(report('STS-MEANWHILE')))
    expectBusy(await postStatement(t, nordic))
    const done = await slow.finish()
    expect(done.statusCode, done.body).toBe(201)
    expect((await uploadFile(report('STS-AFTER'))).statusCode).toBe(201)
    expect((await postStatement(t, nordic)).statusCode).toBe(201)
  })

  it('answers 503 with Retry-After to a bank file while a statement is read', async () => {
    const organization = await t.newOrganization('Statement first')
    const file = camtFixture('camt053-001-08-nordic.xml', { nordic: (await sandboxAccounts(t, organization)).nordic.iban })
    const statement = await slowUpload('/financial-data/v2/statements', file, organization)
    expectBusy(await uploadFile(report('STS-DURING-STATEMENT')))
    expect((await statement.finish()).statusCode).toBe(201)
    expect((await uploadFile(report('STS-DURING-STATEMENT'))).statusCode).toBe(201)
  })
})
