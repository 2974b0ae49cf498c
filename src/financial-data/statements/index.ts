export { statementRoutes } from './statement.routes.js'
export { createStatementService } from './statement.service.js'
export { parseCamt, type CamtMessage } from './camt-parser.js'
export { StatementImport } from './statement.schemas.js'
