/** `@kassa/client`: the typed client for the Kassa API. */
export { TOKEN_PATH, type BearerToken } from './authentication.js'
export { createKassaClient, type KassaClient, type KassaClientOptions, type Succeeded } from './client.js'
export { KassaApiError, type ErrorDetail } from './errors.js'
export { paginate, type ListItem, type ListParams, type ListPath } from './pagination.js'
export { patchResource, type JsonPatch, type PatchPath, type PatchResourceOptions } from './patch.js'
export { DEFAULT_RETRY, type Fetch, type RetryOptions } from './retry.js'
export { verifyWebhookSignature, type VerifyWebhookSignatureInput } from './webhook-signature.js'
export type { components, operations, paths } from './generated/openapi.js'
