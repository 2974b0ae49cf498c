import type { Readable } from 'node:stream'
import type { FastifyRequest } from 'fastify'
import { Type } from 'typebox'
import type { ImportGate } from '../../financial-data/index.js'
import type { ApiApp } from '../../http/api-app.js'
import { commandContext } from '../../http/command-context.js'
import { ApiError } from '../../http/errors.js'
import { errorResponses } from '../../http/route-schemas.js'
import { drainedWhenRefused } from '../../http/xml-upload.js'
import { ResourceId } from '../../shared/common.schemas.js'
import { InboundFileBody, InboundFileResult } from './inbound-file.schemas.js'
import { createInboundFileService } from './inbound-file.service.js'
import { INBOUND_FILE_LIMIT, PAIN002_VERSIONS } from './pain002.model.js'

const tags = ['Connections']
const XML_TYPES = ['application/xml', 'text/xml']
const MIB = 1024 * 1024

function tooLarge(what: string): ApiError {
  return new ApiError('payload_too_large', `The bank's file is too large: ${what}. Kassa reads files of up to ${INBOUND_FILE_LIMIT / MIB} MiB here`)
}

/**
 * The file, read as the statements' upload reads its body (xml-upload.ts): refused unread when its Content-Length
 * is past INBOUND_FILE_LIMIT, else gathered chunk by chunk and refused as soon as it passes the limit. It is kept
 * whole, under the import gate: its bytes are its identity (sha256) and are stored with its result (bank_files).
 */
async function readFile(request: FastifyRequest, payload: Readable): Promise<string> {
  const declared = request.headers['content-length']
  if (declared !== undefined && Number(declared) > INBOUND_FILE_LIMIT) throw tooLarge(`its Content-Length is ${(Number(declared) / MIB).toFixed(1)} MiB`)
  const chunks: Buffer[] = []
  let received = 0
  for await (const chunk of drainedWhenRefused(payload, INBOUND_FILE_LIMIT)) {
    received += chunk.length
    if (received > INBOUND_FILE_LIMIT) throw tooLarge(`it is larger than ${INBOUND_FILE_LIMIT / MIB} MiB`)
    chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength))
  }
  return Buffer.concat(chunks).toString('utf8')
}

/** `gate`: the process's one import at a time, shared with statement uploads (app.ts): a camt file books as a statement does. */
export function inboundFileRoutes(app: ApiApp, gate: ImportGate): void {
  const service = createInboundFileService(app.database)

  // A scope of its own: XML bodies are accepted here and on statements only (every other route stays JSON-only).
  void app.register(async (scope: ApiApp) => {
    scope.removeAllContentTypeParsers()
    scope.addContentTypeParser(XML_TYPES, readFile)
    scope.addContentTypeParser('*', (request, _payload, done) => {
      const type = request.headers['content-type']
      const given = type === undefined ? 'no Content-Type was given' : `not ${type}`
      done(new ApiError('unsupported_media_type', `Send the bank's file as application/xml or text/xml; ${given}`), undefined)
    })

    scope.post(
      '/connectivity/v2/connections/:id/files',
      {
        config: { permission: 'connections:update' },
        onRequest: gate.admit,
        schema: {
          tags,
          summary: 'Receive a file from the bank (pain.002 status report, camt.054/053/052)',
          description:
            `Send the file as the body (Content-Type application/xml or text/xml, up to ${INBOUND_FILE_LIMIT / 1024 / 1024} MiB). Read: ${PAIN002_VERSIONS.join(', ')}; ` +
            'camt.054, camt.053 and camt.052 (.001.02 to .001.08). ' +
            'A pain.002 names the file it answers by OrgnlMsgId; each payment of that file takes the status of its transaction (TxSts), ' +
            'else of its payment information (PmtInfSts), else of the group (GrpSts): a rejected group or payment information rejects ' +
            'every payment in it, PART points to the lower levels. ACCP, ACSP, ACWC → ACCEPTED; ACSC → EXECUTED; PDNG → PENDING_AT_BANK; ' +
            'RJCT → FAILED with the reason code (StsRsnInf/Rsn/Cd, NARR with its AddtlInf) on the payment and its event. A status that would ' +
            'move a payment backwards is ignored and listed; ids the original file does not carry are listed under unknown. ' +
            'A camt books its entries on the connection’s accounts as an imported statement does (entries the account has are not booked ' +
            'again), and reconciles each booking to the payments sent on the connection: by EndToEndId, or a batch booking by the PmtInfId ' +
            'of its payment information (its amount must be their sum); an entry with return information (RtrInf) returns its payment ' +
            '(RETURNED with the reason). What matches nothing stays NOT_RECONCILED and is listed under bookings. ' +
            'Idempotent by content: the same file again on the connection changes nothing and answers 200 with the first result. ' +
            'One file (or statement) is imported at a time: meanwhile another upload is answered 503 with Retry-After.',
          consumes: XML_TYPES,
          params: Type.Object({ id: ResourceId }),
          body: InboundFileBody,
          response: { 200: InboundFileResult, 201: InboundFileResult, ...errorResponses(400, 403, 404, 409, 413, 415, 422, 425) },
        },
      },
      async (request, reply) => {
        const received = await gate.holding(request, () => service.receive(commandContext(request, reply, 201), request.params.id, request.body))
        return reply.code(received.created ? 201 : 200).send(received.result)
      },
    )
  })
}
