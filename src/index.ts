/** The package's public surface for embedding Kassa or testing against it. */
export { buildApp, type AppOptions } from './http/app.js'
export { loadConfig, type Config } from './config/config.js'
export { openDatabase, type Database } from './db/database.js'
export { createSandboxOrganization } from './organizations/organization.service.js'
export { verifyWebhookSignature, type VerifyWebhookSignatureInput } from './webhooks/index.js'
