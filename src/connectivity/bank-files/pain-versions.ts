import type { PainVersion } from './bank-file.types.js'

/**
 * Where the message versions differ in the elements Kassa writes, read from the official XSDs
 * (shared/iso20022/xsd). The 2009 messages (pain.001.001.03, pain.008.001.02) and the 2019 ones
 * (pain.001.001.09, pain.008.001.08) differ in the same places for credit transfers and direct debits;
 * everything else Kassa writes has the same name, order and type in all four.
 */
export interface PainDialect {
  namespace: string
  /** FinancialInstitutionIdentification7/BIC (BICIdentifier) in 2009, …18/BICFI (BICFIDec2014Identifier) in 2019. */
  agentBicElement: 'BIC' | 'BICFI'
  /** OrganisationIdentification4/BICOrBEI (AnyBICIdentifier) in 2009, …29/AnyBIC (AnyBICDec2014Identifier) in 2019. */
  organisationBicElement: 'BICOrBEI' | 'AnyBIC'
  /** The pattern both BIC types of the version share (XSD patterns match the whole value). */
  bicPattern: RegExp
  /** pain.001's ReqdExctnDt: an ISODate in .03, a DateAndDateTime2Choice (Dt or DtTm) in .09. */
  executionDateChoice: boolean
  /**
   * How a postal address is written. 2019: the structured elements only (StrtNm, BldgNb, PstCd, TwnNm, Ctry;
   * no AdrLine), as the EPC 2019+ guidelines and the November 2026 structured-address rule want. 2009:
   * Ctry and at most two AdrLine, the only address elements the EPC guidelines for pain.001.001.03 and
   * pain.008.001.02 allow (PostalAddress6 itself would take StrtNm…, but SEPA banks on 2009 schemas refuse them).
   */
  addressStyle: 'structured' | 'lines'
}

const ISO_2009: Omit<PainDialect, 'namespace'> = {
  agentBicElement: 'BIC',
  organisationBicElement: 'BICOrBEI',
  bicPattern: /^[A-Z]{6}[A-Z2-9][A-NP-Z0-9]([A-Z0-9]{3})?$/,
  executionDateChoice: false,
  addressStyle: 'lines',
}

const ISO_2019: Omit<PainDialect, 'namespace'> = {
  agentBicElement: 'BICFI',
  organisationBicElement: 'AnyBIC',
  bicPattern: /^[A-Z0-9]{4}[A-Z]{2}[A-Z0-9]{2}([A-Z0-9]{3})?$/,
  executionDateChoice: true,
  addressStyle: 'structured',
}

const GENERATION: Record<PainVersion, Omit<PainDialect, 'namespace'>> = {
  'pain.001.001.03': ISO_2009,
  'pain.008.001.02': ISO_2009,
  'pain.001.001.09': ISO_2019,
  'pain.008.001.08': ISO_2019,
}

export function painDialect(version: PainVersion): PainDialect {
  return { namespace: `urn:iso:std:iso:20022:tech:xsd:${version}`, ...GENERATION[version] }
}
