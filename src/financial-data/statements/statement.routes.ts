import type { Readable } from 'node:stream'
import type { FastifyRequest, FastifySchemaCompiler } from 'fastify'
import type { ApiApp } from '../../http/api-app.js'
import { commandContext } from '../../http/command-context.js'
import { ApiError } from '../../http/errors.js'
import { errorResponses } from '../../http/route-schemas.js'
import { drainedWhenRefused } from '../../http/xml-upload.js'
import type { ImportGate } from './import-gate.js'
import { StatementFile } from './statement-file.js'
import { MAX_STATEMENT_ENTRIES, STATEMENT_BODY_LIMIT } from './statement.limits.js'
import { createStatementService } from './statement.service.js'
import { StatementBody, StatementImport } from './statement.schemas.js'

const tags = ['Statements']

const XML_TYPES = ['application/xml', 'text/xml']

/**
 * The body is read and checked by the content-type parser, as a stream (statement-file.ts); the body
 * schema documents the XML on the wire. What is left to validate of it is that there was one. Other
 * parts (the query) are validated by the app's compiler, as on every route.
 */
function statementFileValidator(app: ApiApp): FastifySchemaCompiler<unknown> {
  // Set by registerValidation before any route is added.
  const compile = app.validatorCompiler!
  const file: ReturnType<FastifySchemaCompiler<unknown>> = (body) =>
    body instanceof StatementFile ? { value: body } : { error: new ApiError('invalid_request', 'Send the statement file as the body, as application/xml or text/xml') }
  return (route) => (route.httpPart === 'body' ? file : compile(route))
}

/** `gate`: the process's one import at a time, shared with the bank files' upload (app.ts). */
export function statementRoutes(app: ApiApp, gate: ImportGate): void {
  const service = createStatementService(app.database)

  // A scope of its own: XML bodies are accepted here and nowhere else (every other route stays JSON-only).
  void app.register(async (scope: ApiApp) => {
    scope.removeAllContentTypeParsers()
    // No parseAs: the parser gets the body as a stream and reads it without ever holding it whole.
    scope.addContentTypeParser(XML_TYPES, async (request: FastifyRequest, payload: Readable) => {
      const length = request.headers['content-length']
      return service.read(request.actor!.organizationId, drainedWhenRefused(payload, STATEMENT_BODY_LIMIT), length === undefined ? {} : { declaredLength: Number(length) })
    })
    scope.addContentTypeParser('*', (request, _payload, done) => {
      const type = request.headers['content-type']
      const given = type === undefined ? 'no Content-Type was given' : `not ${type}`
      done(new ApiError('unsupported_media_type', `Send the statement file as application/xml or text/xml; ${given}`), undefined)
    })

    scope.post(
      '/financial-data/v2/statements',
      {
        config: { permission: 'statements:create' },
        onRequest: gate.admit,
        validatorCompiler: statementFileValidator(scope),
        schema: {
          tags,
          summary: 'Import a bank statement (ISO 20022 camt.053; also camt.052 and camt.054)',
          description:
            `Send the XML file as the body (Content-Type application/xml or text/xml, up to ${STATEMENT_BODY_LIMIT / 1024 / 1024} MiB and ${MAX_STATEMENT_ENTRIES.toLocaleString('en-US')} entries; a larger file is a 413 — split it). Each statement is matched to an own account by the number it names — its IBAN, or the other account number of Acct/Id/Othr/Id — against the identifiers of every type the accounts were registered with (spaces, dots, hyphens and case ignored); its booked entries (Sts BOOK) become transactions and its balances are recorded (OPBD → BOOKED/OPEN, CLBD and PRCD → BOOKED/CLOSE, CLAV → AVAILABLE/CLOSE, ITBD → BOOKED/INTERIM). Dates are the bank's local dates: a time zone (2017-04-01+02:00) does not shift them. A booked entry without a booking date is booked on its value date, else on the statement's date, and its transaction's dateSource says so. Importing the same statement again creates nothing new. The file is checked for its meaning — amounts, currencies, dates, sums — not for its elements' order. A file with invalid entries, a statement whose opening balance plus booked entries is not its closing balance, an unknown account or a currency mismatch is rejected as a whole with a 400 whose details name each problem's place (e.g. Stmt[1].Ntry[3].Amt) and line, the entries' faults before the account's; so is XML with a DOCTYPE. What was booked but deserves a look is listed in warnings: dates taken for missing booking dates, and a statement that books transactions dated before the account's earliest one or before the period of a statement imported earlier. One file is imported at a time: meanwhile another upload is answered 503 with Retry-After.`,
          consumes: XML_TYPES,
          body: StatementBody,
          response: { 201: StatementImport, ...errorResponses(400, 403, 413, 415, 422, 425) },
        },
      },
      async (request, reply) => {
        const result = await gate.holding(request, () => service.import(commandContext(request, reply, 201), request.body))
        return reply.code(201).send(result)
      },
    )
  })
}
