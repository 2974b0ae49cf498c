import { describe, expect, it } from 'vitest'
import { writePain002, type StatusReportDocument } from '../../../src/connectivity/bank-side/index.js'
import { readStatusReport } from '../../../src/connectivity/files-in/pain002.reader.js'
import { HOSTILE_NAME } from '../bank-files/batches.js'
import { xsdErrorsByName } from '../bank-files/xsd-validator.js'

/** Issue 12, the bank's side: the pain.002 the simulated bank answers with, valid against both XSDs and read back by Kassa as written. */

/** More than one AddtlInf (Max105Text) holds: split between words, it reads back as written. */
const LONG_TEXT = `${'Debtor account blocked by compliance; '.repeat(6)}${'x'.repeat(100)}`

function reports(version: StatusReportDocument['version']): Record<string, StatusReportDocument> {
  const base = { version, messageId: 'STS-1', originalMessageId: 'MSG-2026-0001', creationDateTime: new Date('2026-11-24T10:00:00.250Z') }
  return {
    'group accepted': { ...base, groupStatus: 'ACCP' },
    'group rejected with NARR and a long, hostile text': { ...base, groupStatus: 'RJCT', groupReason: { code: 'NARR', additionalInformation: `${HOSTILE_NAME} ${LONG_TEXT}` } },
    'partial, per transaction': {
      ...base,
      groupStatus: 'PART',
      originalMessageName: version === 'pain.002.001.10' ? 'pain.008.001.08' : 'pain.008.001.02',
      informations: [
        {
          id: 'MSG-2026-0001-1',
          status: 'PART',
          transactions: [
            { endToEndId: 'E2E-1', status: 'ACSC' },
            { endToEndId: 'E2E-<2>&"3"', status: 'RJCT', reason: { code: 'AC04' } },
            { endToEndId: 'E2E-3', status: 'PDNG', reason: { code: 'MS03', additionalInformation: 'Pending & checked' } },
          ],
        },
        { id: 'MSG-2026-0001-2', status: 'RJCT', reason: { code: 'MD01' } },
        { id: 'MSG-2026-0001-3', transactions: [{ endToEndId: 'E2E-9' }] },
      ],
    },
  }
}

describe.each(['pain.002.001.10', 'pain.002.001.03'] as const)('writePain002 %s', (version) => {
  it('is valid against the official XSD in every variation', async () => {
    const documents = reports(version)
    const errors = await xsdErrorsByName(Object.fromEntries(Object.entries(documents).map(([name, report]) => [name, { version, xml: writePain002(report) }])))
    expect(errors).toEqual(Object.fromEntries(Object.keys(documents).map((name) => [name, []])))
  })

  it('reads back through Kassa’s pain.002 reader to the values written', () => {
    for (const report of Object.values(reports(version))) {
      const read = readStatusReport(writePain002(report))
      expect(read).toEqual({
        messageType: version,
        messageId: report.messageId,
        originalMessageId: report.originalMessageId,
        ...(report.groupStatus ? { groupStatus: report.groupStatus } : {}),
        ...(report.groupReason ? { groupReason: report.groupReason } : {}),
        paymentInformations: (report.informations ?? []).map((information) => ({ ...information, transactions: information.transactions ?? [] })),
      })
    }
  })

  it('writes CreDtTm in UTC to the second and names the original message', () => {
    const xml = writePain002(reports(version)['group accepted']!)
    expect(xml).toContain('<CreDtTm>2026-11-24T10:00:00Z</CreDtTm>')
    expect(xml).toContain(`<OrgnlMsgNmId>${version === 'pain.002.001.10' ? 'pain.001.001.09' : 'pain.001.001.03'}</OrgnlMsgNmId>`)
  })

  it('cuts a word longer than an AddtlInf into lines of 105 characters (code points)', () => {
    const xml = writePain002({ version, messageId: 'S', originalMessageId: 'M', groupStatus: 'RJCT', groupReason: { code: 'NARR', additionalInformation: `short ${'😀'.repeat(110)}` } })
    expect([...xml.matchAll(/<AddtlInf>([^<]*)<\/AddtlInf>/g)].map((match) => match[1])).toEqual(['short', '😀'.repeat(105), '😀'.repeat(5)])
  })
})

describe('writePain002 refuses what the schema cannot carry', () => {
  const base: StatusReportDocument = { version: 'pain.002.001.03', messageId: 'STS-1', originalMessageId: 'MSG-1' }
  it('statuses pain.002.001.03 does not have at that level', () => {
    expect(() => writePain002({ ...base, groupStatus: 'ACWP' })).toThrow(RangeError)
    expect(() => writePain002({ ...base, informations: [{ id: 'P', transactions: [{ endToEndId: 'E', status: 'PART' }] }] })).toThrow(/TxSts PART/)
    expect(writePain002({ ...base, version: 'pain.002.001.10', groupStatus: 'ACWP' })).toContain('<GrpSts>ACWP</GrpSts>')
  })

  it('an id of more than 35 characters or none, a reason code of more than 4', () => {
    expect(() => writePain002({ ...base, messageId: 'M'.repeat(36) })).toThrow(/MsgId/)
    expect(() => writePain002({ ...base, originalMessageId: '' })).toThrow(/OrgnlMsgId/)
    expect(() => writePain002({ ...base, groupStatus: 'RJCT', groupReason: { code: 'TOOLONG' } })).toThrow(/reason code/)
  })
})
