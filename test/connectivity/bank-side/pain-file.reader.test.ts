import { describe, expect, it } from 'vitest'
import { writePain001, writePain008, type CreditTransferBatch, type DirectDebitBatch } from '../../../src/connectivity/bank-files/index.js'
import { readPaymentFile } from '../../../src/connectivity/bank-side/index.js'
import {
  AMOUNTS,
  COUNTERPARTIES,
  creditTransfer,
  creditTransferBatch,
  creditTransferInformation,
  directDebit,
  directDebitBatch,
  directDebitInformation,
  IBAN,
  message,
  numbered,
  ownAccount,
} from '../bank-files/batches.js'
import { CREDIT_TRANSFERS, DIRECT_DEBITS } from '../bank-files/scenarios.js'
import { expectedFile } from './expected-file.js'

/** Issue 12, the bank's side: every file Kassa's writers make reads back to the values it was written from. */

const ownWithAddress = ownAccount({ name: 'Kassa & Co. KG', bic: undefined, address: { streetName: 'Friedrichstraße', buildingNumber: '1', postCode: '10117', townName: 'Berlin', country: 'DE' } })

function creditTransferBatches(version: (typeof CREDIT_TRANSFERS.versions)[number]): Record<string, CreditTransferBatch> {
  const one = (overrides: Parameters<typeof creditTransfer>[1] = {}, information: Parameters<typeof creditTransferInformation>[2] = {}) =>
    creditTransferBatch(version, [creditTransferInformation('PMTINF-1', [creditTransfer(1, overrides)], information)])
  return {
    'every counterparty and amount': creditTransferBatch(version, [
      creditTransferInformation('P-PARTIES', Object.values(COUNTERPARTIES).map((creditor, index) => creditTransfer(index + 1, { creditor }))),
      creditTransferInformation('P-AMOUNTS', Object.values(AMOUNTS).map(({ amount }, index) => creditTransfer(100 + index, { amount })), { batchBooking: false }),
    ]),
    'SEPA Instant, own account with address and no BIC': one({}, { localInstrument: 'INST', debtor: ownWithAddress, requestedExecutionDate: '2026-12-31' }),
    'creditor reference': one({ remittance: { creditorReference: { reference: 'RF18539007547034', issuer: 'ISO' } } }),
    'purpose, no remittance, non-SEPA': one({ remittance: undefined, purpose: 'GDDS' }, { serviceLevel: 'NURG', chargeBearer: 'SHAR', categoryPurpose: 'TRAD' }),
    'many transactions': creditTransferBatch(version, [creditTransferInformation('P-MANY', numbered(300, (n) => creditTransfer(n, { amount: { value: n * 997, currency: 'EUR' } })))]),
    'initiating party with escapes': creditTransferBatch(version, [creditTransferInformation('P-1', [creditTransfer(1)])], message({ messageId: "MSG-2026/0042 (retry) 'x'", initiatingParty: { name: 'Kassa & "Söhne" <GmbH>' } })),
  }
}

function directDebitBatches(version: (typeof DIRECT_DEBITS.versions)[number]): Record<string, DirectDebitBatch> {
  return {
    'every counterparty and amount': directDebitBatch(version, [
      directDebitInformation('D-PARTIES', Object.values(COUNTERPARTIES).map((debtor, index) => directDebit(index + 1, { debtor })), { sequenceType: 'FRST' }),
      directDebitInformation('D-AMOUNTS', Object.values(AMOUNTS).map(({ amount }, index) => directDebit(100 + index, { amount })), { batchBooking: false, localInstrument: 'B2B' }),
    ]),
    'own account with address, creditor reference, purpose': directDebitBatch(version, [
      directDebitInformation('D-1', [directDebit(1, { remittance: { creditorReference: { reference: 'RF18539007547034' } }, purpose: 'SUPP' })], {
        creditor: ownWithAddress,
        sequenceType: 'OOFF',
        categoryPurpose: 'TRAD',
      }),
    ]),
  }
}

describe.each(CREDIT_TRANSFERS.versions)('reads a %s written by writePain001', (version) => {
  it.each(Object.entries(creditTransferBatches(version)))('%s', (_name, batch) => {
    const file = writePain001(batch)
    expect(readPaymentFile(file.xml)).toEqual(expectedFile(batch, file))
  })
})

describe.each(DIRECT_DEBITS.versions)('reads a %s written by writePain008', (version) => {
  it.each(Object.entries(directDebitBatches(version)))('%s', (_name, batch) => {
    const file = writePain008(batch)
    expect(readPaymentFile(file.xml)).toEqual(expectedFile(batch, file))
  })
})

describe('what the model says of a file, read by value', () => {
  it('amounts are exact minor units of 0-, 2-, 3- and 4-digit currencies; counts and control sums as written', () => {
    const file = writePain001(creditTransferBatch('pain.001.001.09', [creditTransferInformation('P-1', Object.values(AMOUNTS).map(({ amount }, index) => creditTransfer(index + 1, { amount })))]))
    const read = readPaymentFile(file.xml)
    expect(read.paymentInformations[0]!.transactions.map((transaction) => transaction.amount)).toEqual(Object.values(AMOUNTS).map(({ amount }) => amount))
    expect(read).toMatchObject({ numberOfTransactions: 7, controlSum: file.controlSum })
  })

  it('the 2009 date is a plain ReqdExctnDt, the 2019 one its Dt; pain.008 has its ReqdColltnDt and mandate', () => {
    const transfer = (version: 'pain.001.001.03' | 'pain.001.001.09') =>
      readPaymentFile(writePain001(creditTransferBatch(version, [creditTransferInformation('P-1', [creditTransfer(1)], { requestedExecutionDate: '2027-01-04' })])).xml)
    expect(transfer('pain.001.001.03').paymentInformations[0]!.requestedDate).toBe('2027-01-04')
    expect(transfer('pain.001.001.09').paymentInformations[0]!.requestedDate).toBe('2027-01-04')
    const debit = readPaymentFile(writePain008(directDebitBatch('pain.008.001.02', [directDebitInformation('D-1', [directDebit(7)])])).xml).paymentInformations[0]!
    expect(debit).toMatchObject({ method: 'DD', requestedDate: '2026-03-09', sequenceType: 'RCUR', localInstrument: 'CORE', ownAccount: { iban: IBAN.DE } })
    expect(debit.transactions[0]).toMatchObject({ endToEndId: 'E2E-7', mandate: { id: 'MANDATE-7', signatureDate: '2025-11-20' }, counterparty: { iban: IBAN.FR } })
  })
})
