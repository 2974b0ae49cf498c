/**
 * What an audit entry's before/after may never hold (issue 13: "secrets and password hashes never included"):
 * access key secrets, webhook signing keys (`signingKey`: the secret itself), password hashes, TOTP secrets, token digests. Callers pass
 * the resource as the API shows it, which already leaves most out; this is the second line, by member name, at
 * any depth, so a secret added to a resource later is not logged by accident.
 */
const SECRET_NAME = /secret|password|hash|digest|token|otpauth|^signingKey$/i

export const REDACTED = '[REDACTED]'

/** A copy of `value` with every member whose name says secret replaced by REDACTED (booleans kept: they say whether, not what). */
export function redactSecrets(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(redactSecrets)
  if (value === null || typeof value !== 'object') return value
  return Object.fromEntries(
    Object.entries(value).map(([name, member]) => [
      name,
      SECRET_NAME.test(name) && typeof member !== 'boolean' ? REDACTED : redactSecrets(member),
    ]),
  )
}
