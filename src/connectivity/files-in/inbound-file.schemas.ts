import { Type, type Static } from 'typebox'
import { ResourceId } from '../../shared/common.schemas.js'
import { BankFile } from '../files/bank-file.schemas.js'

/** The file, as the body of POST /connectivity/v2/connections/{id}/files: a pain.002 status report. */
export const InboundFileBody = Type.String({ description: 'An ISO 20022 pain.002 (.001.10 or .001.03) status report, as the bank sent it' })

/** What the report said of one payment of the original file, and what it did. */
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

/** The result of processing a file from a bank, answered again (200) when the same file comes again. */
export const InboundFileResult = Type.Object({
  file: BankFile,
  originalMessageId: Type.String({ description: 'OrgnlMsgId: the MsgId of the file reported on' }),
  payments: Type.Array(ReportedPayment, { description: 'Every payment of the original file' }),
  unknown: Type.Object(
    {
      originalMessageId: Type.Optional(Type.String({ description: 'Set when no file of the connection has this MsgId' })),
      paymentInformationIds: Type.Array(Type.String()),
      endToEndIds: Type.Array(Type.String()),
    },
    { description: 'Ids the report names that the original file does not carry: reported, not an error of the whole file' },
  ),
})
export type InboundFileResult = Static<typeof InboundFileResult>
