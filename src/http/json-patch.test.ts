import { describe, expect, it } from 'vitest'
import { Type } from 'typebox'
import { ApiError } from './errors.js'
import { createPatcher, type JsonPatchOperation, type PatchRule } from './json-patch.js'

const Editable = Type.Object(
  {
    legalName: Type.String({ minLength: 1 }),
    alias: Type.Optional(Type.String()),
    address: Type.Optional(Type.Object({ city: Type.Optional(Type.String()) })),
    metadata: Type.Record(Type.String(), Type.String()),
  },
  { additionalProperties: false },
)
const RULES: PatchRule[] = [
  { op: 'replace', path: '/legalName' },
  ...(['add', 'replace', 'remove'] as const).flatMap((op) => [
    { op, path: '/alias' },
    { op, path: '/address' },
    { op, path: '/address/city' },
    { op, path: '/metadata/*' },
  ]),
]
const applyPatch = createPatcher(Editable, RULES)
const document = { legalName: 'Acme GmbH', metadata: { keep: '1' } }

function refusal(operations: JsonPatchOperation[]): ApiError {
  try {
    applyPatch(structuredClone(document), operations)
  } catch (error) {
    if (error instanceof ApiError) return error
    throw error
  }
  throw new Error('the patch was applied')
}

describe('JSON Patch: RFC 6902, with replace of an absent member as the reference accepts it', () => {
  it('sets an absent optional field and an absent metadata key with replace (the leniency)', () => {
    const patched = applyPatch(structuredClone(document), [
      { op: 'replace', path: '/alias', value: 'acme' },
      { op: 'replace', path: '/metadata/costCenter', value: '4711' },
    ])
    expect(patched).toEqual({ legalName: 'Acme GmbH', alias: 'acme', metadata: { keep: '1', costCenter: '4711' } })
  })

  it('takes a member holding undefined for absent, as JSON has no undefined', () => {
    const patched = applyPatch({ ...structuredClone(document), alias: undefined }, [{ op: 'replace', path: '/alias', value: 'acme' }])
    expect(patched.alias).toBe('acme')
  })

  it('replaces a present member as RFC 6902 §4.3 says, and judges each operation after the ones before it', () => {
    const patched = applyPatch(structuredClone(document), [
      { op: 'replace', path: '/metadata/keep', value: '2' },
      { op: 'add', path: '/alias', value: 'first' },
      { op: 'replace', path: '/alias', value: 'second' },
      { op: 'remove', path: '/alias' },
      { op: 'replace', path: '/alias', value: 'third' },
    ])
    expect(patched).toEqual({ legalName: 'Acme GmbH', alias: 'third', metadata: { keep: '2' } })
  })

  it('leaves the document given untouched', () => {
    const original = structuredClone(document)
    applyPatch(original, [{ op: 'replace', path: '/alias', value: 'acme' }])
    expect(original).toEqual(document)
  })

  it('still refuses a replace inside an object that does not exist', () => {
    const error = refusal([{ op: 'replace', path: '/address/city', value: 'Köln' }])
    expect(error.code).toBe('invalid_patch')
    expect(error.details).toEqual([expect.objectContaining({ code: 'invalid_operation', field: '0' })])
  })

  it('still refuses a remove of an absent member, naming the operation', () => {
    const error = refusal([{ op: 'replace', path: '/alias', value: 'acme' }, { op: 'remove', path: '/metadata/absent' }])
    expect(error.details).toEqual([expect.objectContaining({ code: 'invalid_operation', field: '1' })])
  })

  it('checks the rules against the operation as sent: replace is not add where only add is allowed', () => {
    const addOnly = createPatcher(Editable, [{ op: 'add', path: '/alias' }])
    expect(() => addOnly(structuredClone(document), [{ op: 'replace', path: '/alias', value: 'acme' }])).toThrow(/not allowed/)
  })

  it('still validates the result: a replace that sets a member of the wrong type is refused', () => {
    const error = refusal([{ op: 'replace', path: '/alias', value: 42 }])
    expect(error.details).toEqual([expect.objectContaining({ code: 'invalid_value', field: 'alias' })])
  })
})
