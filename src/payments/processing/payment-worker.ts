import type { FastifyBaseLogger } from 'fastify'
import { deliverAnswers, gatherDueFiles, readInboxes, takeFiles, writePendingFiles, type InboxGate } from '../../connectivity/index.js'
import type { Database } from '../../db/database.js'
import { sandboxBankOf } from '../../financial-data/sandbox/index.js'
import { approvedPayments, submitPayment } from './payment-submitter.js'

export interface PaymentWorker {
  /** Runs a pass now (or right after the current one): an approval need not wait for the next tick. */
  wake(): void
  /** Submits no further payment and starts no further step of the pass; resolves once the one in hand (if any) is done. */
  stop(): Promise<void>
}

export interface PaymentWorkerOptions {
  /** Pause between passes: the sandbox's pace (KASSA_SANDBOX_PACE_MS). */
  intervalMilliseconds: number
  log: Pick<FastifyBaseLogger, 'error' | 'debug'>
  /** The process's one-import-at-a-time gate (financial-data ImportGate): each inbox file is read holding it, or waits a pass. */
  imports: InboxGate
}

/** Payments submitted per pass; the rest wait for the next one. */
const BATCH = 100

/**
 * The background side of the payment lifecycle. Each pass submits approved payments to their
 * banks, makes the bank files whose batching window has passed and writes them to their outboxDir
 * (connectivity/files-out), lets the simulated bank behind files take them and delivers its answers, reads the inboxes,
 * then lets the sandbox bank process what is due (executions, returns, a new business day), which reports back
 * through the payments' bank-report listener, or by file. Never two passes at once.
 */
export function startPaymentWorker(database: Database, options: PaymentWorkerOptions): PaymentWorker {
  const bank = sandboxBankOf(database)
  let stopped = false
  let running: Promise<void> | undefined
  let again = false
  let timer: NodeJS.Timeout | undefined

  const submitApproved = async () => {
    for (const payment of await approvedPayments(database, BATCH)) {
      // Stopping (the server shuts down): the rest wait for another process or the next start.
      if (stopped) return
      try {
        // Skipped is no error: several processes walk the same queue, and each payment goes to the one that claims it.
        const taken = await submitPayment(database, payment)
        options.log.debug({ paymentId: payment.id }, taken ? 'payment taken for submission' : 'payment skipped: another process took it, or it was cancelled')
      } catch (error) {
        options.log.error({ err: error, paymentId: payment.id }, 'payment submission failed; retried next pass')
      }
    }
  }

  const exchangeFiles = async () => {
    const files = await gatherDueFiles(database)
    for (const { groupKey, error } of files.failures) options.log.error({ err: error, groupKey }, 'making a bank file failed; retried next pass')
    // After the files' transactions committed: disk writes never run inside one.
    for (const { fileId, error } of await writePendingFiles(database)) options.log.error({ err: error, fileId }, 'writing a bank file to its outboxDir failed; retried next pass')
    // The simulated bank behind files takes the new files and its answers reach Kassa (connectivity/simulated-bank).
    const intake = await takeFiles(database, bank)
    for (const { fileId, error } of intake.failures) options.log.error({ err: error, fileId }, 'the simulated bank could not take a file; retried next pass')
    const answers = await deliverAnswers(database)
    for (const { answerId, error } of answers.failures) options.log.error({ err: error, answerId }, 'delivering a simulated bank file failed; retried next pass')
  }

  const readBankFiles = async () => {
    // Files from banks: read and moved outside the transaction that applies each (inbox-reader.ts).
    const inbox = await readInboxes(database, options.imports)
    for (const { path, message } of inbox.refused) options.log.error({ path, reason: message }, 'a file in an inboxDir is no file Kassa reads; moved to refused/')
    for (const { path, error } of inbox.failures) options.log.error({ err: error, path }, 'reading a file from an inboxDir failed; retried next pass')
  }

  const stepSandboxBank = async () => {
    const { errors } = await bank.processDue(new Date())
    for (const { organizationId, error } of errors) options.log.error({ err: error, organizationId }, 'sandbox bank step failed')
  }

  const pass = async () => {
    try {
      // A stop lets the step in hand finish and starts no other.
      for (const step of [submitApproved, exchangeFiles, readBankFiles, stepSandboxBank]) {
        if (stopped) return
        await step()
      }
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
