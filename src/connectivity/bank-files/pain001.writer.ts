import type { BankFile, CreditTransferBatch, CreditTransferPaymentInformation, CreditTransferTransaction } from './bank-file.types.js'
import { chargeBearer, paymentInformationElement, writePainMessage, type WrittenInformation } from './pain-message.js'
import { counterpartyElements, ownAccountElements, type WriteContext } from './pain-parties.js'
import { instructedAmount, paymentIdentification, purpose, remittanceInformation, type Counted } from './pain-transaction.js'
import { element } from '../../shared/xml-text.js'

/**
 * A Customer Credit Transfer Initiation (pain.001): the credit transfers of one or more own accounts,
 * grouped by payment information. pain.001.001.09 unless the batch names pain.001.001.03.
 * @throws BankFileError listing every value the message cannot carry; nothing is written then.
 */
export function writePain001(batch: CreditTransferBatch): BankFile {
  return writePainMessage(batch.version ?? 'pain.001.001.09', 'CstmrCdtTrfInitn', batch.message, batch.paymentInformation, creditTransferInformation)
}

function creditTransferInformation(context: WriteContext, information: CreditTransferPaymentInformation, field: string): WrittenInformation {
  const date = context.checks.date(`${field}.requestedExecutionDate`, information.requestedExecutionDate)
  const transactions = information.transactions.map((transaction, index) => creditTransfer(context, `${field}.transactions.${index}`, transaction))
  return paymentInformationElement(
    context,
    field,
    information,
    'TRF',
    [
      // PainDialect.executionDateChoice: a plain ISODate in .03, the Dt of a DateAndDateTime2Choice in .09.
      element('ReqdExctnDt', context.dialect.executionDateChoice ? [element('Dt', date)] : date),
      ...ownAccountElements(context, `${field}.debtor`, 'Dbtr', information.debtor),
      chargeBearer(context, field, information),
    ],
    transactions,
  )
}

function creditTransfer(context: WriteContext, field: string, transaction: CreditTransferTransaction): Counted {
  const amount = instructedAmount(context, `${field}.amount`, transaction.amount)
  return {
    amount: amount.amount,
    element: element('CdtTrfTxInf', [
      paymentIdentification(context, field, transaction),
      element('Amt', [amount.element]),
      ...counterpartyElements(context, `${field}.creditor`, 'Cdtr', transaction.creditor, false),
      purpose(context, `${field}.purpose`, transaction.purpose),
      remittanceInformation(context, `${field}.remittance`, transaction.remittance),
    ]),
  }
}
