export { inboundFileRoutes } from './inbound-file.routes.js'
export { readInboxes, type InboxGate } from './inbox-reader.js'
