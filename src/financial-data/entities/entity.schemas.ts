import { Type, type Static } from 'typebox'
import { Address, Etag, ExternalId, Metadata, NationalIdentifier, ResourceId, Timestamp, Version } from '../../shared/common.schemas.js'
import { ListQueryProperties } from '../../http/pagination.js'
import { JsonPatchBody, type PatchRule } from '../../http/json-patch.js'

const LegalName = Type.String({ minLength: 1, maxLength: 255 })
const ParentId = Type.String({
  format: 'uuid',
  description: 'Another live entity of the organization this one belongs under (a subsidiary its parent); never a cycle',
})

/** reference §2.10: a legal entity of the organization — what own accounts belong to and counterparties may be scoped to. */
export const Entity = Type.Object({
  id: ResourceId,
  organizationId: ResourceId,
  externalId: Type.Optional(ExternalId),
  legalName: Type.String(),
  parentId: Type.Optional(ResourceId),
  nationalIdentifier: Type.Optional(NationalIdentifier),
  address: Type.Optional(Address),
  metadata: Metadata,
  version: Version,
  etag: Etag,
  created: Timestamp,
  updated: Timestamp,
})
export type Entity = Static<typeof Entity>

export const CreateEntity = Type.Object(
  {
    legalName: LegalName,
    parentId: Type.Optional(ParentId),
    nationalIdentifier: Type.Optional(NationalIdentifier),
    address: Type.Optional(Address),
    externalId: Type.Optional(ExternalId),
    metadata: Type.Optional(Metadata),
  },
  {
    additionalProperties: false,
    examples: [
      {
        legalName: 'Acme Nordics AB',
        nationalIdentifier: { type: 'COMPANY', market: 'SE', number: '5561234567' },
        address: { country: 'SE', city: 'Stockholm', postalCode: '11122', streetName: 'Drottninggatan', streetNumber: '7' },
        externalId: 'erp-company-20',
        metadata: { companyCode: '20' },
      },
    ],
  },
)
export type CreateEntity = Static<typeof CreateEntity>

export const EntityListQuery = Type.Object({
  ...ListQueryProperties,
  parentId: Type.Optional(Type.String({ format: 'uuid', description: 'Only the entities directly under this one' })),
})
export type EntityListQuery = Static<typeof EntityListQuery>

/** The fields PATCH may touch (externalId stays as created); the patched result is validated against this shape. */
export const EntityEditable = Type.Object(
  {
    legalName: LegalName,
    parentId: Type.Optional(ParentId),
    nationalIdentifier: Type.Optional(NationalIdentifier),
    address: Type.Optional(Address),
    metadata: Metadata,
  },
  { additionalProperties: false },
)
export type EntityEditable = Static<typeof EntityEditable>

/** reference §2.10: replace legalName; replace or remove nationalIdentifier, address and the parent (add sets an absent one). */
export const ENTITY_PATCH_RULES: readonly PatchRule[] = [
  { op: 'replace', path: '/legalName' },
  ...['/parentId', '/nationalIdentifier', '/address'].flatMap((path) => (['add', 'replace', 'remove'] as const).map((op) => ({ op, path }))),
  { op: 'add', path: '/metadata/*' },
  { op: 'replace', path: '/metadata/*' },
  { op: 'remove', path: '/metadata/*' },
]

/** The PATCH body: a JSON Patch within ENTITY_PATCH_RULES. */
export const EntityPatchBody = {
  ...JsonPatchBody,
  examples: [[{ op: 'replace', path: '/legalName', value: 'Acme Nordics AB (publ)' }, { op: 'remove', path: '/parentId' }]],
}
