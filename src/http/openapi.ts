import swagger from '@fastify/swagger'
import type { FastifyInstance } from 'fastify'
import { ErrorEnvelope } from './errors.js'

/** The OpenAPI 3.1 document is generated from the same TypeBox schemas that validate requests. */
export async function registerOpenApi(app: FastifyInstance, version: string): Promise<void> {
  app.addSchema(ErrorEnvelope)
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Kassa API',
        version,
        description:
          'Self-hosted financial data and payments API. Every API request authenticates with HTTP Basic ' +
          '(ACCESS_KEY:SECRET), every response carries a request-id header, and every error has the ErrorEnvelope shape.',
      },
      components: { securitySchemes: { basicAuth: { type: 'http', scheme: 'basic' } } },
      security: [{ basicAuth: [] }],
    },
    refResolver: {
      buildLocalReference: (json, _baseUri, _fragment, index) => String(json.$id ?? `def-${index}`),
    },
  })
}
