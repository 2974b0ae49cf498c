import type { CompiledQuery } from 'kysely'
import type { Executor } from '../../db/database.js'
import { preparedQuery } from '../../db/prepared-query.js'
import type { ApprovalChainsTable } from '../../db/schema.js'
import { keysetAfter, type PageRequest } from '../../http/pagination.js'
import { etagOf } from '../../http/preconditions.js'
import { toAmount } from '../../shared/money.js'
import type { ApprovalChain as ApprovalChainResource, ApprovalChainEditable } from './approval-chain.schemas.js'
import type { ChainDefinition } from './approval-chain.validation.js'
import type { ApprovalChain, ChainStep, ChainTrigger } from './approval-rules.js'

function definitionOf(row: ApprovalChainsTable): ChainDefinition {
  return {
    trigger: JSON.parse(row.trigger) as ChainTrigger,
    steps: JSON.parse(row.steps) as ChainStep[],
    autoApprove: row.auto_approve === 1,
    ...(row.auto_approve_below !== null ? { autoApproveBelow: Number(row.auto_approve_below) } : {}),
  }
}

export function toApprovalChain(row: ApprovalChainsTable): ApprovalChainResource {
  const { trigger, steps, autoApprove, autoApproveBelow } = definitionOf(row)
  const { amountAtLeast, amountBelow, ...conditions } = trigger
  // Amounts exist only with a currency: validation sets trigger.currency from the first amount.
  const currency = trigger.currency ?? ''
  return {
    id: row.id,
    organizationId: row.organization_id,
    name: row.name,
    trigger: {
      ...conditions,
      ...(amountAtLeast !== undefined ? { amountAtLeast: toAmount(amountAtLeast, currency) } : {}),
      ...(amountBelow !== undefined ? { amountBelow: toAmount(amountBelow, currency) } : {}),
    },
    steps,
    autoApprove,
    ...(autoApproveBelow !== undefined ? { autoApproveBelow: toAmount(autoApproveBelow, currency) } : {}),
    version: row.version,
    etag: etagOf(row.version),
    created: row.created,
    updated: row.updated,
  }
}

/** The chain as a PATCH sees it: the create request that would make it. */
export function editableOf(row: ApprovalChainsTable): ApprovalChainEditable {
  const { trigger, steps, autoApprove, autoApproveBelow } = definitionOf(row)
  const { amountAtLeast, amountBelow, ...conditions } = trigger
  const currency = trigger.currency ?? ''
  return {
    name: row.name,
    trigger: {
      ...conditions,
      ...(amountAtLeast !== undefined ? { amountAtLeast: { currency, value: amountAtLeast } } : {}),
      ...(amountBelow !== undefined ? { amountBelow: { currency, value: amountBelow } } : {}),
    },
    steps: steps.map((step) => ({ ...step })),
    autoApprove,
    ...(autoApproveBelow !== undefined ? { autoApproveBelow: { currency, value: autoApproveBelow } } : {}),
  }
}

/** The stored columns of a chain's definition. */
export function definitionColumns(definition: ChainDefinition): Pick<ApprovalChainsTable, 'trigger' | 'steps' | 'auto_approve' | 'auto_approve_below'> {
  return {
    trigger: JSON.stringify(definition.trigger),
    steps: JSON.stringify(definition.steps),
    auto_approve: definition.autoApprove ? 1 : 0,
    auto_approve_below: definition.autoApproveBelow ?? null,
  }
}

export type ApprovalChainChanges = Pick<ApprovalChainsTable, 'name' | 'trigger' | 'steps' | 'auto_approve' | 'auto_approve_below' | 'version' | 'updated'>

function liveChains(db: Executor, organizationId: string) {
  return db.selectFrom('approval_chains').selectAll().where('organization_id', '=', organizationId).where('deleted_at', 'is', null)
}

const liveChainsOldestFirst = preparedQuery((db, parameter: (name: 'organizationId') => string) =>
  liveChains(db, parameter('organizationId')).orderBy('id'),
)

/** A chain as payments are matched against it (approval-rules.ts). */
export function approvalChainOf(row: ApprovalChainsTable): ApprovalChain {
  return { id: row.id, ...definitionOf(row) }
}

export const approvalChainRepo = {
  /** The organization's live chains, oldest first: the order their steps are added to a payment. */
  async listLive(db: Executor, organizationId: string): Promise<ApprovalChain[]> {
    return (await liveChainsOldestFirst(db, { organizationId })).map(approvalChainOf)
  },

  /** listLive as a statement to run with others (runTogether); approvalChainOf reads its rows. */
  listLiveStatement(db: Executor, organizationId: string): CompiledQuery<ApprovalChainsTable> {
    return liveChainsOldestFirst.bind(db, { organizationId })
  },

  /** Names of the live chains that name a role or user (in a step, or as a creator role condition). */
  async namesReferencing(db: Executor, organizationId: string, id: string): Promise<string[]> {
    const rows = await liveChains(db, organizationId).orderBy('id').execute()
    return rows
      .filter((row) => {
        const { trigger, steps } = definitionOf(row)
        const roles = [...(trigger.creatorRoleIds?.in ?? []), ...(trigger.creatorRoleIds?.notIn ?? [])]
        return roles.includes(id) || steps.some((step) => step.requiredRoleIds.includes(id) || step.requiredUserIds.includes(id))
      })
      .map((row) => row.name)
  },

  async insert(trx: Executor, row: ApprovalChainsTable): Promise<void> {
    await trx.insertInto('approval_chains').values(row).execute()
  },

  /** Including deleted rows, so a deleted chain answers 410 rather than 404. */
  async find(db: Executor, organizationId: string, id: string): Promise<ApprovalChainsTable | undefined> {
    return db.selectFrom('approval_chains').selectAll().where('organization_id', '=', organizationId).where('id', '=', id).executeTakeFirst()
  },

  /** Live chains, oldest first (their evaluation order); fetches `limit + 1` rows for the pager. */
  async list(db: Executor, organizationId: string, page: PageRequest): Promise<ApprovalChainsTable[]> {
    let query = liveChains(db, organizationId)
    if (page.after) query = query.where(keysetAfter(['id'], 'asc', page.after))
    return query.orderBy('id', 'asc').limit(page.limit + 1).execute()
  },

  /** Writes the new state if the row is still live at `expectedVersion`; false when someone else wrote first. */
  async update(trx: Executor, id: string, expectedVersion: number, changes: ApprovalChainChanges): Promise<boolean> {
    const result = await trx
      .updateTable('approval_chains')
      .set(changes)
      .where('id', '=', id)
      .where('version', '=', expectedVersion)
      .where('deleted_at', 'is', null)
      .executeTakeFirst()
    return Number(result.numUpdatedRows) === 1
  },

  /** Marks a live chain deleted at any version, bumping it; the deleted row, or undefined if it was already gone. */
  async markDeleted(trx: Executor, id: string, now: string): Promise<ApprovalChainsTable | undefined> {
    return trx
      .updateTable('approval_chains')
      .set((eb) => ({ deleted_at: now, updated: now, version: eb('version', '+', 1) }))
      .where('id', '=', id)
      .where('deleted_at', 'is', null)
      .returningAll()
      .executeTakeFirst()
  },
}
