import type { AccountsTable, BankConnectionsTable } from '../../db/schema.js'
import type { PaymentInstruction } from '../../financial-data/sandbox/index.js'
import type { Address, AccountIdentifier } from '../../shared/common.schemas.js'
import {
  MAX_NAME_LENGTH,
  SEQUENCE_TYPES,
  writePain001,
  writePain008,
  type BankFile,
  type Counterparty,
  type DirectDebitScheme,
  type InitiatingParty,
  type MessageHeader,
  type OwnAccount,
  type Pain001Version,
  type Pain008Version,
  type PostalAddress,
  type SequenceType,
  type TransactionCommon,
} from '../bank-files/index.js'
import type { InitiatingParty as ConnectionParty } from '../connections/connection.schemas.js'
import { batchBookingOf, localInstrumentOf, shortenedName } from './file-groups.js'

/** One file's worth of queued payments: same connection, own account, kind, scheme, date (file-groups.ts). */
export interface FileGroup {
  connection: BankConnectionsTable
  account: AccountsTable
  instructions: PaymentInstruction[]
  messageId: string
  created: Date
}

/** Kassa's address holds what the pain address needs only with a town and a country: otherwise none is written. */
function postalAddressOf(address: Address | undefined): PostalAddress | undefined {
  if (!address?.city || !address.country) return undefined
  return {
    townName: address.city,
    country: address.country,
    ...(address.streetName ? { streetName: address.streetName } : {}),
    ...(address.streetNumber ? { buildingNumber: address.streetNumber } : {}),
    ...(address.postalCode ? { postCode: address.postalCode } : {}),
  }
}

function counterpartyOf(instruction: PaymentInstruction): Counterparty {
  const { name, iban, bic, address } = instruction.counterparty
  const postal = postalAddressOf(address)
  return { name: shortenedName(name, MAX_NAME_LENGTH), iban, ...(bic ? { bic } : {}), ...(postal ? { address: postal } : {}) }
}

/** The transaction fields every pain message shares: the end-to-end id travels back in status reports and statements. */
function transactionOf(instruction: PaymentInstruction): TransactionCommon {
  return {
    instructionId: instruction.endToEndId,
    endToEndId: instruction.endToEndId,
    amount: { value: instruction.amount, currency: instruction.currency },
    ...(instruction.reference ? { remittance: { unstructured: instruction.reference } } : {}),
  }
}

function initiatingPartyOf(party: ConnectionParty): InitiatingParty {
  const { bic, other } = party.identifiers ?? {}
  const scheme = other?.schemeName.code ? { code: other.schemeName.code } : other?.schemeName.proprietary ? { proprietary: other.schemeName.proprietary } : undefined
  return {
    name: party.name,
    ...(bic ? { organisationId: { bic } } : {}),
    ...(other ? { organisationId: { other: { id: other.id, ...(scheme ? { scheme } : {}), ...(other.issuer ? { issuer: other.issuer } : {}) } } } : {}),
  }
}

/** The organization's account at the bank: the initiating party holds it; BIC the account's, else the connection's bank's. */
function ownAccountOf(group: FileGroup, holder: string): OwnAccount {
  const iban = (JSON.parse(group.account.identifiers) as AccountIdentifier[]).find((identifier) => identifier.type === 'IBAN')?.number ?? ''
  return { name: shortenedName(holder, MAX_NAME_LENGTH), iban, bic: group.account.bic ?? group.connection.bic, currency: group.account.currency }
}

/** PmtInfId: the MsgId and the information's position (1-based) in the file. */
function paymentInformationIdAt(messageId: string, index: number): string {
  return `${messageId}-${index + 1}`
}

/**
 * A direct debit file's sequence types, one payment information each, in a fixed order (FRST, RCUR, FNAL, OOFF):
 * whatever order its payments come in, a payment's PmtInfId can be told again from the file's payments.
 */
function sequencesOf(instructions: readonly PaymentInstruction[]): string[] {
  const present = new Set<string>(instructions.map((instruction) => instruction.sequenceType ?? 'FRST'))
  return SEQUENCE_TYPES.filter((sequenceType) => present.has(sequenceType))
}

/** The PmtInfId each payment of a file went in, by payment id: what a pain.002 names it by (files-in). */
export function paymentInformationIdsOf(messageId: string, instructions: readonly PaymentInstruction[]): Map<string, string> {
  const sequences = sequencesOf(instructions)
  return new Map(
    instructions.map((instruction) => [
      instruction.paymentId,
      paymentInformationIdAt(messageId, instruction.paymentType === 'CREDIT_TRANSFER' ? 0 : sequences.indexOf(instruction.sequenceType ?? 'FRST')),
    ]),
  )
}

/**
 * The pain.001 (credit transfers) or pain.008 (direct debits) of a group, in the connection's message version:
 * one payment information for credit transfers, one per sequence type for direct debits (EPC: sequence type is
 * given per payment information). PmtInfId is the MsgId and the information's position.
 * @throws BankFileError when a value cannot be carried (nothing is written then).
 */
export function writeGroupFile(group: FileGroup): BankFile {
  const party = JSON.parse(group.connection.initiating_party) as ConnectionParty
  const message: MessageHeader = { messageId: group.messageId, creationDateTime: group.created, initiatingParty: initiatingPartyOf(party) }
  // A group has a payment at least (gatherGroup makes no file of none); all share kind, scheme and date.
  const first = group.instructions[0]!
  const common = { batchBooking: batchBookingOf(first) }
  if (first.paymentType === 'CREDIT_TRANSFER') {
    const localInstrument = localInstrumentOf(first.scheme)
    return writePain001({
      version: group.connection.credit_transfer_version as Pain001Version,
      message,
      paymentInformation: [
        {
          paymentInformationId: paymentInformationIdAt(group.messageId, 0),
          ...common,
          requestedExecutionDate: first.executionDate,
          ...(localInstrument ? { localInstrument } : {}),
          debtor: ownAccountOf(group, party.name),
          transactions: group.instructions.map((instruction) => ({ ...transactionOf(instruction), creditor: counterpartyOf(instruction) })),
        },
      ],
    })
  }
  const sequences = sequencesOf(group.instructions)
  return writePain008({
    version: group.connection.direct_debit_version as Pain008Version,
    message,
    paymentInformation: sequences.map((sequenceType, index) => ({
      paymentInformationId: paymentInformationIdAt(group.messageId, index),
      ...common,
      requestedCollectionDate: first.executionDate,
      localInstrument: localInstrumentOf(first.scheme) as DirectDebitScheme,
      sequenceType: sequenceType as SequenceType,
      creditorSchemeId: group.connection.creditor_scheme_id ?? '',
      creditor: ownAccountOf(group, party.name),
      transactions: group.instructions
        .filter((instruction) => (instruction.sequenceType ?? 'FRST') === sequenceType)
        .map((instruction) => ({
          ...transactionOf(instruction),
          mandate: { id: instruction.mandateReference ?? '', signatureDate: instruction.mandateSignatureDate ?? '' },
          debtor: counterpartyOf(instruction),
        })),
    })),
  })
}
