export { statementRoutes } from './statement.routes.js'
export { createStatementService } from './statement.service.js'
export { StatementImport } from './statement.schemas.js'
export { MAX_PLAN_BYTES, MAX_STATEMENT_ENTRIES, MAX_XML_TOKEN_CHARS, STATEMENT_BODY_LIMIT, STATEMENT_MEMORY_BUDGET } from './statement.limits.js'
