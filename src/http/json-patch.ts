import fastJsonPatch from 'fast-json-patch'
import { Ajv } from 'ajv'
import addFormats from 'ajv-formats'
import { Type, type Static, type TSchema } from 'typebox'
import { ApiError, type ErrorDetail } from './errors.js'

/**
 * Updates are RFC 6902 JSON Patches, restricted per resource to a whitelist of operations on
 * named paths; the patched document is validated again against the resource's editable shape
 * before anything is stored. One deliberate leniency: see `asApplied`.
 */

export const JsonPatchOperation = Type.Object(
  {
    op: Type.Enum(['add', 'remove', 'replace', 'move', 'copy', 'test']),
    path: Type.String({ description: 'JSON Pointer (RFC 6901)' }),
    value: Type.Optional(Type.Unknown()),
    from: Type.Optional(Type.String()),
  },
  { additionalProperties: false },
)
export type JsonPatchOperation = Static<typeof JsonPatchOperation>

export const JsonPatchBody = Type.Array(JsonPatchOperation, {
  minItems: 1,
  maxItems: 100,
  description: 'A JSON Patch (RFC 6902). Content-Type application/json-patch+json (application/json is accepted too).',
})

export interface PatchRule {
  op: 'add' | 'remove' | 'replace'
  /** Path pattern; `*` stands for one path segment such as a metadata key. */
  path: string
}

function ruleMatches(rule: PatchRule, operation: JsonPatchOperation): boolean {
  if (rule.op !== operation.op) return false
  const pattern = new RegExp(`^${rule.path.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '[^/]+')}$`)
  return pattern.test(operation.path)
}

export function describeRules(rules: readonly PatchRule[]): string {
  return rules.map((rule) => `${rule.op} ${rule.path}`).join(', ')
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/** The member a JSON Pointer (RFC 6901) names inside `document`'s nested objects and arrays; undefined if absent. */
function member(document: unknown, segments: string[]): unknown {
  return segments.reduce<unknown>((node, segment) => (isObject(node) || Array.isArray(node) ? (node as Record<string, unknown>)[segment] : undefined), document)
}

/**
 * The operation as Kassa applies it to `document`. A deliberate leniency for the reference API's clients
 * (issue 13): RFC 6902 §4.3 wants the target of `replace` to exist, but those clients set an optional field or a
 * metadata key that is not there yet with `replace` (the reference's own examples add an alias or a metadata key
 * so), and the reference accepts it. So a `replace` of a member absent from an object that exists is applied as
 * the `add` of that member (§4.1), which is what such a client means. Every other RFC 6902 rule stands: a
 * `replace` inside an object that does not exist or past the end of an array, a `remove` of an absent member,
 * a failing `test` — each is still a 400. Operations are checked against the resource's rules as sent.
 */
function asApplied(document: unknown, operation: JsonPatchOperation): JsonPatchOperation {
  if (operation.op !== 'replace' || !operation.path.startsWith('/')) return operation
  const segments = operation.path.slice(1).split('/').map((segment) => segment.replaceAll('~1', '/').replaceAll('~0', '~'))
  const name = segments.pop()!
  const parent = member(document, segments)
  // A member holding undefined is absent: JSON has no undefined (editable views spread optional columns so).
  return isObject(parent) && (!Object.hasOwn(parent, name) || parent[name] === undefined) ? { ...operation, op: 'add' } : operation
}

const ajv = new Ajv({ allErrors: true, strict: false })
addFormats.default(ajv)

function fieldOf(instancePath: string, property?: unknown): string {
  const path = instancePath.split('/').slice(1)
  if (property !== undefined) path.push(String(property))
  return path.join('.')
}

/**
 * A patcher for one resource: checks each operation against `rules`, applies the patch to the
 * editable view of the resource, then validates the result against `editable`.
 * @throws ApiError invalid_patch (400) naming the operation or field at fault.
 */
export function createPatcher<S extends TSchema>(editable: S, rules: readonly PatchRule[]) {
  const validate = ajv.compile(editable)
  return function applyPatch(document: Static<S>, operations: JsonPatchOperation[]): Static<S> {
    operations.forEach((operation, index) => {
      if (!rules.some((rule) => ruleMatches(rule, operation))) {
        throw new ApiError('invalid_patch', `The operation ${operation.op} ${operation.path} is not allowed`, [
          {
            code: 'operation_not_allowed',
            field: `${index}`,
            error: `${operation.op} ${operation.path} is not allowed; allowed: ${describeRules(rules)}`,
          },
        ])
      }
      if (operation.op !== 'remove' && operation.value === undefined) {
        throw new ApiError('invalid_patch', `The operation ${operation.op} ${operation.path} needs a value`, [
          { code: 'required', field: `${index}.value`, error: 'is required' },
        ])
      }
    })
    let patched = structuredClone(document)
    // One at a time: whether a replace's target exists depends on the operations before it.
    operations.forEach((operation, index) => {
      try {
        patched = fastJsonPatch.applyOperation(patched, asApplied(patched, operation) as fastJsonPatch.Operation, true, true).newDocument
      } catch (error) {
        const message = ((error as { message?: string }).message ?? 'cannot be applied').split('\n')[0] ?? 'cannot be applied'
        throw new ApiError('invalid_patch', `The JSON Patch cannot be applied: ${message}`, [
          { code: 'invalid_operation', field: `${index}`, error: message },
        ])
      }
    })
    if (!validate(patched)) {
      const details: ErrorDetail[] = (validate.errors ?? []).map((e) => ({
        code: 'invalid_value',
        field: fieldOf(e.instancePath, e.params.additionalProperty ?? e.params.missingProperty),
        error: e.message ?? 'is invalid',
      }))
      throw new ApiError('invalid_patch', 'The patched resource is invalid', details)
    }
    return patched
  }
}
