import { Type, type Static } from 'typebox'
import { Ajv } from 'ajv'

/** Runtime configuration, read once from the environment and validated at start. */
const ConfigSchema = Type.Object({
  host: Type.String({ minLength: 1 }),
  port: Type.Integer({ minimum: 0, maximum: 65535 }),
  databaseUrl: Type.String({ minLength: 1 }),
  rateLimitPerMinute: Type.Integer({ minimum: 1 }),
  maintenance: Type.Boolean(),
  logLevel: Type.Enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']),
  /** Lets webhooks target plain http and loopback addresses: for development and tests only. */
  webhookAllowLoopback: Type.Boolean(),
  /** Pause between payment worker passes: how fast sandbox payments move through their lifecycle. */
  sandboxPaceMilliseconds: Type.Integer({ minimum: 10 }),
})
export type Config = Static<typeof ConfigSchema>

export const DEFAULT_DATABASE_URL = 'sqlite:./data/kassa.sqlite'

const validateConfig = new Ajv({ allErrors: true }).compile(ConfigSchema)

function integerFrom(name: string, raw: string | undefined, fallback: number): number {
  if (raw === undefined || raw === '') return fallback
  if (!/^\d+$/.test(raw)) throw new Error(`${name} must be a whole number, got "${raw}"`)
  return Number(raw)
}

function booleanFrom(name: string, raw: string | undefined): boolean {
  if (raw === undefined || raw === '' || raw === 'false' || raw === '0') return false
  if (raw === 'true' || raw === '1') return true
  throw new Error(`${name} must be true or false, got "${raw}"`)
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const config = {
    host: env.HOST || '127.0.0.1',
    port: integerFrom('PORT', env.PORT, 8080),
    databaseUrl: env.DATABASE_URL || DEFAULT_DATABASE_URL,
    rateLimitPerMinute: integerFrom('KASSA_RATE_LIMIT_PER_MINUTE', env.KASSA_RATE_LIMIT_PER_MINUTE, 600),
    maintenance: booleanFrom('KASSA_MAINTENANCE', env.KASSA_MAINTENANCE),
    logLevel: env.LOG_LEVEL || 'info',
    webhookAllowLoopback: booleanFrom('KASSA_WEBHOOK_ALLOW_LOOPBACK', env.KASSA_WEBHOOK_ALLOW_LOOPBACK),
    sandboxPaceMilliseconds: integerFrom('KASSA_SANDBOX_PACE_MS', env.KASSA_SANDBOX_PACE_MS, 1_000),
  } as Config
  if (!validateConfig(config)) {
    const problems = validateConfig.errors?.map((e) => `${e.instancePath || 'config'} ${e.message}`).join('; ')
    throw new Error(`Invalid configuration: ${problems}`)
  }
  return config
}
