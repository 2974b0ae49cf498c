import { mkdtemp } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect } from 'vitest'
import type { Connection } from '../../src/connectivity/connections/index.js'
import type { Credentials } from '../../src/iam/index.js'
import { submitPayment } from '../../src/payments/processing/payment-submitter.js'
import { gatherDueFiles } from '../../src/connectivity/index.js'
import { createTransfer, expectStatus, getPayment, transferBody, type Kind, type PaymentJson, approveAsOwner } from '../payments/lifecycle-helpers.js'
import type { TestApp } from '../support/test-app.js'
import { createConnection } from './connection-helpers.js'

/** Shared steps of the files-out tests: a FILES connection with a 0-second window, an own account on it. */

export const FILES = '/connectivity/v2/files'

/** A valid German IBAN no fixture uses: the own account at the connection's bank. */
export const OWN_IBAN = 'DE02120300000000202051'

export interface FilesSetup {
  connection: Connection
  accountId: string
  outboxDir: string
}

export async function filesConnection(t: TestApp, as: Credentials, overrides: Record<string, unknown> = {}): Promise<FilesSetup> {
  const outboxDir = await mkdtemp(join(tmpdir(), 'kassa-outbox-'))
  const connection = await createConnection(
    t,
    { batchingWindowSeconds: 0, creditorSchemeId: 'DE98ZZZ09999999999', outboxDir: join(outboxDir, 'out'), ...overrides },
    as,
  )
  const account = await t.request({
    method: 'POST',
    url: '/financial-data/v2/accounts',
    body: {
      name: 'Geschäftskonto',
      market: 'DE',
      currency: 'EUR',
      bank: { name: 'Deutsche Kreditbank', bic: 'BYLADEM1001' },
      identifiers: [{ market: 'DE', type: 'IBAN', number: OWN_IBAN }],
      connectionId: connection.id,
    },
    as,
  })
  expectStatus(account, 201)
  return { connection, accountId: account.json().id, outboxDir: join(outboxDir, 'out') }
}

/** Approves the payment and runs the submission the payment worker would: it stays PENDING_SUBMISSION, queued. */
export async function approveAndSubmit(t: TestApp, as: Credentials, kind: Kind, payment: PaymentJson): Promise<void> {
  await approveAsOwner(t, as, kind, payment)
  const row = await t.db.database.db.selectFrom('payments').selectAll().where('id', '=', payment.id).executeTakeFirstOrThrow()
  expect(await submitPayment(t.db.database, row)).toBe(true)
}

/** The text of every `<name>` element in the XML, in order. */
export function elementTexts(xml: string, name: string): string[] {
  return [...xml.matchAll(new RegExp(`<${name}>([^<]*)</${name}>`, 'g'))].map((match) => match[1]!)
}

/** Credit transfers of these amounts (EUR minor units) to `destinationId`, gathered into one pain.001: its MsgId and the payments, all SENT. */
export async function sentInOneFile(t: TestApp, as: Credentials, files: FilesSetup, destinationId: string, amounts: number[]): Promise<{ messageId: string; payments: PaymentJson[] }> {
  const payments: PaymentJson[] = []
  for (const value of amounts) {
    const payment = await createTransfer(t, as, transferBody(files.accountId, destinationId, { amount: { currency: 'EUR', value } }))
    await approveAndSubmit(t, as, 'CREDIT_TRANSFER', payment)
    payments.push(payment)
  }
  expect(await gatherDueFiles(t.db.database)).toEqual({ made: 1, failures: [] })
  const sent = await getPayment(t, as, 'CREDIT_TRANSFER', payments[0]!.id)
  expect(sent.status).toBe('SENT')
  return { messageId: sent.connectionInstructionId!, payments }
}
