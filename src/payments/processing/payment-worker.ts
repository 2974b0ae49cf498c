import type { FastifyBaseLogger } from 'fastify'
import type { Database } from '../../db/database.js'
import { sandboxBankOf } from '../../financial-data/sandbox/index.js'
import { approvedPayments, submitPayment } from './payment-submitter.js'

export interface PaymentWorker {
  /** Runs a pass now (or right after the current one): an approval need not wait for the next tick. */
  wake(): void
  /** Stops after the pass in progress, if any; resolves when it is done. */
  stop(): Promise<void>
}

export interface PaymentWorkerOptions {
  /** Pause between passes: the sandbox's pace (KASSA_SANDBOX_PACE_MS). */
  intervalMilliseconds: number
  log: Pick<FastifyBaseLogger, 'error'>
  /** Told after each pass that changed something, e.g. to deliver the webhooks of its events at once. */
  afterChanges?: () => void
}

/** Payments submitted per pass; the rest wait for the next one. */
const BATCH = 100

/**
 * The background side of the payment lifecycle. Each pass submits approved payments to their
 * banks, then lets the sandbox bank process what is due (executions, returns, a new business day),
 * which reports back through the payments' bank-report listener. Never two passes at once.
 */
export function startPaymentWorker(database: Database, options: PaymentWorkerOptions): PaymentWorker {
  const bank = sandboxBankOf(database)
  let stopped = false
  let running: Promise<void> | undefined
  let again = false
  let timer: NodeJS.Timeout | undefined

  const pass = async () => {
    try {
      const approved = await approvedPayments(database, BATCH)
      for (const payment of approved) {
        await submitPayment(database, payment).catch((error: unknown) =>
          options.log.error({ err: error, paymentId: payment.id }, 'payment submission failed; retried next pass'),
        )
      }
      const { results, errors } = await bank.processDue(new Date())
      for (const { organizationId, error } of errors) options.log.error({ err: error, organizationId }, 'sandbox bank step failed')
      if (approved.length > 0 || results.some((step) => step.reports.length > 0)) options.afterChanges?.()
    } catch (error) {
      options.log.error({ err: error }, 'payment worker pass failed')
    }
  }

  const run = () => {
    if (stopped) return
    if (running) {
      again = true
      return
    }
    if (timer) clearTimeout(timer)
    running = pass().finally(() => {
      running = undefined
      if (again) {
        again = false
        run()
      } else schedule()
    })
  }

  const schedule = () => {
    if (stopped) return
    timer = setTimeout(run, options.intervalMilliseconds)
    timer.unref()
  }

  schedule()
  return {
    wake: run,
    async stop() {
      stopped = true
      if (timer) clearTimeout(timer)
      await running
    },
  }
}
