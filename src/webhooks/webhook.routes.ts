import type { ApiApp } from '../http/api-app.js'
import { commandContext } from '../http/command-context.js'
import { ListEnvelope } from '../http/pagination.js'
import { NoContent, errorResponses } from '../http/route-schemas.js'
import { createDeliveryService } from './delivery.service.js'
import { WebhookDelivery } from './delivery.schemas.js'
import { createWebhookService } from './webhook.service.js'
import type { TargetPolicy } from './target-policy.js'
import {
  CreatedWebhook,
  SigningKey,
  TestEventBody,
  Webhook,
  WebhookInput,
  WebhookKeyParams,
  WebhookListQuery,
  WebhookParams,
} from './webhook.schemas.js'

const tags = ['Webhooks']
const BASE = '/v1/webhooks'

/** reference §5.1: subscriptions and their signing keys, plus the sandbox test event. */
export function webhookRoutes(app: ApiApp, policy: TargetPolicy): void {
  const service = createWebhookService(app.database, policy)
  const deliveries = createDeliveryService(app.database)

  app.post(
    BASE,
    {
      config: { permission: 'webhooks:create' },
      schema: {
        tags,
        summary: 'Create a webhook',
        description:
          'url must be https to a host whose every address is public (http and loopback only on a server started with ' +
          'KASSA_WEBHOOK_ALLOW_LOOPBACK=true; private and link-local ranges never): 400 otherwise. It is checked again ' +
          'before every delivery. filter names each resource once, optionally with the events wanted. The answer holds ' +
          'the first signing key; it is shown this once.',
        body: WebhookInput,
        response: { 201: CreatedWebhook, ...errorResponses(400, 403, 413, 415, 422, 425) },
      },
    },
    async (request, reply) => reply.code(201).send(await service.create(commandContext(request, reply, 201), request.body)),
  )

  app.get(
    BASE,
    {
      config: { permission: 'webhooks:read' },
      schema: {
        tags,
        summary: 'List webhooks, newest first',
        description: "Live webhooks, each with the ids of its signing keys (a key's secret is shown only when it is made).",
        querystring: WebhookListQuery,
        response: { 200: ListEnvelope(Webhook), ...errorResponses(400, 403) },
      },
    },
    async (request) => service.list(request.actor!, request.query),
  )

  app.get(
    `${BASE}/:id`,
    {
      config: { permission: 'webhooks:read' },
      schema: {
        tags,
        summary: 'Get a webhook',
        description: 'With its filter and the ids of its signing keys. 410 Gone once the webhook was deleted.',
        params: WebhookParams,
        response: { 200: Webhook, ...errorResponses(400, 403, 404, 410) },
      },
    },
    async (request) => service.get(request.actor!, request.params.id),
  )

  app.put(
    `${BASE}/:id`,
    {
      config: { permission: 'webhooks:update' },
      schema: {
        tags,
        summary: 'Replace a webhook’s name, URL and filter',
        description:
          'A full replacement: an omitted name is removed. The url is checked as at creation; pending deliveries go to ' +
          'the new one.',
        params: WebhookParams,
        body: WebhookInput,
        response: { 200: Webhook, ...errorResponses(400, 403, 404, 410, 413, 415, 422, 425) },
      },
    },
    async (request, reply) => service.replace(commandContext(request, reply, 200), request.params.id, request.body),
  )

  app.delete(
    `${BASE}/:id`,
    {
      config: { permission: 'webhooks:delete' },
      schema: {
        tags,
        summary: 'Delete a webhook',
        description: 'Its pending deliveries are cancelled, and it answers 410 Gone afterwards.',
        params: WebhookParams,
        response: { 204: NoContent, ...errorResponses(400, 403, 404, 410) },
      },
    },
    async (request, reply) => {
      await service.remove(commandContext(request, reply, 204), request.params.id)
      return reply.code(204).send(null)
    },
  )

  app.post(
    `${BASE}/:id/keys`,
    {
      config: { permission: 'webhooks:update' },
      schema: {
        tags,
        summary: 'Add a signing key (rotation)',
        description: 'At most two keys at once (412 too_many_keys). The new key is shown this once; deliveries carry one signature per key.',
        params: WebhookParams,
        response: { 201: SigningKey, ...errorResponses(400, 403, 404, 410, 412, 422, 425) },
      },
    },
    async (request, reply) => reply.code(201).send(await service.addKey(commandContext(request, reply, 201), request.params.id)),
  )

  app.delete(
    `${BASE}/:id/keys/:keyId`,
    {
      config: { permission: 'webhooks:update' },
      schema: {
        tags,
        summary: 'Delete a signing key',
        description: 'The last key cannot be deleted (412 key_required).',
        params: WebhookKeyParams,
        response: { 204: NoContent, ...errorResponses(400, 403, 404, 410, 412) },
      },
    },
    async (request, reply) => {
      await service.removeKey(commandContext(request, reply, 204), request.params.id, request.params.keyId)
      return reply.code(204).send(null)
    },
  )

  app.post(
    `${BASE}/:id(^.+)::test`,
    {
      config: { permission: 'webhooks:update' },
      schema: {
        tags,
        summary: 'Send a test event to the webhook',
        description:
          'Enqueues an event named TEST about a made-up entity of resource (by default the first resource of the ' +
          "webhook's filter), whatever the filter says, signed and retried like any delivery; follow it in the " +
          'delivery log.',
        params: WebhookParams,
        body: TestEventBody,
        response: { 202: WebhookDelivery, ...errorResponses(400, 403, 404, 410, 422, 425) },
      },
    },
    async (request, reply) =>
      reply.code(202).send(await deliveries.sendTestEvent(commandContext(request, reply, 202), request.params.id, request.body)),
  )
}
