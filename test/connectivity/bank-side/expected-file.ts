import type {
  BankFile,
  Counterparty,
  CreditTransferBatch,
  DirectDebitBatch,
  OwnAccount,
  PainVersion,
  PaymentInformationCommon,
  PostalAddress,
  TransactionCommon,
} from '../../../src/connectivity/bank-files/index.js'
import { decimalSum, decimalText } from '../../../src/connectivity/bank-files/decimal-amount.js'
import type { PaymentFile, PaymentFileInformation, PaymentFileTransaction, ReadAddress, ReadParty } from '../../../src/connectivity/bank-side/index.js'
import { currencyExponent } from '../../../src/shared/money.js'

/**
 * What the bank must read back from a file Kassa wrote of `batch`: the batch's own values, with the defaults
 * the writers fill in (service level SEPA, charge bearer SLEV) and an address as the version writes it
 * (structured parts in 2019, Ctry and AdrLine in 2009).
 */
export function expectedFile(batch: CreditTransferBatch | DirectDebitBatch, file: BankFile): PaymentFile {
  const version = file.messageType
  return {
    messageType: version,
    messageId: batch.message.messageId,
    creationDateTime: batch.message.creationDateTime.toISOString().replace(/\.\d{3}Z$/, 'Z'),
    numberOfTransactions: file.numberOfTransactions,
    controlSum: file.controlSum,
    initiatingPartyName: batch.message.initiatingParty.name,
    paymentInformations: batch.paymentInformation.map((information): PaymentFileInformation => {
      const directDebit = 'creditor' in information
      const transactions: TransactionCommon[] = information.transactions
      return {
        paymentInformationId: information.paymentInformationId,
        method: directDebit ? 'DD' : 'TRF',
        batchBooking: information.batchBooking,
        numberOfTransactions: transactions.length,
        controlSum: controlSum(transactions),
        requestedDate: directDebit ? information.requestedCollectionDate : information.requestedExecutionDate,
        serviceLevel: information.serviceLevel ?? 'SEPA',
        ...optional('localInstrument', information.localInstrument),
        ...optional('sequenceType', directDebit ? information.sequenceType : undefined),
        ...optional('categoryPurpose', (information as PaymentInformationCommon).categoryPurpose),
        chargeBearer: information.chargeBearer ?? 'SLEV',
        ...optional('creditorSchemeId', directDebit ? information.creditorSchemeId : undefined),
        ownAccount: { ...party(version, directDebit ? information.creditor : information.debtor), currency: (directDebit ? information.creditor : information.debtor).currency },
        transactions: directDebit
          ? information.transactions.map((transaction) => ({ ...common(transaction), counterparty: party(version, transaction.debtor), mandate: transaction.mandate }))
          : information.transactions.map((transaction) => ({ ...common(transaction), counterparty: party(version, transaction.creditor) })),
      }
    }),
  }
}

function common(transaction: TransactionCommon): Omit<PaymentFileTransaction, 'counterparty'> {
  const { remittance } = transaction
  return {
    instructionId: transaction.instructionId,
    endToEndId: transaction.endToEndId,
    amount: transaction.amount,
    ...optional('unstructuredRemittance', remittance && 'unstructured' in remittance ? remittance.unstructured : undefined),
    ...optional('creditorReference', remittance && 'creditorReference' in remittance ? remittance.creditorReference : undefined),
    ...optional('purpose', transaction.purpose),
  }
}

function party(version: PainVersion, holder: Counterparty | OwnAccount): ReadParty & { iban: string } {
  return { name: holder.name, iban: holder.iban, ...optional('bic', holder.bic), ...optional('address', holder.address && address(version, holder.address)) }
}

function address(version: PainVersion, written: PostalAddress): ReadAddress {
  if (version.endsWith('.09') || version.endsWith('.08')) return { ...written }
  const street = [written.streetName, written.buildingNumber].filter((part) => part !== undefined).join(' ')
  return { country: written.country, lines: [...(street === '' ? [] : [street]), [written.postCode, written.townName].filter((part) => part !== undefined).join(' ')] }
}

function controlSum(transactions: readonly TransactionCommon[]): string {
  return decimalText(decimalSum(transactions.map(({ amount }) => ({ minor: BigInt(amount.value), exponent: currencyExponent(amount.currency)! }))))
}

function optional<K extends string, V>(key: K, value: V | undefined): { [P in K]?: V } {
  return (value === undefined ? {} : { [key]: value }) as { [P in K]?: V }
}
