import { Type, type Static } from 'typebox'
import { StatementImport } from '../../financial-data/statements/statement.schemas.js'
import { ResourceId } from '../../shared/common.schemas.js'
import { Amount } from '../../shared/money.js'
import { BankFile } from '../files/bank-file.schemas.js'
import { STATUS_REPORT_EXAMPLE } from './inbound-file.example.js'

/** The file, as the body of POST /connectivity/v2/connections/{id}/files: a pain.002 status report or a camt.052/053/054. */
export const InboundFileBody = Type.String({
  description: 'An ISO 20022 pain.002 (.001.10 or .001.03) status report, or a camt.054, camt.053 or camt.052 (.001.02 to .001.08), as the bank sent it',
  examples: [STATUS_REPORT_EXAMPLE],
})

/** What a file said of one payment it reports on or settles, and what it did. */
export const ReportedPayment = Type.Object({
  paymentId: ResourceId,
  endToEndId: Type.String(),
  paymentInformationId: Type.String({ description: 'The PmtInfId it went in' }),
  isoStatus: Type.Optional(Type.String({ description: 'The status the report gives it (ACCP, ACSC, RJCT…): its own, else its payment information’s, else the group’s' })),
  reason: Type.Optional(Type.Object({ code: Type.String({ description: 'ISO 20022 reason code, e.g. AC04' }), message: Type.String() })),
  previousStatus: Type.Optional(Type.String({ description: 'The payment status before the report' })),
  status: Type.Optional(Type.String({ description: 'The payment status after it' })),
  outcome: Type.Enum(['MOVED', 'UNCHANGED', 'IGNORED', 'NOT_REPORTED'], {
    description:
      'MOVED: the payment took the reported status; UNCHANGED: it had it already; IGNORED: the report would move it backwards or out of a final status; NOT_REPORTED: the report says nothing of it',
  }),
})
export type ReportedPayment = Static<typeof ReportedPayment>

/** A transaction a camt file booked, and the payments it settled or returned. */
export const MatchedBooking = Type.Object({
  transactionId: ResourceId,
  accountId: ResourceId,
  amount: Amount,
  endToEndId: Type.Optional(Type.String({ description: 'The EndToEndId the bank reported with the entry' })),
  paymentInformationId: Type.Optional(Type.String({ description: 'A batch booking: the PmtInfId of the payment information it settles as a whole' })),
  outcome: Type.Enum(['RECONCILED', 'RETURNED', 'UNMATCHED'], {
    description:
      'RECONCILED: its payments are EXECUTED and reconciled to it; RETURNED: it returns its payment, which is RETURNED with the reason; ' +
      'UNMATCHED: it settles no payment sent on this connection (NOT_RECONCILED: attach it by hand if it should)',
  }),
  paymentIds: Type.Array(ResourceId, { description: 'The payments it moved' }),
  note: Type.Optional(Type.String({ description: 'Why it matched nothing' })),
})
export type MatchedBooking = Static<typeof MatchedBooking>

/** The result of processing a file from a bank, answered again (200) when the same file comes again. */
export const InboundFileResult = Type.Object({
  file: BankFile,
  originalMessageId: Type.Optional(Type.String({ description: 'pain.002: OrgnlMsgId, the MsgId of the file reported on' })),
  payments: Type.Array(ReportedPayment, {
    description: 'pain.002: every payment of the original file; camt: every payment its bookings settled or returned',
  }),
  unknown: Type.Optional(
    Type.Object(
      {
        originalMessageId: Type.Optional(Type.String({ description: 'Set when no file of the connection has this MsgId' })),
        paymentInformationIds: Type.Array(Type.String()),
        endToEndIds: Type.Array(Type.String()),
      },
      { description: 'pain.002: ids the report names that the original file does not carry: reported, not an error of the whole file' },
    ),
  ),
  statement: Type.Optional(StatementImport),
  bookings: Type.Optional(
    Type.Array(MatchedBooking, { description: 'camt: every transaction the file booked, and those it reports again that were still NOT_RECONCILED' }),
  ),
})
export type InboundFileResult = Static<typeof InboundFileResult>
