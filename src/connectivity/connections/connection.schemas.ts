import { Type, type Static } from 'typebox'
import { JsonPatchBody, type PatchRule } from '../../http/json-patch.js'
import { ListQueryProperties } from '../../http/pagination.js'
import { Bic, Etag, ExternalId, Metadata, ResourceId, Timestamp, Version } from '../../shared/common.schemas.js'
import { MAX_NAME_LENGTH, PAIN_001_VERSIONS, PAIN_008_VERSIONS } from '../bank-files/index.js'

/** FILES: pain files out, status reports and statements in (issue 12); SANDBOX: the simulated bank's own connector. */
export const CONNECTION_TYPES = ['FILES', 'SANDBOX'] as const

/** The 2019 message versions (each list's first); a bank still on the 2009 ones is set to those (the second). */
export const DEFAULT_MESSAGE_VERSIONS = { creditTransfers: PAIN_001_VERSIONS[0], directDebits: PAIN_008_VERSIONS[0] }
export const DEFAULT_BATCHING_WINDOW_SECONDS = 300

const Bank = Type.Object(
  { name: Type.String({ minLength: 1, maxLength: 140 }), bic: Bic },
  { additionalProperties: false, description: 'The bank at the other end: its name and BIC' },
)

const CreditTransferVersion = Type.Enum([...PAIN_001_VERSIONS], { description: `pain.001 version of credit transfer files; default ${PAIN_001_VERSIONS[0]}` })
const DirectDebitVersion = Type.Enum([...PAIN_008_VERSIONS], { description: `pain.008 version of direct debit files; default ${PAIN_008_VERSIONS[0]}` })

export const MessageVersions = Type.Object(
  { creditTransfers: CreditTransferVersion, directDebits: DirectDebitVersion },
  { additionalProperties: false, description: 'The ISO 20022 message versions the bank takes' },
)

/**
 * ISO 20022 GenericOrganisationIdentification: an id under a scheme, the scheme either a code of the external
 * code list ExternalOrganisationIdentification1Code (BANK, CUST, TXID…) or a proprietary name — one of the two.
 */
const OtherIdentifier = Type.Object(
  {
    id: Type.String({ minLength: 1, maxLength: 35 }),
    schemeName: Type.Object(
      {
        code: Type.Optional(Type.String({ pattern: '^[A-Z0-9]{1,4}$', description: 'ExternalOrganisationIdentification1Code, e.g. BANK, CUST' })),
        proprietary: Type.Optional(Type.String({ minLength: 1, maxLength: 35 })),
      },
      { additionalProperties: false, description: 'Exactly one of code and proprietary' },
    ),
    issuer: Type.Optional(Type.String({ minLength: 1, maxLength: 35 })),
  },
  { additionalProperties: false },
)

export const InitiatingParty = Type.Object(
  {
    // The EPC guidelines' limit, which the pain writers hold every name to.
    name: Type.String({ minLength: 1, maxLength: MAX_NAME_LENGTH }),
    identifiers: Type.Optional(
      Type.Object(
        { bic: Type.Optional(Bic), other: Type.Optional(OtherIdentifier) },
        {
          additionalProperties: false,
          description: "The party's organisation id: a BIC or one other identifier, not both (EPC implementation guidelines)",
        },
      ),
    ),
  },
  { additionalProperties: false, description: 'Who the files say sends them (InitgPty): usually the organization, as the bank knows it' },
)
export type InitiatingParty = Static<typeof InitiatingParty>

const CreditorSchemeId = Type.String({
  pattern: '^[A-Z]{2}[0-9]{2}[A-Z0-9]{3}[A-Z0-9]{1,28}$',
  maxLength: 35,
  description: 'SEPA creditor identifier for direct debits (EPC262-08): country, check digits, business code, national id; e.g. DE98ZZZ09999999999',
})

const Directory = (what: string) =>
  Type.String({
    minLength: 1,
    maxLength: 1024,
    description:
      `Absolute path of a directory on the server's disk ${what}, in normal form, not the root. Created if missing; the ` +
      'server must be able to read and write it (422 otherwise). No other connection, of any organization, may use it, ' +
      'a directory inside it, or one it lies in (409).',
  })

const BatchingWindowSeconds = Type.Integer({
  minimum: 0,
  maximum: 86_400,
  description: `How long approved payments wait to be gathered into one file, in seconds; default ${DEFAULT_BATCHING_WINDOW_SECONDS}`,
})

/** The fields a connection's settings consist of, shared by the resource, its creation and its PATCH. */
const SettingFields = {
  name: Type.String({ minLength: 1, maxLength: 255 }),
  bank: Bank,
  creditorSchemeId: Type.Optional(CreditorSchemeId),
  outboxDir: Type.Optional(Directory('where Kassa writes the files for the bank (FILES only)')),
  inboxDir: Type.Optional(Directory('where the files from the bank are picked up (FILES only)')),
}

/** A bank connection: how the organization's payments reach a bank and its reports come back (issue 12). */
export const Connection = Type.Object({
  id: ResourceId,
  organizationId: ResourceId,
  externalId: Type.Optional(ExternalId),
  type: Type.Enum([...CONNECTION_TYPES]),
  simulatedBank: Type.Boolean({ description: 'true: the other side is the sandbox\'s simulated bank (a sandbox organization\'s FILES connection)' }),
  ...SettingFields,
  messageVersions: MessageVersions,
  initiatingParty: InitiatingParty,
  batchingWindowSeconds: BatchingWindowSeconds,
  metadata: Metadata,
  version: Version,
  etag: Etag,
  created: Timestamp,
  updated: Timestamp,
})
export type Connection = Static<typeof Connection>

export const CreateConnection = Type.Object(
  {
    type: Type.Enum([...CONNECTION_TYPES]),
    simulatedBank: Type.Optional(
      Type.Boolean({
        description:
          'Sandbox organizations only, FILES only, default false: the simulated bank is on the other side. It takes the ' +
          'files of the connection and answers with pain.002 and camt.054 files (docs/sandbox-bank.md); accounts registered ' +
          'on the connection are opened at it. Cannot be changed later.',
      }),
    ),
    ...SettingFields,
    messageVersions: Type.Optional(
      Type.Object(
        { creditTransfers: Type.Optional(CreditTransferVersion), directDebits: Type.Optional(DirectDebitVersion) },
        { additionalProperties: false, description: 'The ISO 20022 message versions the bank takes; each defaults to the 2019 one' },
      ),
    ),
    initiatingParty: InitiatingParty,
    batchingWindowSeconds: Type.Optional(BatchingWindowSeconds),
    externalId: Type.Optional(ExternalId),
    metadata: Type.Optional(Metadata),
  },
  {
    additionalProperties: false,
    // No directories in the example: a client trying it would have them created on the server's disk.
    examples: [
      {
        type: 'FILES',
        name: 'Deutsche Kreditbank, EBICS',
        bank: { name: 'Deutsche Kreditbank', bic: 'BYLADEM1001' },
        messageVersions: { creditTransfers: 'pain.001.001.09', directDebits: 'pain.008.001.08' },
        initiatingParty: { name: 'Acme GmbH', identifiers: { other: { id: '4711', schemeName: { code: 'BANK' } } } },
        creditorSchemeId: 'DE98ZZZ09999999999',
        batchingWindowSeconds: 300,
        externalId: 'dkb-ebics',
      },
    ],
  },
)
export type CreateConnection = Static<typeof CreateConnection>

export const ConnectionListQuery = Type.Object({
  ...ListQueryProperties,
  type: Type.Optional(Type.Enum([...CONNECTION_TYPES])),
})
export type ConnectionListQuery = Static<typeof ConnectionListQuery>

/** The fields PATCH may touch (the type and externalId stay as created); the patched result is validated against this shape. */
export const ConnectionEditable = Type.Object(
  {
    ...SettingFields,
    messageVersions: MessageVersions,
    initiatingParty: InitiatingParty,
    batchingWindowSeconds: BatchingWindowSeconds,
    metadata: Metadata,
  },
  { additionalProperties: false },
)
export type ConnectionEditable = Static<typeof ConnectionEditable>

const replaceable = [
  '/name',
  '/bank',
  '/bank/name',
  '/bank/bic',
  '/messageVersions/creditTransfers',
  '/messageVersions/directDebits',
  '/initiatingParty',
  '/initiatingParty/name',
  '/batchingWindowSeconds',
]
const optional = ['/creditorSchemeId', '/outboxDir', '/inboxDir', '/initiatingParty/identifiers']

export const CONNECTION_PATCH_RULES: readonly PatchRule[] = [
  ...replaceable.map((path) => ({ op: 'replace' as const, path })),
  ...optional.flatMap((path) => (['add', 'replace', 'remove'] as const).map((op) => ({ op, path }))),
  { op: 'add', path: '/metadata/*' },
  { op: 'replace', path: '/metadata/*' },
  { op: 'remove', path: '/metadata/*' },
]

/** The PATCH body: a JSON Patch within CONNECTION_PATCH_RULES. */
export const ConnectionPatchBody = {
  ...JsonPatchBody,
  examples: [
    [
      { op: 'replace', path: '/messageVersions/creditTransfers', value: 'pain.001.001.03' },
      { op: 'replace', path: '/batchingWindowSeconds', value: 900 },
    ],
  ],
}
