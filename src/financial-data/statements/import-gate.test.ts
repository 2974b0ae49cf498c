import { describe, expect, it } from 'vitest'
import { createImportGate } from './import-gate.js'

describe('createImportGate tryHolding', () => {
  it('runs the work holding the gate, skips a second one meanwhile, and frees the gate after', async () => {
    const gate = createImportGate()
    let release!: () => void
    const first = gate.tryHolding(() => new Promise<string>((resolve) => (release = () => resolve('first'))))
    expect(await gate.tryHolding(async () => 'second')).toBeUndefined()
    release()
    expect(await first).toBe('first')
    expect(await gate.tryHolding(async () => 'third')).toBe('third')
  })

  it('frees the gate when the work fails', async () => {
    const gate = createImportGate()
    await expect(gate.tryHolding(async () => Promise.reject(new Error('disk full')))).rejects.toThrow('disk full')
    expect(await gate.tryHolding(async () => 'after')).toBe('after')
  })
})
