/** The connectivity domain (issue 12: real bank rails): what other domains and the composition root may import. */
export { connectionRoutes, lockFilesConnection, openSandboxConnection } from './connections/index.js'
export { bankConnectorFor, bankTodayReads, type BankTodayReads } from './bank-connectors.js'
export { bankFileRoutes } from './files/index.js'
export { inboundFileRoutes, readInboxes, type InboxGate } from './files-in/index.js'
export { gatherDueFiles } from './files-out/file-gathering.js'
export { withdrawQueuedPayment } from './files-out/files-connector.js'
export { writePendingFiles } from './files-out/outbox-writer.js'
export { deliverAnswers, takeFiles } from './simulated-bank/index.js'
