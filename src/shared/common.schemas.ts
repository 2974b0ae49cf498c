import { Type, type Static } from 'typebox'

/** Shapes shared by several resources (reference §2.1). */

export const ResourceId = Type.String({ format: 'uuid', description: 'Identifier of the resource' })

export const EXTERNAL_ID_PATTERN = '^[a-zA-Z0-9._\\-+=]{1,64}$'
export const ExternalId = Type.String({
  pattern: EXTERNAL_ID_PATTERN,
  description: 'Client-chosen identifier, unique per organization and resource type. Look up with GET …/external:{externalId}.',
})

export const Etag = Type.String({ pattern: '^version:\\d+$', description: 'Send verbatim in If-Match when updating.' })
export const Version = Type.Integer({ minimum: 1 })
export const Timestamp = Type.String({ format: 'date-time' })

export const MarketCode = Type.String({ pattern: '^[A-Z]{2}$', description: 'ISO 3166-1 alpha-2 market code' })
export const CurrencyCode = Type.String({ pattern: '^[A-Z]{3}$', description: 'ISO 4217 currency code' })

/** ISO 9362 BIC: 4 letters of bank, 2 of country, 2 of location, optionally 3 of branch (rules check the country). */
export const Bic = Type.String({ pattern: '^[A-Z]{6}[A-Z0-9]{2}([A-Z0-9]{3})?$', description: 'BIC (ISO 9362), 8 or 11 characters, upper case' })

export const METADATA_KEY_PATTERN = '^[A-Za-z0-9_.+\\-]{1,64}$'
export const Metadata = Type.Record(Type.String({ pattern: METADATA_KEY_PATTERN }), Type.String({ maxLength: 512 }), {
  maxProperties: 12,
  // A key pattern alone only constrains matching keys; without this, any other key slips through.
  additionalProperties: false,
  description: 'Up to 12 string values under keys of letters, digits and _ . + -',
})
export type Metadata = Static<typeof Metadata>

export const ACCOUNT_IDENTIFIER_TYPES = [
  'IBAN',
  'NUMBER',
  'SE_BANKGIRO',
  'SE_PLUSGIRO',
  'DK_FIK',
  'ADYEN',
  'PAYPAL',
  'SOLDO',
  'WALLET_SWISSQUOTE',
  'WALLET_AIRWALLEX',
  'WALLET_HYPERWALLET',
  'WALLET_PAYHAWK',
  'WALLET_STRIPE',
  'AU_BPAY_BILLER_CODE',
] as const

export const AccountIdentifierInput = Type.Object(
  {
    market: MarketCode,
    type: Type.Enum([...ACCOUNT_IDENTIFIER_TYPES]),
    number: Type.String({ minLength: 1, maxLength: 255, description: 'The account number, unformatted' }),
  },
  { additionalProperties: false },
)
export type AccountIdentifierInput = Static<typeof AccountIdentifierInput>

export const AccountIdentifier = Type.Object({
  market: MarketCode,
  type: Type.String(),
  number: Type.String(),
})
export type AccountIdentifier = Static<typeof AccountIdentifier>

/** reference §2.1: how the bank is reached — its BIC, or a national clearing code (DE_BLZ, GB_DSC, US_ABA…). */
export const RoutingIdentifier = Type.Object({
  type: Type.String({ description: 'BIC, or the type of a national clearing code such as DE_BLZ, GB_DSC, US_ABA' }),
  number: Type.String(),
})
export type RoutingIdentifier = Static<typeof RoutingIdentifier>

export const Address = Type.Object(
  {
    country: Type.Optional(MarketCode),
    city: Type.Optional(Type.String({ maxLength: 64 })),
    postalCode: Type.Optional(Type.String({ maxLength: 16 })),
    streetName: Type.Optional(Type.String({ maxLength: 64 })),
    streetNumber: Type.Optional(Type.String({ maxLength: 16 })),
  },
  { additionalProperties: false },
)
export type Address = Static<typeof Address>

export const NationalIdentifier = Type.Object(
  {
    type: Type.Enum(['CIVIC', 'COMPANY']),
    market: MarketCode,
    number: Type.String({ minLength: 1, maxLength: 64 }),
  },
  { additionalProperties: false },
)
export type NationalIdentifier = Static<typeof NationalIdentifier>

/** `{id}` path segment: a resource id, or `external:{externalId}` where the resource supports it. */
export const IdParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 256 }) })
