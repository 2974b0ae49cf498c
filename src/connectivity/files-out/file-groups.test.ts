import { describe, expect, it } from 'vitest'
import type { PaymentInstruction } from '../../financial-data/sandbox/index.js'
import { batchBookingOf, groupKeyOf, isDue, localInstrumentOf, messageIdOf, shortenedName } from './file-groups.js'

const instruction: PaymentInstruction = {
  paymentId: 'p1',
  paymentType: 'CREDIT_TRANSFER',
  organizationId: 'o1',
  accountId: 'a1',
  amount: 100,
  currency: 'EUR',
  executionDate: '2026-11-24',
  counterparty: { name: 'Nordlicht', iban: 'DE89370400440532013000' },
  endToEndId: 'e1',
  scheme: 'SCT',
}

describe('file groups', () => {
  it('puts payments of the same connection, account, kind, scheme and date in one file, and no others', () => {
    const key = groupKeyOf('c1', instruction)
    expect(groupKeyOf('c1', { ...instruction, paymentId: 'p2', amount: 5, counterparty: { name: 'Other', iban: 'NL91ABNA0417164300' } })).toBe(key)
    for (const other of [
      groupKeyOf('c2', instruction),
      groupKeyOf('c1', { ...instruction, accountId: 'a2' }),
      groupKeyOf('c1', { ...instruction, paymentType: 'DIRECT_DEBIT', scheme: 'SDD_CORE' }),
      groupKeyOf('c1', { ...instruction, scheme: 'SCT_INST' }),
      groupKeyOf('c1', { ...instruction, executionDate: '2026-11-25' }),
    ]) {
      expect(other).not.toBe(key)
    }
  })

  it('batch-books all but SCT Inst, and maps the schemes to their local instruments', () => {
    expect([batchBookingOf({ scheme: 'SCT' }), batchBookingOf({ scheme: 'SCT_INST' }), batchBookingOf({ scheme: 'SDD_CORE' })]).toEqual([true, false, true])
    expect(['SCT', 'SCT_INST', 'SDD_CORE', 'SDD_B2B'].map(localInstrumentOf)).toEqual([undefined, 'INST', 'CORE', 'B2B'])
  })

  it('is due once the oldest payment has waited the whole window; a 0-second window at once', () => {
    const oldest = '2026-11-24T10:00:00.000Z'
    expect(isDue(oldest, 300, new Date('2026-11-24T10:04:59.999Z'))).toBe(false)
    expect(isDue(oldest, 300, new Date('2026-11-24T10:05:00.000Z'))).toBe(true)
    expect(isDue(oldest, 0, new Date(oldest))).toBe(true)
  })

  it('makes a 32-character MsgId of SEPA identifier characters from the file id', () => {
    expect(messageIdOf('0196f4c2-8a1b-7c3d-9e4f-0a1b2c3d4e5f')).toBe('0196F4C28A1B7C3D9E4F0A1B2C3D4E5F')
  })

  it('shortens names to 70 characters, counted in Unicode characters, without a trailing space', () => {
    expect(shortenedName('Acme GmbH', 70)).toBe('Acme GmbH')
    const seventy = 'ä'.repeat(70)
    expect(shortenedName(seventy, 70)).toBe(seventy)
    expect(shortenedName(`${'😀'.repeat(69)} and more`, 70)).toBe('😀'.repeat(69))
  })
})
