import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { INBOUND_FILE_LIMIT } from '../../src/connectivity/files-in/pain002.model.js'
import type { Credentials } from '../../src/iam/index.js'
import { liveOrganization } from '../financial-data/sandbox-helpers.js'
import { expectError } from '../payments/payments-helpers.js'
import { startTestApp, type TestApp } from '../support/test-app.js'
import { createConnection } from './connection-helpers.js'
import { writePain002 as pain002 } from '../../src/connectivity/bank-side/index.js'

/** Issue 12, files in: what POST /connectivity/v2/connections/{id}/files refuses, in the error envelope, changing nothing. */
let t: TestApp
let connectionId: string
beforeAll(async () => {
  t = await startTestApp({ paymentWorkerIntervalMilliseconds: false })
  connectionId = (await createConnection(t, {}, t.owner)).id
})
afterAll(() => t.close())

const upload = (xml: string, as: Credentials = t.owner, contentType = 'application/xml') =>
  t.request({ method: 'POST', url: `/connectivity/v2/connections/${connectionId}/files`, body: xml, headers: { 'content-type': contentType }, as })

describe('files in: refusals', () => {
  const minimal = pain002({ version: 'pain.002.001.10', messageId: 'STS-REFUSED', originalMessageId: 'X', groupStatus: 'ACSC' })

  it('refuses a DOCTYPE, malformed XML and a missing id with a 400', async () => {
    const doctype = minimal.replace('<Document', '<!DOCTYPE Document [<!ENTITY x "y">]>\n<Document')
    expect((await upload(doctype)).json().details[0].code).toBe('doctype_not_allowed')
    expectError(await upload(doctype), 400, 'invalid_request')
    expectError(await upload('this is not xml'), 400, 'invalid_request')
    expectError(await upload(minimal.replace('</CstmrPmtStsRpt>', '')), 400, 'invalid_request')
    expectError(await upload(minimal.replace('<OrgnlMsgId>X</OrgnlMsgId>', '')), 400, 'invalid_request')
    expectError(await upload(minimal.replace('<GrpSts>ACSC</GrpSts>', '<GrpSts>DONE</GrpSts>')), 400, 'invalid_request')
  })

  it('refuses other messages with a 422 that says what is read', async () => {
    const pacs = await upload('<?xml version="1.0"?><Document xmlns="urn:iso:std:iso:20022:tech:xsd:pacs.004.001.09"><PmtRtr/></Document>')
    expectError(pacs, 422, 'unsupported_message')
    expect(pacs.json().message).toContain('pacs.004.001.09')
    expect(pacs.json().message).toContain('pain.002.001.10')
    expect(pacs.json().message).toContain('camt.054')
    // A camt is read as a statement: one without its notification is a 400 that says so.
    const camt = await upload('<?xml version="1.0"?><Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.054.001.08"><BkToCstmrDbtCdtNtfctn/></Document>')
    expectError(camt, 400, 'invalid_request')
    expectError(await upload(minimal.replace('pain.002.001.10', 'camt.054.001.01')), 422, 'unsupported_message')
    expectError(await upload('<Document><CstmrPmtStsRpt/></Document>'), 422, 'unsupported_message')
    expectError(await upload(minimal.replace('pain.002.001.10', 'pain.002.001.14')), 422, 'unsupported_message')
  })

  it('refuses a file past the size limit with a 413', async () => {
    const padded = minimal.replace('<CstmrPmtStsRpt>', `<!--${' '.repeat(INBOUND_FILE_LIMIT)}--><CstmrPmtStsRpt>`)
    expectError(await upload(padded), 413, 'payload_too_large')
  })

  it('takes XML only (415), and the connection of the own organization only (404)', async () => {
    expectError(await upload(minimal, t.owner, 'application/json'), 415, 'unsupported_media_type')
    const other = await liveOrganization(t.db.database)
    expectError(await upload(minimal, other), 404, 'not_found')
  })

  it('needs connections:update: a read-only key gets 403', async () => {
    expectError(await upload(minimal, await t.newKey('read-only')), 403, 'forbidden')
  })
})

describe('files in: after the refusals', () => {
  it('kept no file', async () => {
    expect(await t.db.database.db.selectFrom('bank_files').select('id').where('direction', '=', 'INBOUND').execute()).toEqual([])
  })
})
