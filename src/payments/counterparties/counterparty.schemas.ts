import { Type, type Static } from 'typebox'
import {
  Address,
  Etag,
  ExternalId,
  Metadata,
  NationalIdentifier,
  ResourceId,
  Timestamp,
  Version,
} from '../../shared/common.schemas.js'
import { ListQueryProperties } from '../../http/pagination.js'
import { JsonPatchBody, type PatchRule } from '../../http/json-patch.js'
import { CreateEmbeddedExternalAccount, EntityIdsIn, ExternalAccount } from '../external-accounts/external-account.schemas.js'

export const PARTY_TYPES = ['INDIVIDUAL', 'COMPANY'] as const

/** reference §2.5: the one a payment goes to or comes from; holds external accounts. */
export const Counterparty = Type.Object({
  id: ResourceId,
  organizationId: ResourceId,
  externalId: Type.Optional(ExternalId),
  legalName: Type.String(),
  alias: Type.Optional(Type.String()),
  partyType: Type.Optional(Type.Enum([...PARTY_TYPES])),
  email: Type.Optional(Type.String()),
  phone: Type.Optional(Type.String()),
  address: Type.Optional(Address),
  nationalIdentifier: Type.Optional(NationalIdentifier),
  entityIds: Type.Optional(Type.Array(ResourceId, { description: 'The entities the counterparty is scoped to; absent: the whole organization' })),
  accounts: Type.Array(ExternalAccount),
  metadata: Metadata,
  version: Version,
  etag: Etag,
  created: Timestamp,
  updated: Timestamp,
})
export type Counterparty = Static<typeof Counterparty>

/** reference: 25 external accounts per counterparty. */
export const MAX_ACCOUNTS_PER_COUNTERPARTY = 25

/** reference §2.5 entityIds: live entities of the organization (/financial-data/v2/entities); empty for the whole organization. */
const EntityIds = Type.Array(Type.String({ format: 'uuid' }), {
  uniqueItems: true,
  maxItems: 100,
  description: 'The entities of the organization the counterparty is scoped to; empty or absent: the whole organization',
})

const ContactFields = {
  alias: Type.Optional(Type.String({ minLength: 1, maxLength: 255 })),
  partyType: Type.Optional(Type.Enum([...PARTY_TYPES])),
  email: Type.Optional(Type.String({ format: 'email', maxLength: 256 })),
  phone: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
  address: Type.Optional(Address),
  nationalIdentifier: Type.Optional(NationalIdentifier),
}

export const CreateCounterparty = Type.Object(
  {
    legalName: Type.String({ minLength: 1, maxLength: 96 }),
    ...ContactFields,
    accounts: Type.Optional(Type.Array(CreateEmbeddedExternalAccount, { maxItems: MAX_ACCOUNTS_PER_COUNTERPARTY })),
    entityIds: Type.Optional(EntityIds),
    externalId: Type.Optional(ExternalId),
    metadata: Type.Optional(Metadata),
  },
  {
    additionalProperties: false,
    examples: [
      {
        legalName: 'Acme GmbH',
        alias: 'Acme',
        partyType: 'COMPANY',
        email: 'billing@acme.example',
        address: { country: 'DE', city: 'Köln', postalCode: '50667', streetName: 'Hohe Straße', streetNumber: '12' },
        accounts: [
          {
            market: 'DE',
            identifiers: [{ market: 'DE', type: 'IBAN', number: 'DE89370400440532013000' }],
            alias: 'Acme main account',
            externalId: 'erp-supplier-1042-main',
          },
        ],
        externalId: 'erp-supplier-1042',
        metadata: { supplierNumber: '1042' },
      },
    ],
  },
)
export type CreateCounterparty = Static<typeof CreateCounterparty>

/** reference §7: free text of at least 3 characters. */
export const MIN_QUERY_LENGTH = 3

export const CounterpartyListQuery = Type.Object({
  ...ListQueryProperties,
  query: Type.Optional(
    Type.String({ minLength: MIN_QUERY_LENGTH, maxLength: 100, description: 'Free text matched against legal name, alias and account numbers' }),
  ),
  entityIdsIn: EntityIdsIn,
})
export type CounterpartyListQuery = Static<typeof CounterpartyListQuery>

/** The fields PATCH may touch; the patched result is validated against this shape. */
export const CounterpartyEditable = Type.Object(
  {
    legalName: Type.String({ minLength: 1, maxLength: 255 }),
    ...ContactFields,
    entityIds: Type.Optional(EntityIds),
    metadata: Metadata,
  },
  { additionalProperties: false },
)
export type CounterpartyEditable = Static<typeof CounterpartyEditable>

const optionalFields = ['alias', 'partyType', 'email', 'phone', 'address', 'nationalIdentifier', 'entityIds']

export const COUNTERPARTY_PATCH_RULES: readonly PatchRule[] = [
  { op: 'replace', path: '/legalName' },
  ...optionalFields.flatMap((field) =>
    (['add', 'replace', 'remove'] as const).map((op) => ({ op, path: `/${field}` })),
  ),
  { op: 'add', path: '/metadata/*' },
  { op: 'replace', path: '/metadata/*' },
  { op: 'remove', path: '/metadata/*' },
]

/** The PATCH body: a JSON Patch within COUNTERPARTY_PATCH_RULES. */
export const CounterpartyPatchBody = {
  ...JsonPatchBody,
  examples: [
    [
      { op: 'replace', path: '/legalName', value: 'Acme Europe GmbH' },
      { op: 'add', path: '/email', value: 'payables@acme.example' },
    ],
  ],
}
