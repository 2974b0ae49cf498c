import { resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { DEFAULT_DATABASE_URL, loadConfig } from './config.js'

function problemOf(env: NodeJS.ProcessEnv): string {
  try {
    loadConfig(env)
  } catch (error) {
    return (error as Error).message
  }
  throw new Error('the configuration was accepted')
}

describe('loadConfig', () => {
  it('has defaults for everything', () => {
    expect(loadConfig({})).toEqual({
      host: '127.0.0.1',
      port: 8080,
      databaseUrl: DEFAULT_DATABASE_URL,
      rateLimitPerMinute: 600,
      failedAuthenticationsPerMinute: 20,
      maintenance: false,
      logLevel: 'info',
      webhookAllowLoopback: false,
      sandboxPaceMilliseconds: 1_000,
      bankFilesDir: resolve('data/bank-files'),
      sqliteSynchronous: 'NORMAL',
      workers: 1,
      databaseConnections: 10,
      trustProxy: [],
    })
  })

  it('reads KASSA_WORKERS, from 1 to 64 HTTP processes, naming the variable otherwise', () => {
    expect(loadConfig({ KASSA_WORKERS: '4' }).workers).toBe(4)
    expect(problemOf({ KASSA_WORKERS: '0' })).toBe(
      'Invalid configuration: KASSA_WORKERS must be an integer from 1 to 64 (HTTP processes; `kassa serve --workers N` sets it too), got "0"',
    )
    expect(problemOf({ KASSA_WORKERS: 'two' })).toContain('KASSA_WORKERS must be an integer from 1 to 64')
  })

  it('reads KASSA_DATABASE_CONNECTIONS, from 2 to 1000, naming the variable otherwise', () => {
    expect(loadConfig({ KASSA_DATABASE_CONNECTIONS: '40' }).databaseConnections).toBe(40)
    expect(problemOf({ KASSA_DATABASE_CONNECTIONS: '1' })).toContain('KASSA_DATABASE_CONNECTIONS must be an integer from 2 to 1000')
    expect(problemOf({ KASSA_DATABASE_CONNECTIONS: 'many' })).toContain('KASSA_DATABASE_CONNECTIONS must be an integer from 2 to 1000')
  })

  it('reads KASSA_SQLITE_SYNCHRONOUS in either case and refuses other values, naming the variable', () => {
    expect(loadConfig({ KASSA_SQLITE_SYNCHRONOUS: 'full' }).sqliteSynchronous).toBe('FULL')
    expect(() => loadConfig({ KASSA_SQLITE_SYNCHRONOUS: 'OFF' })).toThrow('KASSA_SQLITE_SYNCHRONOUS must be one of NORMAL, FULL, got "OFF"')
  })

  it('reads REDIS_URL (redis:// or rediss://; none keeps the rate limits in the database) and refuses other schemes', () => {
    expect(loadConfig({}).redisUrl).toBeUndefined()
    expect(loadConfig({ REDIS_URL: '' }).redisUrl).toBeUndefined()
    expect(loadConfig({ REDIS_URL: 'redis://cache:6379/0' }).redisUrl).toBe('redis://cache:6379/0')
    expect(loadConfig({ REDIS_URL: 'rediss://user:secret@cache:6380' }).redisUrl).toBe('rediss://user:secret@cache:6380')
    expect(problemOf({ REDIS_URL: 'cache:6379' })).toContain('REDIS_URL must be redis://[user:password@]host:6379[/db] or rediss://… (TLS)')
  })

  it('reads KASSA_TRUST_PROXY as a list of addresses, CIDR ranges and proxy-addr names, and refuses anything else', () => {
    expect(loadConfig({}).trustProxy).toEqual([])
    expect(loadConfig({ KASSA_TRUST_PROXY: ' loopback, 10.0.0.0/8 ,::1' }).trustProxy).toEqual(['loopback', '10.0.0.0/8', '::1'])
    expect(problemOf({ KASSA_TRUST_PROXY: 'loopback,proxy.internal' })).toContain('KASSA_TRUST_PROXY must be a comma-separated list')
    expect(problemOf({ KASSA_TRUST_PROXY: 'true' })).toContain('KASSA_TRUST_PROXY must be')
  })

  it('takes KASSA_BANK_FILES_DIR relative to the working directory, and refuses the root', () => {
    expect(loadConfig({ KASSA_BANK_FILES_DIR: '/srv/kassa/bank-files' }).bankFilesDir).toBe('/srv/kassa/bank-files')
    expect(loadConfig({ KASSA_BANK_FILES_DIR: 'files' }).bankFilesDir).toBe(resolve('files'))
    expect(problemOf({ KASSA_BANK_FILES_DIR: '/' })).toBe(
      'Invalid configuration: KASSA_BANK_FILES_DIR must be a directory path, other than the root (relative to the working directory), got "/"',
    )
  })

  it('accepts the database URLs it knows: postgres://, postgresql://, sqlite:PATH and plain paths', () => {
    for (const url of ['postgres://u:p@db:5432/kassa', 'postgresql://db/kassa', 'sqlite:./x.sqlite', 'sqlite::memory:', './data/k.sqlite', '/var/lib/k.db']) {
      expect(loadConfig({ DATABASE_URL: url }).databaseUrl).toBe(url)
    }
  })

  it('refuses an unknown or misspelt DATABASE_URL scheme, naming the variable and the accepted forms', () => {
    for (const url of ['postgress://db/kassa', 'mysql://root@db/kassa', 'postgres:db/kassa', 'file:./x.sqlite']) {
      expect(problemOf({ DATABASE_URL: url })).toBe(
        `Invalid configuration: DATABASE_URL must be postgres://user:password@host:5432/db (or postgresql://…), sqlite:PATH, or a plain file path, got "${url}"`,
      )
    }
  })

  it('names each bad variable and what it accepts, all at once', () => {
    expect(problemOf({ KASSA_RATE_LIMIT_PER_MINUTE: '0', LOG_LEVEL: 'verbose', KASSA_MAINTENANCE: 'yes' })).toBe(
      'Invalid configuration: KASSA_MAINTENANCE must be true, false, 1 or 0, got "yes"; ' +
        'KASSA_RATE_LIMIT_PER_MINUTE must be an integer ≥ 1, got "0"; ' +
        'LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent, got "verbose"',
    )
    expect(problemOf({ PORT: '80a' })).toBe('Invalid configuration: PORT must be an integer from 0 to 65535, got "80a"')
    expect(problemOf({ PORT: '70000' })).toBe('Invalid configuration: PORT must be an integer from 0 to 65535, got "70000"')
    expect(problemOf({ KASSA_SANDBOX_PACE_MS: '5' })).toBe('Invalid configuration: KASSA_SANDBOX_PACE_MS must be an integer ≥ 10 (milliseconds), got "5"')
  })
})
