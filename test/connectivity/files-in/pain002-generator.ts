import type { Pain002Version } from '../../../src/connectivity/files-in/pain002.model.js'

/**
 * A bank's pain.002 status report, as a test writes one: what a bank's system would send back for a pain.001
 * Kassa made. Written independently of Kassa's reader, element by element in the XSD's order (.001.10 and .001.03
 * share it for what is written here), and validated against the XSDs in the tests that use it.
 */

export interface GeneratedReason {
  code: string
  additionalInformation?: string
}

export interface GeneratedTransaction {
  endToEndId: string
  status?: string
  reason?: GeneratedReason
}

export interface GeneratedInformation {
  id: string
  status?: string
  reason?: GeneratedReason
  transactions?: GeneratedTransaction[]
}

export interface GeneratedReport {
  version: Pain002Version
  messageId: string
  originalMessageId: string
  /** The original message's name: pain.001.001.09 or .03. */
  originalMessageName?: string
  groupStatus?: string
  groupReason?: GeneratedReason
  informations?: GeneratedInformation[]
}

function escape(value: string): string {
  return value.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;')
}

function element(name: string, value: string | undefined): string {
  return value === undefined ? '' : `<${name}>${escape(value)}</${name}>`
}

function reason(value: GeneratedReason | undefined): string {
  if (!value) return ''
  return `<StsRsnInf><Rsn><Cd>${value.code}</Cd></Rsn>${element('AddtlInf', value.additionalInformation)}</StsRsnInf>`
}

export function pain002(report: GeneratedReport): string {
  const informations = (report.informations ?? [])
    .map(
      (information) =>
        `<OrgnlPmtInfAndSts>${element('OrgnlPmtInfId', information.id)}${element('PmtInfSts', information.status)}${reason(information.reason)}` +
        (information.transactions ?? [])
          .map((transaction) => `<TxInfAndSts>${element('OrgnlEndToEndId', transaction.endToEndId)}${element('TxSts', transaction.status)}${reason(transaction.reason)}</TxInfAndSts>`)
          .join('') +
        '</OrgnlPmtInfAndSts>',
    )
    .join('')
  return (
    `<?xml version="1.0" encoding="UTF-8"?>\n<Document xmlns="urn:iso:std:iso:20022:tech:xsd:${report.version}"><CstmrPmtStsRpt>` +
    `<GrpHdr>${element('MsgId', report.messageId)}<CreDtTm>2026-11-24T10:00:00</CreDtTm></GrpHdr>` +
    `<OrgnlGrpInfAndSts>${element('OrgnlMsgId', report.originalMessageId)}${element('OrgnlMsgNmId', report.originalMessageName ?? 'pain.001.001.09')}` +
    `${element('GrpSts', report.groupStatus)}${reason(report.groupReason)}</OrgnlGrpInfAndSts>` +
    `${informations}</CstmrPmtStsRpt></Document>\n`
  )
}
