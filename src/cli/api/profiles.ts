import { readFileSync } from 'node:fs'
import { homedir } from 'node:os'
import { join } from 'node:path'

/**
 * Profiles: named servers and credentials kept in a file, so that a secret need not sit in the shell's
 * history or environment. The file (`$XDG_CONFIG_HOME/kassa/profiles.json`, by default
 * `~/.config/kassa/profiles.json`; keep it `chmod 600`) is
 *
 * ```json
 * { "profiles": {
 *     "default": { "url": "http://127.0.0.1:8080", "accessKey": "KA…", "secret": "…" },
 *     "staging": { "url": "https://kassa.staging.example", "accessKey": "KA…", "secret": "…" } } }
 * ```
 *
 * Every field is optional. Messages about the file name fields, never their values.
 */
export interface Profile {
  url?: string
  accessKey?: string
  secret?: string
}

const PROFILE_FIELDS: ReadonlySet<string> = new Set(['url', 'accessKey', 'secret'])

export function profilesFile(env: NodeJS.ProcessEnv): string {
  const configHome = env.XDG_CONFIG_HOME || join(homedir(), '.config')
  return join(configHome, 'kassa', 'profiles.json')
}

function readProfiles(file: string): Record<string, unknown> | undefined {
  let text: string
  try {
    text = readFileSync(file, 'utf8')
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined
    throw new Error(`Cannot read the profiles file ${file}: ${(error as Error).message}`)
  }
  let parsed: unknown
  try {
    parsed = JSON.parse(text)
  } catch {
    // The parser's message may quote the file's text, secrets included.
    throw new Error(`The profiles file ${file} is not valid JSON`)
  }
  const profiles = (parsed as { profiles?: unknown } | null)?.profiles
  if (typeof profiles !== 'object' || profiles === null || Array.isArray(profiles)) {
    throw new Error(`The profiles file ${file} must hold {"profiles": {"NAME": {"url", "accessKey", "secret"}}}`)
  }
  return profiles as Record<string, unknown>
}

function checkProfile(file: string, name: string, value: unknown): Profile {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new Error(`Profile "${name}" in ${file} must be an object`)
  for (const [field, fieldValue] of Object.entries(value)) {
    if (!PROFILE_FIELDS.has(field)) throw new Error(`Profile "${name}" in ${file} has an unknown field "${field}"; its fields are url, accessKey, secret`)
    if (typeof fieldValue !== 'string') throw new Error(`Profile "${name}" in ${file}: ${field} must be a string`)
  }
  return value as Profile
}

/**
 * The profile `name` (an error if the file or the profile is missing), or, when no name is given, the
 * profile "default" if the file has one.
 */
export function loadProfile(env: NodeJS.ProcessEnv, name: string | undefined): Profile | undefined {
  const file = profilesFile(env)
  const profiles = readProfiles(file)
  if (name === undefined) return profiles?.default === undefined ? undefined : checkProfile(file, 'default', profiles.default)
  if (profiles === undefined) throw new Error(`No profile "${name}": there is no profiles file ${file}`)
  if (!Object.hasOwn(profiles, name)) {
    throw new Error(`No profile "${name}" in ${file}; it has ${Object.keys(profiles).map((known) => `"${known}"`).join(', ') || 'none'}`)
  }
  return checkProfile(file, name, profiles[name])
}
