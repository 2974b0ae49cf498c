import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildApp } from '../../src/app.js'
import { openDatabase, type Database } from '../../src/db/database.js'
import type { PaymentsTable } from '../../src/db/schema.js'
import type { ApiApp } from '../../src/http/api-app.js'
import { cancelPayment } from '../../src/payments/lifecycle/payment-cancellation.js'
import { submitPayment } from '../../src/payments/processing/payment-submitter.js'
import type { CommandContext } from '../../src/shared/command-context.js'
import { startTestApp, type TestApp } from '../support/test-app.js'
import { expectError } from './payments-helpers.js'
import {
  approveAsOwner,
  createTransfer,
  CREDIT_TRANSFERS,
  eventsOf,
  expectNeverSent,
  getPayment,
  overSocket,
  settled,
  setup,
  transferBody,
  type PaymentJson,
  type Setup,
} from './lifecycle-helpers.js'

/**
 * A cancel concurrent with the submission of the same payment to the bank leaves exactly one outcome:
 * cancelled and never sent, or sent and the cancel refused with 409. Both lock the payment's row first
 * (lockPayment), so the second waits for the first and sees what it committed. Held commits make each
 * order happen for sure (on PostgreSQL the waiter waits for the row; on SQLite for the one writer); races
 * over real sockets, against the payment workers of two servers on one database, make the orders happen
 * as they come.
 */
let idle: TestApp
let idleOrg: Setup
let live: TestApp
let base: string
/** A second server on the same database with its own connections and its own payment worker, as another process would be. */
let second: { app: ApiApp; database: Database; base: string }

beforeAll(async () => {
  ;[idle, live] = await Promise.all([startTestApp({ paymentWorkerIntervalMilliseconds: false }), startTestApp({ paymentWorkerIntervalMilliseconds: 50 })])
  idleOrg = await setup(idle)
  base = await live.app.listen({ host: '127.0.0.1', port: 0 })
  const database = openDatabase(live.db.url)
  const app = await buildApp({ config: { rateLimitPerMinute: 100_000, maintenance: false, logLevel: 'silent' }, database, paymentWorkerIntervalMilliseconds: 50 })
  second = { app, database, base: await app.listen({ host: '127.0.0.1', port: 0 }) }
})
afterAll(async () => {
  await second?.app.close()
  await second?.database.close()
  await Promise.all([idle?.close(), live?.close()])
})

const CANCELLED_TOO_LATE = /^The payment is [A-Z_]+: it was sent to the bank, which has it now, so it can no longer be cancelled here; ask the bank to recall it$/

/** `database` whose transactions, their work done, wait for `release()` before committing; `holding` resolves when one waits. */
function holdingCommits(database: Database) {
  let held!: () => void
  let release!: () => void
  const holding = new Promise<void>((resolve) => (held = resolve))
  const released = new Promise<void>((resolve) => (release = resolve))
  const holder: Database = {
    ...database,
    transaction: (work) =>
      database.transaction(async (trx) => {
        const result = await work(trx)
        held()
        await released
        return result
      }),
  }
  return { database: holder, holding, release }
}

/** Long enough for a request to reach the lock it then waits on. */
const aMoment = () => new Promise((resolve) => setTimeout(resolve, 200))

/** An approved payment, and the payment worker's queue entry for it (read while it was APPROVED). */
async function approvedPayment(): Promise<{ payment: PaymentJson; queued: PaymentsTable }> {
  const payment = await approveAsOwner(idle, idle.owner, 'CREDIT_TRANSFER', await createTransfer(idle, idle.owner, transferBody(idleOrg.eurAccountIds[0]!, idleOrg.supplierAccountId)))
  const queued = await idle.db.database.db.selectFrom('payments').selectAll().where('id', '=', payment.id).executeTakeFirstOrThrow()
  return { payment, queued }
}

describe('a cancel and a submission of the same payment', () => {
  it('a submission about to commit: the cancel waits for it, then answers 409 because the bank has the payment', async () => {
    const { payment, queued } = await approvedPayment()
    const submitter = holdingCommits(idle.db.database)
    const submission = submitPayment(submitter.database, queued)
    await submitter.holding
    const cancelling = idle.request({ method: 'POST', url: `${CREDIT_TRANSFERS}/${payment.id}:cancel` })
    await aMoment()
    submitter.release()
    expect(await submission).toBe(true)
    expect(expectError(await cancelling, 409, 'conflict').message).toMatch(CANCELLED_TOO_LATE)
    const names = (await eventsOf(idle, idle.owner, 'CREDIT_TRANSFER', payment.id)).map((event) => event.name)
    expect(names.filter((name) => name === 'SENT_TO_BANK' || name === 'CANCELLED')).toEqual(['SENT_TO_BANK'])
  })

  it('a cancel about to commit: the submission waits for it, finds the payment CANCELLED and sends nothing', async () => {
    const { payment, queued } = await approvedPayment()
    const canceller = holdingCommits(idle.db.database)
    const actor = { organizationId: idle.owner.organizationId, userId: idle.owner.userId, accessKeyId: 'test', roleId: 'test', roleName: 'owner', owner: true, permissions: new Set<never>() }
    const ctx: CommandContext = { actor, transaction: (work) => canceller.database.transaction(work) }
    const cancelling = cancelPayment(ctx, 'CREDIT_TRANSFER', { id: payment.id }, {})
    await canceller.holding
    const submission = submitPayment(idle.db.database, queued)
    await aMoment()
    canceller.release()
    expect((await cancelling).status).toBe('CANCELLED')
    expect(await submission).toBe(false)
    expect((await getPayment(idle, idle.owner, 'CREDIT_TRANSFER', payment.id)).status).toBe('CANCELLED')
    await expectNeverSent(idle, idle.owner, 'CREDIT_TRANSFER', payment.id)
  })

  it('cancels racing the payment workers of two servers, over sockets: each payment cancelled and never sent, or sent and the cancel refused', async () => {
    const org = await setup(live, await live.newOrganization('Second thoughts GmbH'))
    const outcomes: string[] = []
    for (let round = 0; round < 6; round++) {
      const payment = await createTransfer(live, org.as, transferBody(org.eurAccountIds[round % 2]!, org.supplierAccountId, { reference: `Race ${round}` }))
      // The approval wakes its server's worker at once; the cancel goes to the other server right after.
      const approval = await overSocket(round % 2 === 0 ? base : second.base, org.as, 'POST', `${CREDIT_TRANSFERS}/${payment.id}:approve`, { approvalStepId: payment.approvalSteps[0]!.id })
      expect(approval.status, approval.body).toBe(202)
      const cancellation = await overSocket(round % 2 === 0 ? second.base : base, org.as, 'POST', `${CREDIT_TRANSFERS}/${payment.id}:cancel`)
      if (cancellation.status === 202) {
        outcomes.push('cancelled')
        // Past several passes of both workers: still CANCELLED, and the bank never saw it.
        await new Promise((resolve) => setTimeout(resolve, 300))
        expect((await getPayment(live, org.as, 'CREDIT_TRANSFER', payment.id)).status).toBe('CANCELLED')
        await expectNeverSent(live, org.as, 'CREDIT_TRANSFER', payment.id)
      } else {
        outcomes.push('sent')
        expect(cancellation.status, cancellation.body).toBe(409)
        expect(JSON.parse(cancellation.body).message).toMatch(CANCELLED_TOO_LATE)
        expect((await settled(live, org.as, 'CREDIT_TRANSFER', payment.id)).status).toBe('RECONCILED')
      }
      const names = (await eventsOf(live, org.as, 'CREDIT_TRANSFER', payment.id)).map((event) => event.name)
      expect(names.filter((name) => name === 'SENT_TO_BANK' || name === 'CANCELLED')).toHaveLength(1)
    }
    expect(outcomes).toHaveLength(6)
  })
})
