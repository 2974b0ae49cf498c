import type { Database, Executor } from '../db/database.js'
import type { WebhookKeysTable, WebhooksTable } from '../db/schema.js'
import { ApiError, invalidField } from '../http/errors.js'
import { pageOf, pageRequest, type ListEnvelopeOf } from '../http/pagination.js'
import type { Actor } from '../iam/actor.js'
import { recordAuditEntry } from '../iam/index.js'
import { nowIso } from '../shared/clock.js'
import type { CommandContext } from '../shared/command-context.js'
import { newId } from '../shared/ids.js'
import { requireLive } from '../shared/lookup.js'
import { deliveryRepo } from './delivery.repo.js'
import { newSigningKey } from './signature.js'
import { parseTargetUrl, RefusedTarget, resolveTarget, type TargetPolicy } from './target-policy.js'
import { toWebhook, webhookKeyRepo, webhookRepo } from './webhook.repo.js'
import {
  MAX_SIGNING_KEYS,
  type CreatedWebhook,
  type SigningKey,
  type Webhook,
  type WebhookInput,
  type WebhookListQuery,
} from './webhook.schemas.js'

export const WEBHOOKS = 'webhooks'

function newKeyRow(webhookId: string, now: string): WebhookKeysTable {
  return { id: newId(), webhook_id: webhookId, signing_key: newSigningKey(), created: now }
}

function toSigningKey(row: WebhookKeysTable): SigningKey {
  return { id: row.id, signingKey: row.signing_key, created: row.created }
}

/**
 * A filter lists each resource once: one entry decides the API version of that resource's payloads.
 * @throws ApiError invalid_request (400).
 */
function assertDistinctResources(input: WebhookInput): void {
  const seen = new Set<string>()
  input.filter.forEach((entry, index) => {
    if (seen.has(entry.resource)) throw invalidField(`filter.${index}.resource`, `lists ${entry.resource} a second time`)
    seen.add(entry.resource)
  })
}

export function createWebhookService(database: Database, policy: TargetPolicy) {
  /** @throws ApiError invalid_request (400) naming `url` when the policy refuses it. */
  async function checkedUrl(raw: string): Promise<string> {
    try {
      await resolveTarget(parseTargetUrl(raw, policy.allowLoopback), policy)
      return raw
    } catch (error) {
      if (error instanceof RefusedTarget) throw invalidField('url', error.message, 'refused_url')
      throw error
    }
  }

  async function loadRow(db: Executor, organizationId: string, id: string): Promise<WebhooksTable> {
    return requireLive(await webhookRepo.find(db, organizationId, id), 'webhook', { id })
  }

  async function load(db: Executor, organizationId: string, id: string): Promise<Webhook> {
    const row = await loadRow(db, organizationId, id)
    return toWebhook(row, await webhookKeyRepo.listOf(db, [row.id]))
  }

  /** A change of the signing keys is a change of the webhook: its entry lists the key ids before and after (never secrets). */
  async function recordSigningKeyChange(trx: Executor, ctx: CommandContext, action: string, id: string, before: WebhookKeysTable[], after: WebhookKeysTable[]): Promise<void> {
    const idsOf = (keys: WebhookKeysTable[]) => ({ signingKeyIds: keys.map((key) => key.id) })
    await recordAuditEntry(trx, ctx, { action, resourceType: WEBHOOKS, resourceId: id, before: idsOf(before), after: idsOf(after) })
  }

  /** Locks the webhook for a change of its keys (see webhookRepo.touch). @throws ApiError not_found, gone. */
  async function lockForChange(trx: Executor, organizationId: string, id: string, now: string): Promise<void> {
    await loadRow(trx, organizationId, id)
    if (!(await webhookRepo.touch(trx, id, { updated: now }))) throw new ApiError('gone', `The webhook ${id} was deleted`)
  }

  return {
    /**
     * Creates a webhook and its first signing key, returned this once.
     * @throws ApiError invalid_request (400: refused URL, a resource listed twice).
     */
    async create(ctx: CommandContext, input: WebhookInput): Promise<CreatedWebhook> {
      assertDistinctResources(input)
      const url = await checkedUrl(input.url)
      const now = nowIso()
      const row: WebhooksTable = {
        id: newId(),
        organization_id: ctx.actor.organizationId,
        name: input.name ?? null,
        url,
        filter: JSON.stringify(input.filter),
        version: 1,
        created: now,
        updated: now,
        deleted_at: null,
      }
      const key = newKeyRow(row.id, now)
      return ctx.transaction(async (trx) => {
        await webhookRepo.insert(trx, row)
        await webhookKeyRepo.insert(trx, key)
        const created = { ...toWebhook(row, []), keys: [toSigningKey(key)] }
        // The signing key's secret is redacted from the entry (audit-redaction.ts).
        await recordAuditEntry(trx, ctx, { action: 'webhooks.create', resourceType: WEBHOOKS, resourceId: row.id, after: created })
        return created
      })
    },

    /** Newest first. @throws ApiError invalid_token (400). */
    async list(actor: Actor, query: WebhookListQuery): Promise<ListEnvelopeOf<Webhook>> {
      const page = pageRequest(query, WEBHOOKS, {}, ['text'])
      const rows = await webhookRepo.list(database.db, actor.organizationId, page)
      const keys = await webhookKeyRepo.listOf(database.db, rows.slice(0, page.limit).map((row) => row.id))
      return pageOf(rows, page, (row) => [row.id], (row) => toWebhook(row, keys.filter((key) => key.webhook_id === row.id)))
    },

    /** @throws ApiError not_found (404), gone (410). */
    get(actor: Actor, id: string): Promise<Webhook> {
      return load(database.db, actor.organizationId, id)
    },

    /**
     * Replaces name, url and filter (reference: PUT is a full replacement; an omitted name is
     * removed). Pending deliveries go to the new URL.
     * @throws ApiError not_found (404), gone (410), invalid_request (400).
     */
    async replace(ctx: CommandContext, id: string, input: WebhookInput): Promise<Webhook> {
      assertDistinctResources(input)
      const url = await checkedUrl(input.url)
      return ctx.transaction(async (trx) => {
        const before = await load(trx, ctx.actor.organizationId, id)
        const changes = { name: input.name ?? null, url, filter: JSON.stringify(input.filter), updated: nowIso() }
        if (!(await webhookRepo.touch(trx, id, changes))) throw new ApiError('gone', `The webhook ${id} was deleted`)
        const after = await load(trx, ctx.actor.organizationId, id)
        await recordAuditEntry(trx, ctx, { action: 'webhooks.update', resourceType: WEBHOOKS, resourceId: id, before, after })
        return after
      })
    },

    /**
     * Deletes the webhook and its keys and cancels its pending deliveries; afterwards it answers 410.
     * @throws ApiError not_found (404), gone (410).
     */
    async remove(ctx: CommandContext, id: string): Promise<void> {
      await ctx.transaction(async (trx) => {
        const before = await load(trx, ctx.actor.organizationId, id)
        const now = nowIso()
        if (!(await webhookRepo.markDeleted(trx, id, now))) throw new ApiError('gone', `The webhook ${id} was deleted`)
        await webhookKeyRepo.removeAll(trx, id)
        await deliveryRepo.cancelPending(trx, id, now)
        await recordAuditEntry(trx, ctx, { action: 'webhooks.delete', resourceType: WEBHOOKS, resourceId: id, before })
      })
    },

    /**
     * Adds a signing key, returned this once; deliveries are signed with every key from then on.
     * @throws ApiError not_found (404), gone (410), too_many_keys (412).
     */
    async addKey(ctx: CommandContext, id: string): Promise<SigningKey> {
      return ctx.transaction(async (trx) => {
        const now = nowIso()
        await lockForChange(trx, ctx.actor.organizationId, id, now)
        const keys = await webhookKeyRepo.listOf(trx, [id])
        if (keys.length >= MAX_SIGNING_KEYS) {
          throw new ApiError('too_many_keys', `The webhook already has ${MAX_SIGNING_KEYS} signing keys; delete one before adding another`)
        }
        const key = newKeyRow(id, now)
        await webhookKeyRepo.insert(trx, key)
        await recordSigningKeyChange(trx, ctx, 'webhooks.signing_keys.create', id, keys, [...keys, key])
        return toSigningKey(key)
      })
    },

    /** @throws ApiError not_found (404: webhook or key), gone (410), key_required (412: the last key). */
    async removeKey(ctx: CommandContext, id: string, keyId: string): Promise<void> {
      await ctx.transaction(async (trx) => {
        await lockForChange(trx, ctx.actor.organizationId, id, nowIso())
        const keys = await webhookKeyRepo.listOf(trx, [id])
        if (!keys.some((key) => key.id === keyId)) throw new ApiError('not_found', `No signing key ${keyId} on webhook ${id}`)
        if (keys.length === 1) throw new ApiError('key_required', 'This is the webhook’s only signing key; add another before deleting it')
        await webhookKeyRepo.remove(trx, id, keyId)
        await recordSigningKeyChange(trx, ctx, 'webhooks.signing_keys.delete', id, keys, keys.filter((key) => key.id !== keyId))
      })
    },
  }
}

export type WebhookService = ReturnType<typeof createWebhookService>
