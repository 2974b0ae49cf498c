import { Type } from 'typebox'
import type { ApiApp } from '../../http/api-app.js'
import { commandContext } from '../../http/command-context.js'
import { ApiError } from '../../http/errors.js'
import { errorResponses } from '../../http/route-schemas.js'
import { ResourceId } from '../../shared/common.schemas.js'
import { InboundFileBody, InboundFileResult } from './inbound-file.schemas.js'
import { createInboundFileService } from './inbound-file.service.js'
import { INBOUND_FILE_LIMIT, PAIN002_VERSIONS } from './pain002.model.js'

const tags = ['Connections']
const XML_TYPES = ['application/xml', 'text/xml']

export function inboundFileRoutes(app: ApiApp): void {
  const service = createInboundFileService(app.database)

  // A scope of its own: XML bodies are accepted here and on statements only (every other route stays JSON-only).
  void app.register(async (scope: ApiApp) => {
    scope.removeAllContentTypeParsers()
    scope.addContentTypeParser(XML_TYPES, { parseAs: 'string', bodyLimit: INBOUND_FILE_LIMIT }, (_request, body, done) => done(null, body))
    scope.addContentTypeParser('*', (request, _payload, done) => {
      const type = request.headers['content-type']
      const given = type === undefined ? 'no Content-Type was given' : `not ${type}`
      done(new ApiError('unsupported_media_type', `Send the bank's file as application/xml or text/xml; ${given}`), undefined)
    })

    scope.post(
      '/connectivity/v2/connections/:id/files',
      {
        config: { permission: 'connections:update' },
        bodyLimit: INBOUND_FILE_LIMIT,
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
            'Idempotent by content: the same file again on the connection changes nothing and answers 200 with the first result.',
          consumes: XML_TYPES,
          params: Type.Object({ id: ResourceId }),
          body: InboundFileBody,
          response: { 200: InboundFileResult, 201: InboundFileResult, ...errorResponses(400, 403, 404, 409, 413, 415, 422, 425) },
        },
      },
      async (request, reply) => {
        const received = await service.receive(commandContext(request, reply, 201), request.params.id, request.body)
        return reply.code(received.created ? 201 : 200).send(received.result)
      },
    )
  })
}
