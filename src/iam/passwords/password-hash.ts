import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto'

/**
 * Passwords are hashed with scrypt (RFC 7914), a memory-hard function, so that a stolen table costs an
 * attacker 32 MiB and ~0.1 s of a core per guess (measured on the 2-core CI machine: see README). The
 * stored form names its parameters and salt — `$scrypt$ln=15,r=8,p=1$<salt>$<hash>` (PHC string format,
 * base64 without padding) — so they can be raised later: `needsRehash` tells when a stored hash is weaker
 * than today's and the next successful sign-in stores it again.
 */
export const SCRYPT_PARAMETERS = { ln: 15, r: 8, p: 1 } as const
const SALT_BYTES = 16
const HASH_BYTES = 32
const FORMAT = /^\$scrypt\$ln=(\d{1,2}),r=(\d{1,2}),p=(\d{1,2})\$([A-Za-z0-9+/]+)\$([A-Za-z0-9+/]+)$/

interface Parsed {
  ln: number
  r: number
  p: number
  salt: Buffer
  hash: Buffer
}

function derive(password: string, salt: Buffer, parameters: { ln: number; r: number; p: number }, length: number): Promise<Buffer> {
  const N = 2 ** parameters.ln
  // Node refuses more than 32 MiB by default; scrypt needs 128·N·r bytes, and a little more.
  const options: ScryptOptions = { N, r: parameters.r, p: parameters.p, maxmem: 256 * N * parameters.r }
  return new Promise((resolve, reject) => {
    scrypt(password.normalize('NFC'), salt, length, options, (error, key) => (error ? reject(error) : resolve(key)))
  })
}

function parse(stored: string): Parsed | undefined {
  const match = FORMAT.exec(stored)
  if (!match) return undefined
  return {
    ln: Number(match[1]),
    r: Number(match[2]),
    p: Number(match[3]),
    salt: Buffer.from(match[4]!, 'base64'),
    hash: Buffer.from(match[5]!, 'base64'),
  }
}

const unpadded = (bytes: Buffer) => bytes.toString('base64').replace(/=+$/, '')

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(SALT_BYTES)
  const hash = await derive(password, salt, SCRYPT_PARAMETERS, HASH_BYTES)
  const { ln, r, p } = SCRYPT_PARAMETERS
  return `$scrypt$ln=${ln},r=${r},p=${p}$${unpadded(salt)}$${unpadded(hash)}`
}

/**
 * Hashes `password` with the stored salt and parameters and compares in constant time.
 * @throws Error when `stored` is not a hash this module wrote (a corrupt row must not read as a wrong password).
 */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const parsed = parse(stored)
  if (!parsed) throw new Error('The stored password hash is not in the $scrypt$ format')
  const presented = await derive(password, parsed.salt, parsed, parsed.hash.length)
  return timingSafeEqual(presented, parsed.hash)
}

/** True when `stored` was hashed with weaker parameters than today's. */
export function needsRehash(stored: string): boolean {
  const parsed = parse(stored)
  return !parsed || parsed.ln < SCRYPT_PARAMETERS.ln || parsed.r < SCRYPT_PARAMETERS.r || parsed.p < SCRYPT_PARAMETERS.p
}

/**
 * A hash no password matches, verified against when the email is unknown so that an unknown email and a
 * wrong password take the same time (no account enumeration by timing).
 */
let unknownUserHash: Promise<string> | undefined
export function hashOfNobody(): Promise<string> {
  unknownUserHash ??= hashPassword(randomBytes(32).toString('base64'))
  return unknownUserHash
}
