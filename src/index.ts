/** The package's public surface for embedding Kassa or testing against it. */
export { buildApp, type AppOptions } from './app.js'
export { loadConfig, type Config } from './config/config.js'
export { openDatabase, type Database } from './db/database.js'
export { createSandboxOrganization } from './organizations/organization.service.js'
// Verifying webhooks is the receiver's side: the client package's verifier (Web Crypto, so asynchronous).
export { verifyWebhookSignature, type VerifyWebhookSignatureInput } from '@kassa/client'
