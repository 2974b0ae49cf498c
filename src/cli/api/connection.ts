import { createKassaClient, type KassaClient } from '@kassa/client'
import { loadProfile, profilesFile, type Profile } from './profiles.js'

export const DEFAULT_URL = 'http://127.0.0.1:8080'

/** The options every command against a running server takes. */
export interface ConnectionOptions {
  url?: string
  profile?: string
}

export interface Connection {
  url: string
  accessKey: string
  secret: string
}

type Credentials = Pick<Connection, 'accessKey' | 'secret'>

/** Both halves of a key, or neither; `names` say what each half is called where it was read. */
function pair(values: Partial<Credentials>, names: Credentials, place = ''): Credentials | undefined {
  const { accessKey, secret } = values
  if (!accessKey && !secret) return undefined
  if (!accessKey || !secret) {
    const [present, absent] = accessKey ? [names.accessKey, names.secret] : [names.secret, names.accessKey]
    throw new Error(`${present} is set but ${absent} is not${place}`)
  }
  return { accessKey, secret }
}

function fromProfile(profile: Profile | undefined, name: string): Credentials | undefined {
  return pair(profile ?? {}, { accessKey: 'accessKey', secret: 'secret' }, ` in profile "${name}"`)
}

function checkedUrl(url: string): string {
  let parsed: URL
  try {
    parsed = new URL(url)
  } catch {
    throw new Error(`The server address "${url}" is not a URL (e.g. ${DEFAULT_URL})`)
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new Error(`The server address "${url}" must be http:// or https://`)
  return url.replace(/\/+$/, '')
}

/**
 * Where the server is and who is asking. A value given on the command line wins, then the environment,
 * then the profile "default" of the profiles file, then the built-in default address. Naming a profile
 * (`--profile NAME`) is a command-line choice, so its values beat the environment (all but `--url`).
 * @throws Error naming what is missing or malformed, never a secret.
 */
export function resolveConnection(options: ConnectionOptions, env: NodeJS.ProcessEnv): Connection {
  const named = options.profile === undefined ? undefined : loadProfile(env, options.profile)
  const fallback = () => (named === undefined ? loadProfile(env, undefined) : undefined)
  const url = options.url ?? named?.url ?? (env.KASSA_URL || undefined) ?? fallback()?.url ?? DEFAULT_URL
  const credentials =
    fromProfile(named, options.profile ?? '') ??
    pair({ accessKey: env.KASSA_ACCESS_KEY, secret: env.KASSA_SECRET }, { accessKey: 'KASSA_ACCESS_KEY', secret: 'KASSA_SECRET' }) ??
    fromProfile(fallback(), 'default')
  if (!credentials) {
    throw new Error(
      `No credentials: set KASSA_ACCESS_KEY and KASSA_SECRET, or put accessKey and secret in a profile of ${profilesFile(env)} ` +
        '("default", or the one --profile names)',
    )
  }
  return { url: checkedUrl(url), ...credentials }
}

export function clientFor(connection: Connection): KassaClient {
  return createKassaClient({ baseUrl: connection.url, accessKey: connection.accessKey, secret: connection.secret })
}
