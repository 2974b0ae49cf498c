import type { MinorAmount, RemittanceInformation, TransactionCommon } from './bank-file.types.js'
import { decimalText, type DecimalAmount } from './decimal-amount.js'
import type { WriteContext } from './pain-parties.js'
import { element, type XmlElement } from '../../shared/xml-text.js'

/** The parts every transaction of a pain.001 or pain.008 has, the same in all four versions. */

/** An element and the amount it counts towards the totals (NbOfTxs, CtrlSum): a transaction, or its InstdAmt. */
export interface Counted {
  element: XmlElement
  amount: DecimalAmount
}

/** PmtId: instruction and end-to-end ids, each unique within the message. */
export function paymentIdentification(context: WriteContext, field: string, transaction: TransactionCommon): XmlElement {
  const { checks } = context
  checks.unique('instruction id', `${field}.instructionId`, transaction.instructionId)
  checks.unique('end-to-end id', `${field}.endToEndId`, transaction.endToEndId)
  return element('PmtId', [
    element('InstrId', checks.identifier(`${field}.instructionId`, transaction.instructionId)),
    element('EndToEndId', checks.identifier(`${field}.endToEndId`, transaction.endToEndId)),
  ])
}

/** InstdAmt: the decimal with exactly the currency's minor digits, the currency as its Ccy attribute. */
export function instructedAmount(context: WriteContext, field: string, amount: MinorAmount): Counted {
  const decimal = context.checks.amount(field, amount.value, amount.currency)
  return { element: element('InstdAmt', decimalText(decimal), { Ccy: amount.currency }), amount: decimal }
}

export function purpose(context: WriteContext, field: string, code: string | undefined): XmlElement | undefined {
  return code === undefined ? undefined : element('Purp', [element('Cd', context.checks.code(field, code, 4))])
}

/**
 * RmtInf: one Ustrd of at most 140 characters, or one structured creditor reference (CdtrRefInf typed
 * SCOR, e.g. an ISO 11649 RF reference) — the EPC rulebooks allow one or the other, once.
 */
export function remittanceInformation(context: WriteContext, field: string, remittance: RemittanceInformation | undefined): XmlElement | undefined {
  const { checks } = context
  if (remittance === undefined) return undefined
  if ('unstructured' in remittance) return element('RmtInf', [element('Ustrd', checks.text(`${field}.unstructured`, remittance.unstructured, 140))])
  const { reference, issuer } = remittance.creditorReference
  return element('RmtInf', [
    element('Strd', [
      element('CdtrRefInf', [
        element('Tp', [
          element('CdOrPrtry', [element('Cd', 'SCOR')]),
          issuer === undefined ? undefined : element('Issr', checks.text(`${field}.creditorReference.issuer`, issuer, 35)),
        ]),
        element('Ref', checks.text(`${field}.creditorReference.reference`, reference, 35)),
      ]),
    ]),
  ])
}
