export { inboundFileRoutes } from './inbound-file.routes.js'
export { readInboxes } from './inbox-reader.js'
