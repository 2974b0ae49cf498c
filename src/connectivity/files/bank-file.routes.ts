import { Type } from 'typebox'
import type { ApiApp } from '../../http/api-app.js'
import { ListEnvelope } from '../../http/pagination.js'
import { errorResponses } from '../../http/route-schemas.js'
import { ResourceId } from '../../shared/common.schemas.js'
import { createBankFileService } from './bank-file.service.js'
import { BankFile, BankFileListQuery } from './bank-file.schemas.js'

const tags = ['Connections']
const BASE = '/connectivity/v2/files'
const FileParams = Type.Object({ id: ResourceId })

export function bankFileRoutes(app: ApiApp): void {
  const service = createBankFileService(app.database)

  app.get(
    BASE,
    {
      config: { permission: 'connections:read' },
      schema: {
        tags,
        summary: 'List bank files, oldest first',
        description:
          'The ISO 20022 files made for banks (OUTBOUND: pain.001, pain.008) and received from them (INBOUND), without their ' +
          'content. Filters: connectionId, direction, messageType (e.g. pain.001.001.09), created[gte] and created[lte] (days, UTC).',
        querystring: BankFileListQuery,
        response: { 200: ListEnvelope(BankFile), ...errorResponses(400, 403) },
      },
    },
    async (request) => service.list(request.actor!, request.query),
  )

  app.get(
    `${BASE}/:id`,
    {
      config: { permission: 'connections:read' },
      schema: {
        tags,
        summary: 'Get a bank file',
        description: 'Its message type and id, status, size and SHA-256 of the content, and the payments it carries.',
        params: FileParams,
        response: { 200: BankFile, ...errorResponses(400, 403, 404) },
      },
    },
    async (request) => service.get(request.actor!, request.params.id),
  )

  app.get(
    `${BASE}/:id/content`,
    {
      config: { permission: 'connections:read' },
      schema: {
        tags,
        summary: "Get a bank file's content",
        description: 'The XML exactly as written (and, with an outboxDir, as the bank receives it): its SHA-256 is the sha256 of the file.',
        params: FileParams,
        response: {
          200: { description: 'The XML document', content: { 'application/xml': { schema: Type.String() } } },
          ...errorResponses(400, 403, 404),
        },
      },
    },
    async (request, reply) => reply.type('application/xml; charset=utf-8').send(await service.content(request.actor!, request.params.id)),
  )
}
