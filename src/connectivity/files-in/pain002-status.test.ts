import { describe, expect, it } from 'vitest'
import { describeReason, paymentStatusOf, reportedStatusOf, unknownIdsOf } from './pain002-status.js'
import type { StatusReport } from './pain002.model.js'

const base: StatusReport = { messageType: 'pain.002.001.10', messageId: 'STS', originalMessageId: 'MSG', paymentInformations: [] }
const first = { endToEndId: 'E1', paymentInformationId: 'MSG-1' }
const second = { endToEndId: 'E2', paymentInformationId: 'MSG-1' }

describe('pain.002 statuses', () => {
  it('maps the ISO statuses to the bank statuses the payments domain knows (RJCT is FAILED: the bank has the payment)', () => {
    expect(['ACCP', 'ACSP', 'ACWC', 'ACSC', 'PDNG', 'RJCT', 'PART'].map((status) => paymentStatusOf(status as never))).toEqual([
      'ACCEPTED',
      'ACCEPTED',
      'ACCEPTED',
      'EXECUTED',
      'PENDING_AT_BANK',
      'FAILED',
      undefined,
    ])
  })

  it('takes the transaction status, else the payment information status, else the group status', () => {
    const report: StatusReport = {
      ...base,
      groupStatus: 'ACSP',
      paymentInformations: [{ id: 'MSG-1', status: 'PART', transactions: [{ endToEndId: 'E1', status: 'ACSC' }] }],
    }
    expect(reportedStatusOf(report, first)).toEqual({ status: 'ACSC' })
    expect(reportedStatusOf(report, second)).toEqual({ status: 'ACSP' })
    expect(reportedStatusOf({ ...report, groupStatus: 'PART' }, second)).toBeUndefined()
  })

  it('lets a rejected group or payment information reject every transaction in it, with its reason', () => {
    const accepted = { ...base, paymentInformations: [{ id: 'MSG-1', transactions: [{ endToEndId: 'E1', status: 'ACSC' as const }] }] }
    expect(reportedStatusOf({ ...accepted, groupStatus: 'RJCT', groupReason: { code: 'FF01' } }, first)).toEqual({ status: 'RJCT', reason: { code: 'FF01' } })
    const information = { ...base, paymentInformations: [{ id: 'MSG-1', status: 'RJCT' as const, reason: { code: 'AC01' }, transactions: [{ endToEndId: 'E1', status: 'ACSC' as const }] }] }
    expect(reportedStatusOf(information, first)).toEqual({ status: 'RJCT', reason: { code: 'AC01' } })
  })

  it('names ids the original file does not carry', () => {
    const report: StatusReport = {
      ...base,
      paymentInformations: [
        { id: 'MSG-1', transactions: [{ endToEndId: 'E1' }, { endToEndId: 'E9' }] },
        { id: 'MSG-7', transactions: [{ endToEndId: 'E2' }] },
      ],
    }
    expect(unknownIdsOf(report, [first, second])).toEqual({ paymentInformationIds: ['MSG-7'], endToEndIds: ['E9', 'E2'] })
  })

  it('keeps NARR’s free text, else names the code', () => {
    expect(describeReason({ code: 'NARR', additionalInformation: 'Blocked' })).toEqual({ code: 'NARR', description: 'Blocked' })
    expect(describeReason({ code: 'MS03' })).toEqual({ code: 'MS03', description: 'Not specified reason agent generated' })
    expect(describeReason({ code: 'ZZ99' })).toEqual({ code: 'ZZ99', description: 'ZZ99' })
  })
})
