/**
 * Every operation of the OpenAPI document gets an operationId, camelCase verb + resource, derived from its
 * method and path by one rule, so that the ids are consistent and a new route gets one without anyone
 * choosing it:
 *
 *   GET    /payments/v2/credit-transfers                 listCreditTransfers
 *   POST   /payments/v2/credit-transfers                 createCreditTransfer
 *   GET    /payments/v2/credit-transfers/{id}            getCreditTransfer   (PATCH update…, PUT replace…, DELETE delete…)
 *   POST   /payments/v2/credit-transfers/{id}:approve    approveCreditTransfer  (a custom method's name is the verb)
 *   GET    /payments/v2/credit-transfers/{id}/events     listCreditTransferEvents  (parent resources in the singular)
 *   GET    /v1/sandbox/clock                             getSandboxClock  (a singular name is a singleton: no list)
 *
 * The resource is every path segment after the version (spec: Versioning 1; `v2beta` is one), parameters left out. Generated
 * clients key their operations by these ids (openapi-typescript's `operations`), so an id is as stable as
 * its path, which the API never changes within a version (spec: Versioning 2).
 */

/** The few operations whose derived id would read wrong, by `METHOD /openapi/{path}`. */
export const OPERATION_ID_OVERRIDES: Readonly<Record<string, string>> = {
  // Outside the versioned namespaces: there is no resource to derive from.
  'GET /healthz': 'getHealth',
  'GET /readyz': 'getReadiness',
  // Creates nothing: it echoes, so that clients can test their retries.
  'POST /v1/idempotency-test': 'testIdempotency',
  // A statement file is imported: its entries become transactions; no statement resource is created.
  'POST /financial-data/v2/statements': 'importStatement',
  // The OAuth2 token endpoint (reference §10): a beta version, which no rule reads, and its current name.
  'POST /iam/v2beta/oauth2/token': 'createOAuth2Token',
  'POST /iam/v2/oauth2/token': 'createOAuth2TokenV2',
}

/** camelCase: a lower-case verb, then capitalized words. */
export const OPERATION_ID_PATTERN = /^[a-z]+(?:[A-Z][a-z0-9]*)+$/

type Verbs = Readonly<Record<string, string>>
const COLLECTION_VERBS: Verbs = { GET: 'list', POST: 'create' }
const ITEM_VERBS: Verbs = { GET: 'get', PUT: 'replace', PATCH: 'update', DELETE: 'delete' }
/** A singleton (`/v1/sandbox/clock`) is read and changed as an item is, and made by POST. */
const SINGLETON_VERBS: Verbs = { ...ITEM_VERBS, POST: 'create' }

/** Fastify's route URL in OpenAPI's form: `/a/:id(^.+)::approve` → `/a/{id}:approve` (`::` is an escaped colon). */
export function openApiPath(url: string): string {
  return url
    .replace(/::/g, '\u0000')
    .replace(/:([A-Za-z0-9_]+)(?:\((?:[^()]|\([^()]*\))*\))?/g, '{$1}')
    .replace(/\u0000/g, ':')
}

function singular(word: string): string {
  if (word.endsWith('ies')) return `${word.slice(0, -3)}y`
  // English adds -es after a sibilant: batches → batch (not batche), boxes → box.
  if (/(?:ch|sh|ss|x|z)es$/.test(word)) return word.slice(0, -2)
  return word.endsWith('s') ? word.slice(0, -1) : word
}

/** `credit-transfers` → `CreditTransfers`. */
function pascal(segment: string): string {
  return segment
    .split('-')
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
    .join('')
}

/**
 * The operationId of `method path` (path in OpenAPI's form).
 * @throws Error when the path has no version segment or the method fits no rule: name it in OPERATION_ID_OVERRIDES.
 */
export function operationIdOf(method: string, path: string): string {
  const override = OPERATION_ID_OVERRIDES[`${method} ${path}`]
  if (override !== undefined) return override
  const segments = path.split('/').filter(Boolean)
  // A beta version (`/iam/v2beta/…`, reference §10) is a version like any other.
  const version = segments.findIndex((segment) => /^v\d+(?:beta\d*)?$/.test(segment))
  const [last = '', action] = (segments.at(-1) ?? '').split(':')
  const resource = [...segments.slice(version + 1, -1), last]
  const names = resource.filter((segment) => !segment.startsWith('{'))
  const onItem = last.startsWith('{')
  // Collections have plural names (spec: General conventions): a singular last name is a singleton.
  const verbs = onItem ? ITEM_VERBS : last.endsWith('s') ? COLLECTION_VERBS : SINGLETON_VERBS
  const verb = action ?? verbs[method]
  if (version === -1 || names.length === 0 || verb === undefined) {
    throw new Error(`No operationId can be derived for ${method} ${path}: name it in OPERATION_ID_OVERRIDES (src/http/operation-ids.ts)`)
  }
  // Only a list keeps its last noun plural: listCreditTransfers, but getCreditTransfer and listCreditTransferEvents.
  const listed = verb === 'list'
  return verb + names.map((name, index) => pascal(listed && index === names.length - 1 ? name : singular(name))).join('')
}
