import type { ApiApp } from '../../http/api-app.js'
import { commandContext } from '../../http/command-context.js'
import { ApiError } from '../../http/errors.js'
import { errorResponses } from '../../http/route-schemas.js'
import { createStatementService } from './statement.service.js'
import { StatementBody, StatementImport } from './statement.schemas.js'

const tags = ['Statements']

/** Statement files are large: a year of a busy account's camt.053 runs to hundreds of megabytes. */
export const STATEMENT_BODY_LIMIT = 200 * 1024 * 1024

const XML_TYPES = ['application/xml', 'text/xml']

export function statementRoutes(app: ApiApp): void {
  const service = createStatementService(app.database)

  // A scope of its own: XML bodies are accepted here and nowhere else (every other route stays JSON-only).
  void app.register(async (scope: ApiApp) => {
    scope.removeAllContentTypeParsers()
    scope.addContentTypeParser(XML_TYPES, { parseAs: 'string', bodyLimit: STATEMENT_BODY_LIMIT }, (_request, body, done) => {
      done(null, body)
    })
    scope.addContentTypeParser('*', (request, _payload, done) => {
      const type = request.headers['content-type']
      const given = type === undefined ? 'no Content-Type was given' : `not ${type}`
      done(new ApiError('unsupported_media_type', `Send the statement file as application/xml or text/xml; ${given}`), undefined)
    })

    scope.post(
      '/financial-data/v2/statements',
      {
        bodyLimit: STATEMENT_BODY_LIMIT,
        config: { permission: 'statements:create' },
        schema: {
          tags,
          summary: 'Import a bank statement (ISO 20022 camt.053; also camt.052 and camt.054)',
          description:
            "Send the XML file as the body (Content-Type application/xml or text/xml, up to 200 MiB). Each statement is matched to an own account by its IBAN; its booked entries (Sts BOOK) become transactions and its balances are recorded (OPBD → BOOKED/OPEN, CLBD and PRCD → BOOKED/CLOSE, CLAV → AVAILABLE/CLOSE, ITBD → BOOKED/INTERIM). Importing the same statement again creates nothing new. A file with an unknown account, a currency mismatch, invalid entries or a statement whose opening balance plus booked entries is not its closing balance is rejected as a whole with a 400 whose details name each problem's place (e.g. Stmt[1].Ntry[3].Amt) and line.",
          consumes: XML_TYPES,
          body: StatementBody,
          response: { 201: StatementImport, ...errorResponses(400, 403, 413, 415, 422, 425) },
        },
      },
      async (request, reply) => {
        const result = await service.import(commandContext(request, reply, 201), request.body)
        return reply.code(201).send(result)
      },
    )
  })
}
