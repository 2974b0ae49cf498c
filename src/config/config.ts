import { Type, type Static } from 'typebox'
import { Ajv } from 'ajv'
import { resolve } from 'node:path'
import ipaddr from 'ipaddr.js'

/**
 * Runtime configuration, read once from the environment and validated at start. Every problem names
 * the environment variable and what it accepts (issue 10: errors once named internal field paths, and a
 * mistyped DATABASE_URL scheme silently became an SQLite file named after the URL).
 */

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const
export const SQLITE_SYNCHRONOUS_LEVELS = ['NORMAL', 'FULL'] as const
export type SqliteSynchronous = (typeof SQLITE_SYNCHRONOUS_LEVELS)[number]

const ConfigSchema = Type.Object({
  host: Type.String({ minLength: 1 }),
  port: Type.Integer({ minimum: 0, maximum: 65535 }),
  databaseUrl: Type.String({ minLength: 1 }),
  rateLimitPerMinute: Type.Integer({ minimum: 1 }),
  /** Failed authentications allowed per minute from one address, and apart from that for one access key (iam/failed-authentications.ts). */
  failedAuthenticationsPerMinute: Type.Integer({ minimum: 1 }),
  maintenance: Type.Boolean(),
  logLevel: Type.Enum([...LOG_LEVELS]),
  /** Lets webhooks target plain http and loopback addresses: for development and tests only. */
  webhookAllowLoopback: Type.Boolean(),
  /** Pause between payment worker passes: how fast sandbox payments move through their lifecycle. */
  sandboxPaceMilliseconds: Type.Integer({ minimum: 10 }),
  /** The one directory bank connections' outboxDir and inboxDir may lie in: the server's files, nobody else's. */
  bankFilesDir: Type.String({ minLength: 2 }),
  /**
   * SQLite's `synchronous` in WAL mode: NORMAL (default) survives a crash of the process — a commit is in the WAL
   * before the answer — but the last commits may be lost if the machine loses power; FULL also syncs the WAL on
   * every commit, surviving power loss, at the cost of one fsync per commit.
   */
  sqliteSynchronous: Type.Enum([...SQLITE_SYNCHRONOUS_LEVELS]),
  /** Where every process keeps the rate limits (http/rate-limits/): Redis when set, otherwise the database. */
  redisUrl: Type.Optional(Type.String({ pattern: '^rediss?://' })),
  /** HTTP processes `kassa serve` runs on this machine, sharing its port (src/cluster.ts); 1 runs no cluster. */
  workers: Type.Integer({ minimum: 1, maximum: 64 }),
  /**
   * PostgreSQL: the transaction connections of this machine's processes together, divided among its `workers`
   * (db/database.ts postgresPoolSize). A database on a few cores runs fastest with few active connections: on the
   * 2-CPU benchmark machine two processes of 10 each created 15–20% fewer payments than two of 5.
   */
  databaseConnections: Type.Integer({ minimum: 2, maximum: 1000 }),
  /**
   * The proxies in front whose X-Forwarded-For and X-Forwarded-Proto are believed (Fastify's trustProxy): addresses,
   * CIDR ranges, or proxy-addr's names `loopback`, `linklocal`, `uniquelocal`. Empty: the socket's peer is the client.
   */
  trustProxy: Type.Array(Type.String({ minLength: 1 })),
})
export type Config = Static<typeof ConfigSchema>

export const DEFAULT_DATABASE_URL = 'sqlite:./data/kassa.sqlite'
export const DEFAULT_BANK_FILES_DIR = './data/bank-files'
/** KASSA_DATABASE_CONNECTIONS unless set; also what a database opened without options assumes (db/database.ts). */
export const DEFAULT_DATABASE_CONNECTIONS = 10

/** Each setting's variable and, in words, what it accepts: the message of a bad value. */
const VARIABLES: Record<keyof Config, { name: string; accepts: string }> = {
  host: { name: 'HOST', accepts: 'a host name or address to listen on' },
  port: { name: 'PORT', accepts: 'an integer from 0 to 65535' },
  databaseUrl: {
    name: 'DATABASE_URL',
    accepts: 'postgres://user:password@host:5432/db (or postgresql://…), sqlite:PATH, or a plain file path',
  },
  rateLimitPerMinute: { name: 'KASSA_RATE_LIMIT_PER_MINUTE', accepts: 'an integer ≥ 1' },
  failedAuthenticationsPerMinute: { name: 'KASSA_FAILED_AUTH_PER_MINUTE', accepts: 'an integer ≥ 1' },
  maintenance: { name: 'KASSA_MAINTENANCE', accepts: 'true, false, 1 or 0' },
  logLevel: { name: 'LOG_LEVEL', accepts: `one of ${LOG_LEVELS.join(', ')}` },
  webhookAllowLoopback: { name: 'KASSA_WEBHOOK_ALLOW_LOOPBACK', accepts: 'true, false, 1 or 0' },
  sandboxPaceMilliseconds: { name: 'KASSA_SANDBOX_PACE_MS', accepts: 'an integer ≥ 10 (milliseconds)' },
  bankFilesDir: { name: 'KASSA_BANK_FILES_DIR', accepts: 'a directory path, other than the root (relative to the working directory)' },
  sqliteSynchronous: { name: 'KASSA_SQLITE_SYNCHRONOUS', accepts: `one of ${SQLITE_SYNCHRONOUS_LEVELS.join(', ')}` },
  redisUrl: { name: 'REDIS_URL', accepts: 'redis://[user:password@]host:6379[/db] or rediss://… (TLS), or nothing for the database' },
  workers: { name: 'KASSA_WORKERS', accepts: 'an integer from 1 to 64 (HTTP processes; `kassa serve --workers N` sets it too)' },
  databaseConnections: {
    name: 'KASSA_DATABASE_CONNECTIONS',
    accepts: 'an integer from 2 to 1000 (PostgreSQL transaction connections of all of this machine’s processes together)',
  },
  trustProxy: {
    name: 'KASSA_TRUST_PROXY',
    accepts: 'a comma-separated list of the proxies in front: addresses, CIDR ranges (10.0.0.0/8), loopback, linklocal or uniquelocal',
  },
}

const validateConfig = new Ajv({ allErrors: true }).compile<Config>(ConfigSchema)

function problem(setting: keyof Config, raw: string | undefined): string {
  const { name, accepts } = VARIABLES[setting]
  return `${name} must be ${accepts}, got ${raw === undefined ? 'nothing' : JSON.stringify(raw)}`
}

/** Anything shaped like `scheme:` or `scheme://` is a URL; only the schemes Kassa knows are accepted. */
const URL_SCHEME = /^([A-Za-z][A-Za-z0-9+.-]*):/
const KNOWN_SCHEMES = new Set(['sqlite', 'postgres', 'postgresql'])

function databaseUrlFrom(raw: string | undefined): string | number {
  if (raw === undefined || raw === '') return DEFAULT_DATABASE_URL
  const scheme = URL_SCHEME.exec(raw)?.[1]?.toLowerCase()
  if (scheme !== undefined && !KNOWN_SCHEMES.has(scheme)) return Number.NaN
  if ((scheme === 'postgres' || scheme === 'postgresql') && !/^postgres(ql)?:\/\//.test(raw)) return Number.NaN
  return raw
}

function integerFrom(raw: string | undefined, fallback: number): number {
  if (raw === undefined || raw === '') return fallback
  return /^\d+$/.test(raw) ? Number(raw) : Number.NaN
}

/** Absolute; the file system's root is refused (it would let connections use every directory). */
function directoryFrom(raw: string | undefined): string {
  const path = resolve(raw || DEFAULT_BANK_FILES_DIR)
  return path === resolve('/') ? '' : path
}

const PROXY_ADDRESS_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal'])

/** Each entry an address, a CIDR range or one of proxy-addr's names; one bad entry fails the whole setting. */
function proxiesFrom(raw: string | undefined): string[] | undefined {
  const entries = (raw ?? '').split(',').map((entry) => entry.trim()).filter((entry) => entry !== '')
  const valid = (entry: string) => PROXY_ADDRESS_NAMES.has(entry) || ipaddr.isValid(entry) || ipaddr.isValidCIDR(entry)
  return entries.every(valid) ? entries : undefined
}

function booleanFrom(raw: string | undefined): boolean | undefined {
  if (raw === undefined || raw === '' || raw === 'false' || raw === '0') return false
  if (raw === 'true' || raw === '1') return true
  return undefined
}

/** @throws Error listing every variable with a bad value: `NAME must be …, got "…"`. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const config = {
    host: env.HOST || '127.0.0.1',
    port: integerFrom(env.PORT, 8080),
    databaseUrl: databaseUrlFrom(env.DATABASE_URL),
    rateLimitPerMinute: integerFrom(env.KASSA_RATE_LIMIT_PER_MINUTE, 600),
    failedAuthenticationsPerMinute: integerFrom(env.KASSA_FAILED_AUTH_PER_MINUTE, 20),
    maintenance: booleanFrom(env.KASSA_MAINTENANCE),
    logLevel: env.LOG_LEVEL || 'info',
    webhookAllowLoopback: booleanFrom(env.KASSA_WEBHOOK_ALLOW_LOOPBACK),
    sandboxPaceMilliseconds: integerFrom(env.KASSA_SANDBOX_PACE_MS, 1_000),
    bankFilesDir: directoryFrom(env.KASSA_BANK_FILES_DIR),
    sqliteSynchronous: (env.KASSA_SQLITE_SYNCHRONOUS || 'NORMAL').toUpperCase(),
    redisUrl: env.REDIS_URL || undefined,
    workers: integerFrom(env.KASSA_WORKERS, 1),
    databaseConnections: integerFrom(env.KASSA_DATABASE_CONNECTIONS, DEFAULT_DATABASE_CONNECTIONS),
    trustProxy: proxiesFrom(env.KASSA_TRUST_PROXY),
  }
  if (!validateConfig(config)) {
    const settings = new Set(
      (validateConfig.errors ?? []).map((error) => (error.instancePath.slice(1) || String(error.params.missingProperty)) as keyof Config),
    )
    const problems = [...settings].map((setting) => problem(setting, env[VARIABLES[setting].name]))
    throw new Error(`Invalid configuration: ${problems.join('; ')}`)
  }
  return config
}
