import type { ApiApp } from '../../http/api-app.js'
import { commandContext } from '../../http/command-context.js'
import { errorResponses } from '../../http/route-schemas.js'
import { Transaction } from '../transactions/transaction.schemas.js'
import { createSandboxService } from './sandbox.service.js'
import { AdvanceClockRequest, AdvanceClockResponse, InjectTransactionRequest, SandboxClock } from './sandbox.schemas.js'

const tags = ['Sandbox']
const SANDBOX_ONLY = 'Sandbox organizations only: any other organization gets a 403.'

/** The sandbox bank's controls: its clock and injected entries (reference §11, "Testbank"). */
export function sandboxRoutes(app: ApiApp): void {
  const service = createSandboxService(app.database)

  // Reading the clock is reading the accounts' bank: payments are dated from its business date
  // (reference §2.7), so whoever may see the accounts — the read-only role included — may see it.
  app.get(
    '/v1/sandbox/clock',
    {
      config: { permission: 'accounts:read' },
      schema: {
        tags,
        summary: "The sandbox bank's clock",
        description:
          "The bank's business date: what it books on and executes payments on, and what payment dates are checked against. " +
          `Needs accounts:read; moving the clock needs sandbox:update. ${SANDBOX_ONLY}`,
        response: { 200: SandboxClock, ...errorResponses(403, 404) },
      },
    },
    async (request) => service.clock(request.actor!),
  )

  app.post(
    '/v1/sandbox/clock::advance',
    {
      config: { permission: 'sandbox:update' },
      schema: {
        tags,
        summary: "Move the sandbox bank's clock forward and process what falls due",
        description:
          'Moves the clock by `days` (default 1; 0 processes what is due today) or `to` a date, day by day: payments waiting ' +
          'for their date get their funds check (FAILED AM04 when booked balance minus reservations is short), accepted ones ' +
          'are executed and booked, and payments to DE40500105176499974616 come back RETURNED (AC04). Closed days get their ' +
          `BOOKED CLOSE balance. One transaction. ${SANDBOX_ONLY}`,
        body: AdvanceClockRequest,
        response: { 200: AdvanceClockResponse, ...errorResponses(400, 403, 404, 413, 415, 422, 425) },
      },
    },
    async (request, reply) => service.advance(commandContext(request, reply, 200), request.body ?? {}),
  )

  app.post(
    '/v1/sandbox/transactions',
    {
      config: { permission: 'sandbox:update' },
      schema: {
        tags,
        summary: 'Have the sandbox bank book an incoming or outgoing transaction',
        description:
          "Books an entry on one of the organization's sandbox accounts, dated the bank's today or an earlier day of the " +
          "account's ledger; balances from that day on are reported again. A positive amount is money in, a negative one " +
          `money out (as the reference's POST /v1/testbank/transactions). ${SANDBOX_ONLY}`,
        body: InjectTransactionRequest,
        response: { 201: Transaction, ...errorResponses(400, 403, 404, 413, 415, 422, 425) },
      },
    },
    async (request, reply) => {
      const transaction = await service.inject(commandContext(request, reply, 201), request.body)
      return reply.code(201).send(transaction)
    },
  )
}
