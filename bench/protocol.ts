/** Messages between the benchmark runner and the servers it forks (Node IPC, JSON). */

/** The bodies the bare server answers with: Kassa's own responses, captured after seeding. */
export interface BareBodies {
  counterparty: unknown
  list: unknown
  created: unknown
  /** A created credit transfer: when given, the bare server also answers POST /payments/v2/credit-transfers with it. */
  creditTransfer?: unknown
}

/** What the prepared-statement floor (prepared-write-server.ts) writes to, and answers with. */
export interface PreparedWriteSetup {
  /** A database Kassa migrated and seeded: `sqlite:PATH` or `postgres://…`. */
  databaseUrl: string
  /** SQLite: one transaction per request, or group commit. PostgreSQL has one way (two round trips). */
  commit: 'per-request' | 'group'
  /** A credit transfer Kassa created there: the shape answered, and the organization, creator and accounts it names. */
  creditTransfer: unknown
}

export type ToServer =
  | { type: 'bodies'; bodies: BareBodies }
  | { type: 'prepared'; setup: PreparedWriteSetup }
  | { type: 'cpu' }
  | { type: 'stop' }

/** The server process's CPU time so far (user + system, microseconds), in answer to `cpu`. */
export interface CpuUsage {
  type: 'cpu'
  micros: number
}

export interface KassaReady {
  type: 'ready'
  port: number
  accessKey: string
  secret: string
  organizationId: string
}

export interface BareReady {
  type: 'ready'
  port: number
}

export type FromServer = KassaReady | BareReady | CpuUsage | { type: 'error'; message: string }

/** Answers `cpu` requests from the runner, and exits when the runner is gone; every server process installs it. */
export function answerCpuRequests(): void {
  process.once('disconnect', () => process.exit(0))
  process.on('message', (message: ToServer) => {
    if (message.type !== 'cpu') return
    const { user, system } = process.cpuUsage()
    process.send?.({ type: 'cpu', micros: user + system } satisfies FromServer)
  })
}
