export { connectionRoutes } from './connection.routes.js'
export { Connection } from './connection.schemas.js'
export { lockFilesConnection } from './connection.service.js'
export { openSandboxConnection } from './sandbox-connection.js'
