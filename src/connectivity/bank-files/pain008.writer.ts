import { DIRECT_DEBIT_SCHEMES, type BankFile, type DirectDebitBatch, type DirectDebitPaymentInformation, type DirectDebitTransaction } from './bank-file.types.js'
import { chargeBearer, paymentInformationElement, writePainMessage, type WrittenInformation } from './pain-message.js'
import { counterpartyElements, ownAccountElements, type WriteContext } from './pain-parties.js'
import { instructedAmount, paymentIdentification, purpose, remittanceInformation, type Counted } from './pain-transaction.js'
import { element } from '../../shared/xml-text.js'

/**
 * A Customer Direct Debit Initiation (pain.008): SEPA Core or B2B collections into one or more own
 * accounts, grouped by payment information. pain.008.001.08 unless the batch names pain.008.001.02.
 * @throws BankFileError listing every value the message cannot carry; nothing is written then.
 */
export function writePain008(batch: DirectDebitBatch): BankFile {
  return writePainMessage(batch.version ?? 'pain.008.001.08', 'CstmrDrctDbtInitn', batch.message, batch.paymentInformation, directDebitInformation)
}

function directDebitInformation(context: WriteContext, information: DirectDebitPaymentInformation, field: string): WrittenInformation {
  const { checks } = context
  checks.oneOf(`${field}.localInstrument`, information.localInstrument, DIRECT_DEBIT_SCHEMES)
  const transactions = information.transactions.map((transaction, index) => directDebit(context, `${field}.transactions.${index}`, transaction))
  return paymentInformationElement(
    context,
    field,
    information,
    'DD',
    [
      element('ReqdColltnDt', checks.date(`${field}.requestedCollectionDate`, information.requestedCollectionDate)),
      ...ownAccountElements(context, `${field}.creditor`, 'Cdtr', information.creditor),
      chargeBearer(context, field, information),
      // EPC SDD guidelines: the creditor identifier as a private Othr/Id whose scheme name is the proprietary "SEPA".
      element('CdtrSchmeId', [
        element('Id', [
          element('PrvtId', [
            element('Othr', [
              element('Id', checks.identifier(`${field}.creditorSchemeId`, information.creditorSchemeId)),
              element('SchmeNm', [element('Prtry', 'SEPA')]),
            ]),
          ]),
        ]),
      ]),
    ],
    transactions,
  )
}

function directDebit(context: WriteContext, field: string, transaction: DirectDebitTransaction): Counted {
  const { checks } = context
  const amount = instructedAmount(context, `${field}.amount`, transaction.amount)
  return {
    amount: amount.amount,
    element: element('DrctDbtTxInf', [
      paymentIdentification(context, field, transaction),
      amount.element,
      element('DrctDbtTx', [
        element('MndtRltdInf', [
          element('MndtId', checks.identifier(`${field}.mandate.id`, transaction.mandate.id)),
          element('DtOfSgntr', checks.date(`${field}.mandate.signatureDate`, transaction.mandate.signatureDate)),
          // Kassa does not amend mandates yet; the EPC guidelines want the indicator either way.
          element('AmdmntInd', 'false'),
        ]),
      ]),
      ...counterpartyElements(context, `${field}.debtor`, 'Dbtr', transaction.debtor, true),
      purpose(context, `${field}.purpose`, transaction.purpose),
      remittanceInformation(context, `${field}.remittance`, transaction.remittance),
    ]),
  }
}
