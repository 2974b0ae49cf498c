import fastJsonPatch from 'fast-json-patch'
import { Ajv } from 'ajv'
import addFormats from 'ajv-formats'
import { Type, type Static, type TSchema } from 'typebox'
import { ApiError, type ErrorDetail } from './errors.js'

/**
 * Updates are RFC 6902 JSON Patches, restricted per resource to a whitelist of operations on
 * named paths; the patched document is validated again against the resource's editable shape
 * before anything is stored.
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
    let patched: Static<S>
    try {
      patched = fastJsonPatch.applyPatch(structuredClone(document), operations as fastJsonPatch.Operation[], true, false)
        .newDocument as Static<S>
    } catch (error) {
      const patchError = error as { index?: number; message?: string }
      const message = (patchError.message ?? 'cannot be applied').split('\n')[0] ?? 'cannot be applied'
      throw new ApiError('invalid_patch', `The JSON Patch cannot be applied: ${message}`, [
        { code: 'invalid_operation', field: `${patchError.index ?? 0}`, error: message },
      ])
    }
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
