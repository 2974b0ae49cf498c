/**
 * The prepared-statement floor on PostgreSQL: the reads and row writes of Kassa's keyed create in two round
 * trips, both `pg` named prepared statements on a pool of 10 like Kassa's (src/db/database.ts openPostgres).
 * 1. One SELECT of every row Kassa reads (the key, source account, its bank, sandbox rows, external account,
 *    counterparty, organization, approval chains, Owner role, webhooks).
 * 2. One statement that writes — a statement is its own transaction, so one commit: the key's transaction-scoped
 *    advisory lock (as src/db/claims.ts tryTransactionLock), the external account's lock, the payment, its step,
 *    its CREATED event and the key's completed row. A key inserted meanwhile by another request fails the
 *    statement on the key's primary key, and its row is then read and replayed.
 */
import pg from 'pg'
import {
  EVENT_COLUMNS,
  KEY_COLUMNS,
  PAYMENT_COLUMNS,
  STEP_COLUMNS,
  keyScope,
  replayOf,
  rowsOf,
  type CreateRequest,
  type CreditTransferTemplate,
} from './prepared-write-rows.js'
import type { Writer } from './prepared-write-sqlite.js'

const READ = `select
  (select row_to_json(k) from idempotency_keys k where organization_id = $1 and method = $2 and path = $3 and key = $4) as key,
  (select row_to_json(a) from accounts a where organization_id = $1 and id = $5) as account,
  (select b.type from accounts a join bank_connections b on b.id = a.connection_id where a.id = $5) as bank_type,
  (select row_to_json(s) from sandbox_accounts s where account_id = $5) as sandbox_account,
  (select row_to_json(s) from sandbox_banks s where organization_id = $1) as sandbox_bank,
  (select row_to_json(e) from external_accounts e where organization_id = $1 and id = $6 and deleted_at is null) as external_account,
  (select row_to_json(c) from counterparties c join external_accounts e on e.counterparty_id = c.id where e.id = $6 and c.organization_id = $1) as counterparty,
  (select name from organizations where id = $1) as organization_name,
  (select coalesce(json_agg(c order by c.id), '[]') from approval_chains c where organization_id = $1 and deleted_at is null) as chains,
  (select id from roles where organization_id = $1 and owner = 1 order by created limit 1) as owner_role_id,
  (select coalesce(json_agg(json_build_object('id', w.id, 'filter', w.filter)), '[]') from webhooks w where organization_id = $1 and deleted_at is null) as webhooks`

/** `$first, …` for `columns`, numbered from `first`. */
function placeholders(columns: readonly string[], first: number): string {
  return columns.map((_, n) => `$${first + n}`).join(', ')
}

const EVENT_FIRST = 1 + PAYMENT_COLUMNS.length + STEP_COLUMNS.length
const KEY_FIRST = EVENT_FIRST + EVENT_COLUMNS.length
/** The key's lock name follows its columns: organization, method, path, key as src/idempotency scopeName names them. */
const LOCK_NAME = KEY_FIRST + KEY_COLUMNS.length

const WRITE = `with
  locked as (select pg_advisory_xact_lock(hashtextextended($${LOCK_NAME}, 0))),
  external as (update external_accounts set version = version where organization_id = $2 and id = $13 and deleted_at is null returning id),
  payment as (insert into payments (${PAYMENT_COLUMNS.join(', ')}) select ${placeholders(PAYMENT_COLUMNS, 1)} from external returning id),
  step as (insert into payment_approval_steps (${STEP_COLUMNS.join(', ')}) select ${placeholders(STEP_COLUMNS, 1 + PAYMENT_COLUMNS.length)} from payment),
  event as (insert into events (${EVENT_COLUMNS.join(', ')}) select ${placeholders(EVENT_COLUMNS, EVENT_FIRST)} from payment)
insert into idempotency_keys (${KEY_COLUMNS.join(', ')}) select ${placeholders(KEY_COLUMNS, KEY_FIRST)} from locked, payment`

interface Reads {
  key: Parameters<typeof replayOf>[0] | null
  account: unknown
  external_account: unknown
  owner_role_id: string | null
}

/** PostgreSQL's unique_violation: the key was inserted by a request that committed first. */
const UNIQUE_VIOLATION = '23505'

export function postgresWriter(url: string, template: CreditTransferTemplate): Writer {
  const pool = new pg.Pool({ connectionString: url, max: 10 })
  pool.on('error', () => undefined)
  const read = async (request: CreateRequest): Promise<Reads> => {
    const values = [...keyScope(template, request.key), request.body.source.id, request.body.destination.id]
    const result = await pool.query<Reads>({ name: 'bench_create_read', text: READ, values })
    return result.rows[0]!
  }
  return {
    async create(request) {
      const reads = await read(request)
      if (reads.key) return replayOf(reads.key, request.fingerprint)
      if (!reads.account) return { status: 400, body: '{"field":"source.id"}' }
      if (!reads.external_account) return { status: 400, body: '{"field":"destination.id"}' }
      const rows = rowsOf(template, request, reads.owner_role_id!)
      const values = [...rows.payment, ...rows.step, ...rows.event, ...rows.key, JSON.stringify(keyScope(template, request.key))]
      try {
        const result = await pool.query({ name: 'bench_create_write', text: WRITE, values })
        if (result.rowCount !== 1) return { status: 400, body: '{"field":"destination.id"}' }
        return rows.answer
      } catch (error) {
        if ((error as { code?: string }).code !== UNIQUE_VIOLATION) throw error
        const replay = (await read(request)).key
        return replay ? replayOf(replay, request.fingerprint) : { status: 425, body: '{"code":"idempotency_key_in_use"}' }
      }
    },
    close: () => pool.end(),
  }
}
