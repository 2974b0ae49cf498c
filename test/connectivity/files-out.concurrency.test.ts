import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { gatherDueFiles } from '../../src/connectivity/index.js'
import { BASE, createTransfer, getPayment, setup, transferBody, type PaymentJson, type Setup } from '../payments/lifecycle-helpers.js'
import { startTestApp, type TestApp } from '../support/test-app.js'
import { approveAndSubmit, filesConnection, type FilesSetup } from './files-out-helpers.js'

/**
 * A cancel racing the making of the file its queued payment goes in leaves one outcome: cancelled (202) and in
 * no file, or SENT in the file and the cancel refused (409). Both lock the payment first — the cancel to move
 * it, the file step through its status listener before it claims the queue — so the second waits for the first
 * (on PostgreSQL for the row, on SQLite for the one writer) and sees what it committed; neither fails.
 */
let t: TestApp
let org: Setup
let files: FilesSetup
beforeAll(async () => {
  t = await startTestApp({ paymentWorkerIntervalMilliseconds: false })
  org = await setup(t)
  files = await filesConnection(t, t.owner)
})
afterAll(() => t.close())

describe('cancel against the file step', () => {
  it('never puts a cancelled payment in a file nor leaves a SENT one out, whichever commits first', async () => {
    const payments: PaymentJson[] = []
    for (let round = 0; round < 8; round++) {
      const target = await createTransfer(t, t.owner, transferBody(files.accountId, org.supplierAccountId, { amount: { currency: 'EUR', value: 10_00 + round } }))
      const companion = await createTransfer(t, t.owner, transferBody(files.accountId, org.supplierAccountId, { amount: { currency: 'EUR', value: 20_00 + round } }))
      for (const payment of [target, companion]) await approveAndSubmit(t, t.owner, 'CREDIT_TRANSFER', payment)
      const [gathered, cancel] = await Promise.all([gatherDueFiles(t.db.database), t.request({ method: 'POST', url: `${BASE.CREDIT_TRANSFER}/${target.id}:cancel` })])
      expect([202, 409], cancel.body).toContain(cancel.statusCode)
      expect(gathered.failures).toEqual([])
      // A cancel that came first leaves the companion for the next pass.
      await gatherDueFiles(t.db.database)
      payments.push(target, companion)
    }
    const rows = await t.db.database.db.selectFrom('bank_files').select('payment_ids').where('connection_id', '=', files.connection.id).execute()
    const inFiles = rows.flatMap((row) => JSON.parse(row.payment_ids) as string[])
    expect(new Set(inFiles).size).toBe(inFiles.length)
    for (const payment of payments) {
      const { status } = await getPayment(t, t.owner, 'CREDIT_TRANSFER', payment.id)
      expect(['SENT', 'CANCELLED']).toContain(status)
      expect(inFiles.includes(payment.id), `${payment.id} ${status}`).toBe(status === 'SENT')
    }
  })
})
