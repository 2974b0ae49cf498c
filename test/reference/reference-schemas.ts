/**
 * The reference API's response schemas, as a client generated from its OpenAPI document sees them (issue 13,
 * "Required fields"): the required lists of ../shared/reference/reference-required-fields.md, the enums and
 * shapes of reference-api.md, restated here as JSON Schema. Nested objects are referenced by the reference's
 * schema names.
 *
 * What a generated client rejects, these reject: a missing required field, a wrong type, an enum value
 * outside the reference's. What it tolerates, these tolerate: fields the reference does not know (reference
 * §1 "Unknown fields": clients must accept new fields), so Kassa's richer shapes stay valid — no schema here
 * sets additionalProperties: false.
 *
 * Two readings beyond the required-fields list, named where they apply:
 * - PaymentStatus keeps RECONCILED: the 2024 document's enum lacks it, the reference's documentation lists it
 *   (reference §3.1) and Kassa reports reconciliation with it.
 * - Webhook and WebhookKey (the v1 subscription resource, reference §5.1) are absent from the list: their
 *   required fields are the ones reference §5.1 says every webhook has.
 */

const string = { type: 'string' } as const
const boolean = { type: 'boolean' } as const
const integer = { type: 'integer' } as const
const timestamp = { type: 'string', format: 'date-time' } as const
const date = { type: 'string', format: 'date' } as const
const resourceId = { type: 'string', minLength: 32, maxLength: 64 } as const
const market = { type: 'string', pattern: '^[A-Z]{2}$' } as const
const currency = { type: 'string', pattern: '^[A-Z]{3}$' } as const
const version = { type: 'integer', minimum: 1 } as const
const etag = { type: 'string', pattern: '^version:\\d{1,4}$' } as const
const externalId = { type: 'string', pattern: '^[a-zA-Z0-9._\\-+=]{1,64}$' } as const
const metadata = { type: ['object', 'null'], additionalProperties: string, maxProperties: 12 } as const

/** A named schema of this document (a misspelt name fails when Ajv compiles it). */
const ref = (name: string) => ({ $ref: `#/definitions/${name}` })
const arrayOf = (items: object) => ({ type: 'array', items })
const oneOf = (...values: string[]) => ({ type: 'string', enum: values })

function object(required: readonly string[], properties: Record<string, object>) {
  return { type: 'object', required, properties }
}

/** Reference §9 and §2.1. */
const ACCOUNT_IDENTIFIER_TYPES = [
  'IBAN', 'NUMBER', 'SE_BANKGIRO', 'SE_PLUSGIRO', 'DK_FIK', 'ADYEN', 'PAYPAL', 'SOLDO', 'WALLET_SWISSQUOTE',
  'WALLET_AIRWALLEX', 'WALLET_HYPERWALLET', 'WALLET_PAYHAWK', 'WALLET_STRIPE', 'AU_BPAY_BILLER_CODE',
]
const ROUTING_IDENTIFIER_TYPES = [
  'BIC', 'AT_BLZ', 'AU_BSB', 'CA_CPA', 'CH_BCC', 'CH_SIC', 'CN_APS', 'DE_BLZ', 'ES_NCC', 'GB_DSC', 'GR_BIC', 'HK_NCC',
  'IE_NCC', 'IN_FSC', 'IT_NCC', 'JP_ZGN', 'NZ_NCC', 'PL_KNR', 'PT_NCC', 'RU_CBC', 'SE_SBA', 'SG_IBG', 'TH_CBC',
  'TW_NCC', 'US_ABA', 'US_PID', 'ZA_NCC',
]
const CREDIT_TRANSFER_SCHEMES = [
  'SCT', 'SCT_INST', 'CROSS_BORDER', 'GB_CT_BACS', 'GB_CT_CHAPS', 'GB_CT_FPS', 'SE_A2A', 'SE_GIRO', 'DK_A2A',
  'DK_CT_SAMEDAY', 'DK_CT_INST', 'DK_CT_FIK71', 'DK_CT_FIK73', 'DK_CT_FIK75', 'CH_CT', 'NO_CT', 'NO_CT_KID',
  'US_CT_ACH', 'US_CT_WIRE', 'IS_CT', 'AU_CT', 'AU_CT_BPAY', 'IL_CT', 'SG_CT', 'BG_CT', 'MX_CT', 'KR_CT', 'TH_CT',
]
const DIRECT_DEBIT_SCHEMES = ['SDD_CORE', 'SDD_B2B', 'AUTOGIRO']
/** Reference §3.1, RECONCILED included (see above). */
const PAYMENT_STATUSES = [
  'CREATED', 'APPROVED', 'REJECTED', 'PENDING_SUBMISSION', 'SENT', 'PENDING_AT_BANK', 'ACCEPTED', 'EXECUTED', 'FAILED',
  'RECONCILED', 'RETURNED', 'UNKNOWN',
]
/** Reference §2.9. */
const MANDATE_STATUSES = [
  'CREATED', 'PENDING_SUBMISSION', 'SENT', 'ACCEPTED', 'ACTIVE', 'PENDING_CANCELLATION', 'PENDING_CANCELLATION_SUBMISSION',
  'CANCELLATION_SENT', 'CANCELLED', 'FAILED', 'UNKNOWN',
]
const PARTY_TYPES = ['INDIVIDUAL', 'COMPANY']

const definitions = {
  Amount: object(['currency', 'stringValue', 'value'], { currency, stringValue: string, value: integer }),
  Address: object([], {
    country: market,
    city: { type: 'string', maxLength: 64 },
    postalCode: { type: 'string', maxLength: 16 },
    streetName: { type: 'string', maxLength: 64 },
    streetNumber: { type: 'string', maxLength: 16 },
  }),
  NationalIdentifier: object(['type', 'market', 'number'], { type: oneOf('CIVIC', 'COMPANY'), market, number: string }),
  AccountIdentifier: object(['type', 'market', 'number'], {
    type: oneOf(...ACCOUNT_IDENTIFIER_TYPES),
    market,
    number: { type: 'string', minLength: 1, maxLength: 255 },
    invalid: boolean,
  }),
  RoutingConstraints: object([], { accountNumberType: oneOf(...ACCOUNT_IDENTIFIER_TYPES), scheme: string }),
  RoutingIdentifier: object(['type', 'number'], {
    type: oneOf(...ROUTING_IDENTIFIER_TYPES),
    number: { type: 'string', minLength: 1, maxLength: 255 },
    invalid: boolean,
    constraints: ref('RoutingConstraints'),
  }),
  CitiWorldlinkInstrument: object(['type', 'citiWorldlinkId'], { type: oneOf('CITI_WORLDLINK'), citiWorldlinkId: string }),
  USACHInstrument: object(['type', 'usAchCompanyId'], { type: oneOf('US_ACH'), usAchCompanyId: string }),
  PaymentOptions: object([], {
    instruments: arrayOf({ anyOf: [ref('CitiWorldlinkInstrument'), ref('USACHInstrument')] }),
  }),
  ListResponse: object(['items', 'nextToken', 'token', 'limit'], { items: { type: 'array' }, nextToken: string, token: string, limit: integer }),

  Account: object(
    ['id', 'organizationId', 'entityId', 'thirdPartyId', 'affiliationId', 'market', 'currency', 'identifiers', 'routing', 'name', 'fictive', 'created', 'updated', 'version', 'etag'],
    {
      id: resourceId,
      organizationId: string,
      entityId: string,
      thirdPartyId: string,
      affiliationId: string,
      market,
      currency,
      identifiers: arrayOf(ref('AccountIdentifier')),
      routing: arrayOf(ref('RoutingIdentifier')),
      name: { type: 'string', maxLength: 255 },
      alias: { type: 'string', maxLength: 255 },
      fictive: boolean,
      externalId,
      metadata,
      paymentOptions: ref('PaymentOptions'),
      created: timestamp,
      updated: timestamp,
      version,
      etag,
    },
  ),
  Entity: object(['id', 'organizationId', 'legalName', 'created', 'updated', 'version'], {
    id: resourceId,
    organizationId: string,
    parentId: string,
    legalName: { type: 'string', maxLength: 255 },
    nationalIdentifier: ref('NationalIdentifier'),
    address: ref('Address'),
    created: timestamp,
    updated: timestamp,
    version,
  }),
  Balance: object(['id', 'accountId', 'organizationId', 'type', 'reportedType', 'amount', 'localDate', 'timestamp', 'version'], {
    id: string,
    accountId: string,
    organizationId: string,
    type: oneOf('BOOKED', 'AVAILABLE'),
    reportedType: oneOf('OPEN', 'CLOSE', 'INTERIM'),
    amount: ref('Amount'),
    localDate: date,
    timestamp,
    version,
  }),

  BankTransactionCode: object(['domain'], {
    domain: { type: 'string', maxLength: 4 },
    family: string,
    subfamily: string,
    proprietary: ref('ProprietaryBankTransactionCode'),
    description: string,
  }),
  ProprietaryBankTransactionCode: object([], { code: string, issuer: string }),
  ReturnReason: object([], { code: string, description: string, originalBankTransactionCode: ref('BankTransactionCode') }),
  CurrencyExchange: object(['sourceCurrency', 'exchangeRate'], { sourceCurrency: currency, exchangeRate: string, targetCurrency: currency, unitCurrency: currency }),
  TransactionReferences: object([], { mandateReference: string, endToEndId: string }),
  TransactionVirtualAccount: object(['identifiers'], {
    market,
    identifiers: arrayOf(ref('AccountIdentifier')),
    routing: arrayOf(ref('RoutingIdentifier')),
  }),
  CounterpartyAccount: object(['identifiers', 'rawIdentifier'], {
    market,
    identifiers: arrayOf(ref('AccountIdentifier')),
    routing: arrayOf(ref('RoutingIdentifier')),
    rawIdentifier: string,
  }),
  CounterpartyDetails: object([], {
    partyType: oneOf(...PARTY_TYPES),
    name: string,
    nationalIdentifier: ref('NationalIdentifier'),
    address: ref('Address'),
    account: ref('CounterpartyAccount'),
  }),
  AttachedTransactableRef: object(['type', 'id'], {
    type: oneOf('CREDIT_TRANSFER', 'DIRECT_DEBIT', 'EXPECTED_TRANSACTION', 'PAYMENT_BATCH'),
    id: string,
  }),
  Transaction: object(
    ['id', 'organizationId', 'accountId', 'date', 'amount', 'reconciliationStatus', 'description', 'created', 'updated', 'version', 'attachedTransactables', 'returned'],
    {
      id: string,
      organizationId: string,
      accountId: string,
      date,
      valueDate: date,
      amount: ref('Amount'),
      instructedAmount: ref('Amount'),
      reference: string,
      references: ref('TransactionReferences'),
      reconciliationStatus: oneOf('RECONCILED', 'PARTIALLY_RECONCILED', 'NOT_RECONCILED'),
      counterparty: ref('CounterpartyDetails'),
      description: string,
      bankTransactionCode: ref('BankTransactionCode'),
      currencyExchange: ref('CurrencyExchange'),
      virtualAccount: ref('TransactionVirtualAccount'),
      returned: boolean,
      returnReason: ref('ReturnReason'),
      attachedTransactables: arrayOf(ref('AttachedTransactableRef')),
      metadata,
      created: timestamp,
      updated: timestamp,
      version,
    },
  ),

  PendingTransaction: object(
    ['id', 'organizationId', 'accountId', 'date', 'amount', 'description', 'created', 'updated', 'version', 'etag', 'returned'],
    {
      id: string,
      organizationId: string,
      accountId: string,
      date,
      valueDate: date,
      amount: ref('Amount'),
      instructedAmount: ref('Amount'),
      reference: string,
      references: ref('TransactionReferences'),
      counterparty: ref('CounterpartyDetails'),
      description: string,
      bankTransactionCode: ref('BankTransactionCode'),
      currencyExchange: ref('CurrencyExchange'),
      virtualAccount: ref('TransactionVirtualAccount'),
      returned: boolean,
      returnReason: ref('ReturnReason'),
      metadata,
      created: timestamp,
      updated: timestamp,
      version,
      etag,
    },
  ),

  ExternalAccount: object(['id', 'organizationId', 'counterpartyId', 'market', 'name', 'identifiers', 'created', 'updated', 'version', 'etag'], {
    id: resourceId,
    organizationId: string,
    counterpartyId: string,
    entityIds: arrayOf(string),
    market,
    name: { type: 'string', maxLength: 255 },
    alias: { type: 'string', maxLength: 255 },
    identifiers: arrayOf(ref('AccountIdentifier')),
    routing: arrayOf(ref('RoutingIdentifier')),
    externalId,
    metadata,
    created: timestamp,
    updated: timestamp,
    version,
    etag,
  }),
  Counterparty: object(['id', 'organizationId', 'legalName', 'created', 'updated', 'version', 'etag'], {
    id: resourceId,
    organizationId: string,
    legalName: string,
    partyType: oneOf(...PARTY_TYPES),
    alias: string,
    address: ref('Address'),
    accounts: arrayOf(ref('ExternalAccount')),
    email: string,
    phone: string,
    nationalIdentifier: ref('NationalIdentifier'),
    externalId,
    metadata,
    entityIds: arrayOf(string),
    created: timestamp,
    updated: timestamp,
    version,
    etag,
  }),

  AccountSnapshot: object(['type', 'id', 'organizationId', 'market', 'currency', 'identifiers', 'routing'], {
    type: oneOf('ACCOUNT', 'EXTERNAL_ACCOUNT', 'INLINE'),
    id: resourceId,
    organizationId: string,
    market,
    currency,
    identifiers: arrayOf(ref('AccountIdentifier')),
    routing: arrayOf(ref('RoutingIdentifier')),
  }),
  ExternalAccountSnapshot: object(['type', 'id', 'organizationId', 'market', 'identifiers'], {
    type: oneOf('ACCOUNT', 'EXTERNAL_ACCOUNT', 'INLINE'),
    id: resourceId,
    organizationId: string,
    market,
    identifiers: arrayOf(ref('AccountIdentifier')),
    routing: arrayOf(ref('RoutingIdentifier')),
  }),
  /** A credit transfer's destination: oneOf the two snapshots, told apart by `type` (the reference's discriminator). */
  CreditTransferDestination: {
    if: { type: 'object', required: ['type'], properties: { type: { const: 'ACCOUNT' } } },
    then: ref('AccountSnapshot'),
    else: ref('ExternalAccountSnapshot'),
  },
  AccountHolder: object(['type', 'id', 'legalName'], {
    type: oneOf('COUNTERPARTY', 'ENTITY'),
    id: string,
    legalName: string,
    address: ref('Address'),
    nationalIdentifier: ref('NationalIdentifier'),
    partyType: oneOf(...PARTY_TYPES),
  }),
  UserAuditInfo: object(['id', 'username'], { id: resourceId, username: string, name: string, roleId: string }),
  PaymentApprovalStep: object(['id', 'status', 'approvalChainId', 'autoApproved'], {
    id: string,
    approvalChainId: string,
    requiredRoleIds: { type: 'array', items: string, maxItems: 10 },
    status: oneOf('PENDING', 'APPROVED', 'REJECTED'),
    approver: ref('UserAuditInfo'),
    updated: timestamp,
    autoApproved: boolean,
    allowCreatorApproval: boolean,
  }),
  AttachedTransactionRef: object(['type', 'id'], { type: oneOf('TRANSACTION'), id: string }),
  RegulatoryReportingDetails: object(['market', 'indicator', 'code'], { market, indicator: oneOf('CREDITOR', 'DEBTOR', 'BOTH'), code: string }),
  SchemeDetails: object([], { instrument: { anyOf: [ref('CitiWorldlinkInstrument'), ref('USACHInstrument')] } }),
  BatchDetails: object(['id', 'treatment'], { id: resourceId, treatment: oneOf('INDIVIDUAL_PAYMENTS', 'BATCH') }),
  BatchInputContent: object(['recordCount', 'contentType', 'size', 'checksum'], {
    recordCount: integer,
    contentType: oneOf('application/vnd.atlar.payments.v2.credit-transfer.batch+csv', 'application/vnd.atlar.payments.v2.credit-transfer.batch+json'),
    size: integer,
    checksum: string,
    filename: string,
  }),
  BatchResultSummary: object(['total', 'succeeded', 'failed', 'skipped'], { total: integer, succeeded: integer, failed: integer, skipped: integer }),
  /** Listed by the reference's required fields; no operation Kassa shares answers with it (results are a list of BatchResult). */
  BatchResultsSummary: object(['total', 'succeeded', 'failed', 'skipped', 'processed', 'sums'], {
    total: integer,
    succeeded: integer,
    failed: integer,
    skipped: integer,
    processed: integer,
  }),
  ErrorDetails: object([], { code: string, error: string, field: string }),
  BatchResult: object([], { paymentId: string, errors: arrayOf(ref('ErrorDetails')), skipped: boolean, recordIndex: integer }),
  /**
   * Reference §3.4. `input` and `inputDetails` are required, their shapes unpublished: objects here, whatever they hold.
   * Batch `status`: CREATED → PROCESSING_STARTED → COMPLETED; approvalSteps only once COMPLETED.
   */
  CreditTransferBatch: object(
    ['treatment', 'id', 'organizationId', 'etag', 'status', 'version', 'created', 'updated', 'input', 'inputContent', 'inputDetails', 'approvalSteps'],
    {
      treatment: oneOf('INDIVIDUAL_PAYMENTS', 'BATCH'),
      id: resourceId,
      organizationId: string,
      etag,
      status: oneOf('CREATED', 'PROCESSING_STARTED', 'COMPLETED'),
      version,
      created: timestamp,
      updated: timestamp,
      input: { type: 'object' },
      inputContent: ref('BatchInputContent'),
      inputDetails: { type: 'object' },
      approvalSteps: arrayOf(ref('PaymentApprovalStep')),
      resultSummary: ref('BatchResultSummary'),
      errors: { type: 'array', maxItems: 255 },
      externalId,
      metadata,
    },
  ),
  CreditTransfer: object(
    ['id', 'organizationId', 'amount', 'scheme', 'date', 'status', 'source', 'sourceHolder', 'destination', 'destinationHolder', 'reference', 'approvalSteps', 'version', 'etag', 'created', 'updated', 'attachedTransactions'],
    {
      id: resourceId,
      organizationId: string,
      creatorUserId: resourceId,
      amount: ref('Amount'),
      scheme: oneOf(...CREDIT_TRANSFER_SCHEMES),
      schemeDetails: ref('SchemeDetails'),
      date,
      status: oneOf(...PAYMENT_STATUSES),
      source: ref('AccountSnapshot'),
      sourceHolder: ref('AccountHolder'),
      destination: ref('CreditTransferDestination'),
      destinationHolder: ref('AccountHolder'),
      approvalSteps: arrayOf(ref('PaymentApprovalStep')),
      attachedTransactions: arrayOf(ref('AttachedTransactionRef')),
      reference: { type: 'string', maxLength: 140 },
      categoryPurpose: string,
      chargeBearer: oneOf('SHARED', 'DEBTOR', 'CREDITOR'),
      regulatoryReporting: arrayOf(ref('RegulatoryReportingDetails')),
      connectionInstructionId: string,
      batch: ref('BatchDetails'),
      externalId,
      metadata,
      version,
      etag,
      created: timestamp,
      updated: timestamp,
    },
  ),
  MandateSnapshot: object(['id', 'creditorReference', 'mandateReference', 'finalCollection', 'version'], {
    id: resourceId,
    creditorReference: string,
    mandateReference: { type: 'string', minLength: 1, maxLength: 35 },
    finalCollection: boolean,
    signatureDate: date,
    version,
  }),
  DirectDebit: object(
    ['id', 'organizationId', 'amount', 'scheme', 'date', 'status', 'destination', 'destinationHolder', 'source', 'sourceHolder', 'approvalSteps', 'reference', 'version', 'etag', 'created', 'updated', 'attachedTransactions'],
    {
      id: resourceId,
      organizationId: string,
      creatorUserId: resourceId,
      amount: ref('Amount'),
      scheme: oneOf(...DIRECT_DEBIT_SCHEMES),
      date,
      status: oneOf(...PAYMENT_STATUSES),
      destination: ref('AccountSnapshot'),
      destinationHolder: ref('AccountHolder'),
      source: ref('ExternalAccountSnapshot'),
      sourceHolder: ref('AccountHolder'),
      mandate: ref('MandateSnapshot'),
      approvalSteps: arrayOf(ref('PaymentApprovalStep')),
      attachedTransactions: arrayOf(ref('AttachedTransactionRef')),
      reference: { type: 'string', maxLength: 140 },
      categoryPurpose: string,
      chargeBearer: oneOf('SHARED', 'DEBTOR', 'CREDITOR'),
      connectionInstructionId: string,
      externalId,
      metadata,
      version,
      etag,
      created: timestamp,
      updated: timestamp,
    },
  ),
  Mandate: object(
    ['id', 'organizationId', 'counterpartyId', 'externalAccountId', 'source', 'sourceHolder', 'scheme', 'creditorReference', 'mandateReference', 'status', 'version', 'etag', 'created', 'updated'],
    {
      id: resourceId,
      organizationId: string,
      counterpartyId: string,
      externalAccountId: string,
      destinationAccountId: string,
      connectionInstructionId: string,
      source: ref('ExternalAccountSnapshot'),
      sourceHolder: ref('AccountHolder'),
      creditorReference: string,
      scheme: oneOf(...DIRECT_DEBIT_SCHEMES),
      mandateReference: { type: 'string', minLength: 1, maxLength: 35 },
      signatureDate: date,
      status: oneOf(...MANDATE_STATUSES),
      externalId,
      metadata,
      version,
      etag,
      created: timestamp,
      updated: timestamp,
    },
  ),

  Event: object(['id', 'organizationId', 'entityId', 'type', 'name', 'originator', 'timestamp'], {
    id: integer,
    organizationId: string,
    entityId: resourceId,
    type: oneOf('CREATED', 'UPDATED', 'DELETED'),
    name: string,
    timestamp,
    details: { type: 'object', additionalProperties: string },
    message: string,
    originator: string,
  }),
  /** A webhook delivery's body (reference §5.2); `entity` is checked against its resource's schema separately. */
  EventWebhookPayload: object(['resource', 'apiVersion', 'event', 'entity'], {
    resource: string,
    apiVersion: integer,
    event: ref('Event'),
    entity: { type: 'object' },
  }),
  WebhookFilter: object(['resource', 'apiVersion'], { resource: string, apiVersion: integer, events: arrayOf(string) }),
  Webhook: object(['id', 'organizationId', 'url', 'filter', 'verified', 'created', 'updated'], {
    id: string,
    organizationId: string,
    name: string,
    url: string,
    filter: arrayOf(ref('WebhookFilter')),
    verified: boolean,
    created: timestamp,
    updated: timestamp,
  }),
  /** A signing key as made (POST /v1/webhooks/{id}/keys, and the keys of POST /v1/webhooks). */
  WebhookKey: object(['id', 'signingKey', 'created'], { id: string, signingKey: string, created: timestamp }),
  /** POST /v1/webhooks: the webhook plus its first signing key, shown only then (reference §5.1). */
  CreatedWebhook: {
    allOf: [ref('Webhook'), object(['keys'], { keys: { type: 'array', minItems: 1, items: ref('WebhookKey') } })],
  },
}

export type ReferenceSchemaName = keyof typeof definitions

export const REFERENCE_SCHEMAS_ID = 'https://kassa.invalid/reference-api-v2'

/** One document holding every schema under `definitions`, for Ajv.addSchema. */
export const referenceSchemas = { $id: REFERENCE_SCHEMAS_ID, definitions } as const
