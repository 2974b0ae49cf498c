/**
 * The prepared-statement floor on SQLite: the reads and row writes of Kassa's keyed create as better-sqlite3
 * statements prepared once, on a connection set up as Kassa's (src/db/database.ts connectSqlite: WAL,
 * synchronous NORMAL, foreign keys, temp_store MEMORY; BEGIN IMMEDIATE).
 *
 * `per-request`: one transaction per request. `group`: the requests that arrive together (parsed in the same
 * turn of the event loop) share one transaction, a savepoint each, so one request's failure rolls back only its
 * own work; every answer is sent after the batch commits (issue 14's group commit).
 */
import SqliteDatabase from 'better-sqlite3'
import {
  EVENT_COLUMNS,
  KEY_COLUMNS,
  PAYMENT_COLUMNS,
  STEP_COLUMNS,
  keyScope,
  replayOf,
  rowsOf,
  type Answer,
  type CreateRequest,
  type CreditTransferTemplate,
} from './prepared-write-rows.js'

export type SqliteCommit = 'per-request' | 'group'

export interface Writer {
  create(request: CreateRequest): Answer | Promise<Answer>
  close(): Promise<void>
}

const insert = (table: string, columns: readonly string[]) => `insert into ${table} (${columns.join(', ')}) values (${columns.map(() => '?').join(', ')})`

function connect(path: string): SqliteDatabase.Database {
  const sqlite = new SqliteDatabase(path)
  sqlite.pragma('journal_mode = WAL')
  sqlite.pragma('synchronous = NORMAL')
  sqlite.pragma('foreign_keys = ON')
  sqlite.pragma('busy_timeout = 5000')
  sqlite.pragma('temp_store = MEMORY')
  return sqlite
}

export function sqliteWriter(path: string, commit: SqliteCommit, template: CreditTransferTemplate): Writer {
  const sqlite = connect(path)
  const organizationId = template.organizationId
  const statements = {
    findKey: sqlite.prepare('select * from idempotency_keys where organization_id = ? and method = ? and path = ? and key = ?'),
    account: sqlite.prepare('select * from accounts where organization_id = ? and id = ?'),
    bankType: sqlite.prepare('select bank_connections.type from accounts inner join bank_connections on bank_connections.id = accounts.connection_id where accounts.id = ?'),
    sandboxAccount: sqlite.prepare('select * from sandbox_accounts where account_id = ?'),
    sandboxBank: sqlite.prepare('select * from sandbox_banks where organization_id = ?'),
    lockExternal: sqlite.prepare('update external_accounts set version = version where organization_id = ? and id = ? and deleted_at is null returning *'),
    counterparty: sqlite.prepare('select c.* from counterparties c inner join external_accounts e on e.counterparty_id = c.id where c.organization_id = ? and e.id = ?'),
    organizationName: sqlite.prepare('select name from organizations where id = ?').pluck(),
    chains: sqlite.prepare('select * from approval_chains where organization_id = ? and deleted_at is null order by id'),
    ownerRole: sqlite.prepare('select id from roles where organization_id = ? and owner = 1 order by created limit 1').pluck(),
    insertPayment: sqlite.prepare(insert('payments', PAYMENT_COLUMNS)),
    insertStep: sqlite.prepare(insert('payment_approval_steps', STEP_COLUMNS)),
    insertEvent: sqlite.prepare(insert('events', EVENT_COLUMNS)),
    webhooks: sqlite.prepare('select id, filter from webhooks where organization_id = ? and deleted_at is null'),
    insertKey: sqlite.prepare(insert('idempotency_keys', KEY_COLUMNS)),
  }

  /** One create, in the transaction (or savepoint) its caller opened. */
  const createOne = sqlite.transaction((request: CreateRequest): Answer => {
    const existing = statements.findKey.get(...keyScope(template, request.key)) as Parameters<typeof replayOf>[0] | undefined
    if (existing) return replayOf(existing, request.fingerprint)
    const { body } = request
    if (!statements.account.get(organizationId, body.source.id)) return { status: 400, body: '{"field":"source.id"}' }
    statements.organizationName.get(organizationId)
    if (!statements.lockExternal.get(organizationId, body.destination.id)) return { status: 400, body: '{"field":"destination.id"}' }
    statements.counterparty.get(organizationId, body.destination.id)
    statements.bankType.get(body.source.id)
    statements.sandboxAccount.get(body.source.id)
    statements.sandboxBank.get(organizationId)
    statements.chains.all(organizationId)
    const rows = rowsOf(template, request, statements.ownerRole.get(organizationId) as string)
    statements.webhooks.all(organizationId)
    statements.insertPayment.run(...rows.payment)
    statements.insertStep.run(...rows.step)
    statements.insertEvent.run(...rows.event)
    statements.insertKey.run(...rows.key)
    return rows.answer
  })

  const close = async () => {
    sqlite.close()
  }
  if (commit === 'per-request') return { create: (request) => createOne.immediate(request), close }

  const failed = (error: unknown): Answer => ({ status: 500, body: JSON.stringify({ error: String(error) }) })
  // Called inside the batch's transaction, createOne runs in a savepoint of its own (better-sqlite3 nests them).
  const createBatch = sqlite.transaction((requests: CreateRequest[]): Answer[] =>
    requests.map((request) => {
      try {
        return createOne(request)
      } catch (error) {
        return failed(error)
      }
    }),
  )
  let waiting: Array<{ request: CreateRequest; resolve: (answer: Answer) => void }> = []
  const committed = { transactions: 0, requests: 0 }
  const flush = () => {
    const batch = waiting
    waiting = []
    committed.transactions += 1
    committed.requests += batch.length
    try {
      const answers = createBatch.immediate(batch.map((entry) => entry.request))
      batch.forEach((entry, n) => entry.resolve(answers[n]!))
    } catch (error) {
      for (const entry of batch) entry.resolve(failed(error))
    }
  }
  return {
    create: (request) =>
      new Promise<Answer>((resolve) => {
        if (waiting.length === 0) setImmediate(flush)
        waiting.push({ request, resolve })
      }),
    close: async () => {
      // How much the commits were shared, for the benchmark's log.
      process.stderr.write(`group commit: ${committed.requests} requests in ${committed.transactions} transactions (${(committed.requests / Math.max(1, committed.transactions)).toFixed(1)} each)\n`)
      await close()
    },
  }
}
