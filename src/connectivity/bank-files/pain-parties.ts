import type { Counterparty, InitiatingParty, OrganisationIdentification, OwnAccount, PostalAddress } from './bank-file.types.js'
import type { FieldChecks } from './bank-file.rules.js'
import type { PainDialect } from './pain-versions.js'
import { element, type XmlElement } from '../../shared/xml-text.js'

/**
 * The parties of a pain file and their accounts and banks: the initiating party, the own account's
 * holder (debtor of a credit transfer, creditor of a direct debit) and each transaction's counterparty.
 */

/** One file being written: its version's differences and the checks gathering its problems. */
export interface WriteContext {
  dialect: PainDialect
  checks: FieldChecks
}

/**
 * A party's name: ISO's PartyIdentification types allow 140 characters (Max140Text); the EPC guidelines for
 * SCT, SCT Inst and SDD, and the schemas banks derive from them, allow 70 ("'Name' is limited to 70
 * characters in length"). Kassa writes at most 70, so one file passes both.
 */
export const MAX_NAME_LENGTH = 70

/** The address lines of the 2009 messages are Max70Text, as is StrtNm; the other parts are their elements' limits. */
const ADDRESS_LINE_LENGTH = 70

export type PartyRole = 'Dbtr' | 'Cdtr'

/** InitgPty: its name and, when given, its organisation identifier. */
export function initiatingParty(context: WriteContext, field: string, party: InitiatingParty): XmlElement {
  return element('InitgPty', [
    element('Nm', context.checks.text(`${field}.name`, party.name, MAX_NAME_LENGTH)),
    party.organisationId === undefined
      ? undefined
      : element('Id', [element('OrgId', [organisationIdentification(context, `${field}.organisationId`, party.organisationId)])]),
  ])
}

/** A BIC (AnyBIC or BICOrBEI, PainDialect.organisationBicElement) or one Othr with its scheme and issuer. */
function organisationIdentification(context: WriteContext, field: string, id: OrganisationIdentification): XmlElement {
  const { checks, dialect } = context
  if ('bic' in id) return element(dialect.organisationBicElement, checks.matches(`${field}.bic`, id.bic, dialect.bicPattern, 'a BIC of this message version'))
  const { scheme, issuer } = id.other
  return element('Othr', [
    element('Id', checks.text(`${field}.other.id`, id.other.id, 35)),
    scheme === undefined
      ? undefined
      : element('SchmeNm', [
          'code' in scheme
            ? element('Cd', checks.code(`${field}.other.scheme.code`, scheme.code, 4))
            : element('Prtry', checks.text(`${field}.other.scheme.proprietary`, scheme.proprietary, 35)),
        ]),
    issuer === undefined ? undefined : element('Issr', checks.text(`${field}.other.issuer`, issuer, 35)),
  ])
}

/** The own account: its holder, the account with its currency, and its bank (required; see `agent`). */
export function ownAccountElements(context: WriteContext, field: string, role: PartyRole, account: OwnAccount): XmlElement[] {
  return [
    party(context, field, role, account),
    element(`${role}Acct`, [ibanId(context, `${field}.iban`, account.iban), element('Ccy', context.checks.currency(`${field}.currency`, account.currency))]),
    agent(context, `${field}.bic`, role, account.bic),
  ]
}

/**
 * A transaction's counterparty in schema order: its bank, itself, its account. The creditor's bank of a
 * credit transfer is optional and left out without a BIC (IBAN-only, EPC); the debtor's bank of a direct
 * debit is required by the schema and gets NOTPROVIDED.
 */
export function counterpartyElements(
  context: WriteContext,
  field: string,
  role: PartyRole,
  counterparty: Counterparty,
  agentRequired: boolean,
): (XmlElement | undefined)[] {
  return [
    counterparty.bic === undefined && !agentRequired ? undefined : agent(context, `${field}.bic`, role, counterparty.bic),
    party(context, field, role, counterparty),
    element(`${role}Acct`, [ibanId(context, `${field}.iban`, counterparty.iban)]),
  ]
}

function party(context: WriteContext, field: string, role: PartyRole, holder: { name: string; address?: PostalAddress }): XmlElement {
  return element(role, [
    element('Nm', context.checks.text(`${field}.name`, holder.name, MAX_NAME_LENGTH)),
    holder.address === undefined ? undefined : postalAddress(context, `${field}.address`, holder.address),
  ])
}

/** PstlAdr in the version's style (PainDialect.addressStyle); each part within its element's limit either way. */
function postalAddress(context: WriteContext, field: string, address: PostalAddress): XmlElement {
  const { checks } = context
  const street = address.streetName === undefined ? undefined : checks.text(`${field}.streetName`, address.streetName, 70)
  const building = address.buildingNumber === undefined ? undefined : checks.text(`${field}.buildingNumber`, address.buildingNumber, 16)
  const postCode = address.postCode === undefined ? undefined : checks.text(`${field}.postCode`, address.postCode, 16)
  const town = checks.text(`${field}.townName`, address.townName, 35)
  const country = checks.country(`${field}.country`, address.country)
  if (context.dialect.addressStyle === 'structured') {
    return element('PstlAdr', [
      street === undefined ? undefined : element('StrtNm', street),
      building === undefined ? undefined : element('BldgNb', building),
      postCode === undefined ? undefined : element('PstCd', postCode),
      element('TwnNm', town),
      element('Ctry', country),
    ])
  }
  const streetLine = [street, building].filter((part) => part !== undefined).join(' ')
  if ([...streetLine].length > ADDRESS_LINE_LENGTH) {
    checks.fail(`${field}.streetName`, `with the building number makes an address line of more than ${ADDRESS_LINE_LENGTH} characters`)
  }
  return element('PstlAdr', [
    element('Ctry', country),
    streetLine === '' ? undefined : element('AdrLine', streetLine),
    element('AdrLine', [postCode, town].filter((part) => part !== undefined).join(' ')),
  ])
}

/**
 * A bank by its BIC. Without one, a required agent is written as Othr/Id "NOTPROVIDED", the value the EPC
 * guidelines give for "BIC not provided" since SEPA went IBAN-only.
 */
function agent(context: WriteContext, field: string, role: PartyRole, bic: string | undefined): XmlElement {
  const { checks, dialect } = context
  const id =
    bic === undefined
      ? element('Othr', [element('Id', 'NOTPROVIDED')])
      : element(dialect.agentBicElement, checks.matches(field, bic, dialect.bicPattern, 'a BIC of this message version'))
  return element(`${role}Agt`, [element('FinInstnId', [id])])
}

function ibanId(context: WriteContext, field: string, iban: string): XmlElement {
  return element('Id', [element('IBAN', context.checks.iban(field, iban))])
}
