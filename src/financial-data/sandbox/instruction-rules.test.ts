import { describe, expect, it } from 'vitest'
import { RETURNING_IBAN } from './bank-codes.js'
import { decideSubmission, dueDays, planDay, type Funds, type InstructionFacts } from './instruction-rules.js'

const TODAY = '2025-06-10'

function instruction(overrides: Partial<InstructionFacts> = {}): InstructionFacts {
  return {
    id: 'i1',
    accountId: 'a1',
    paymentType: 'CREDIT_TRANSFER',
    amount: 1_000,
    currency: 'EUR',
    executionDate: TODAY,
    counterpartyIban: 'DE89370400440532013000',
    counterpartyName: 'Nordlicht Consulting GmbH',
    status: 'PENDING_AT_BANK',
    ...overrides,
  }
}

const funds = (booked: number, reserved = 0): Funds => ({ currency: 'EUR', booked, reserved })

describe('decideSubmission', () => {
  it('accepts a due credit transfer the funds cover and reserves it', () => {
    const account = funds(5_000, 3_000)
    expect(decideSubmission(instruction({ amount: 2_000 }), account, TODAY)).toEqual({ status: 'ACCEPTED' })
    expect(account.reserved).toBe(5_000)
  })

  it('fails AM04 when booked minus reservations is short, and reserves nothing', () => {
    const account = funds(5_000, 3_000)
    expect(decideSubmission(instruction({ amount: 2_001 }), account, TODAY)).toEqual({ status: 'FAILED', reasonCode: 'AM04' })
    expect(account.reserved).toBe(3_000)
  })

  it('lets a future-dated instruction wait without reserving', () => {
    const account = funds(0)
    expect(decideSubmission(instruction({ executionDate: '2025-06-11' }), account, TODAY)).toEqual({ status: 'PENDING_AT_BANK' })
    expect(account.reserved).toBe(0)
  })

  it('treats a past date as due', () => {
    expect(decideSubmission(instruction({ executionDate: '2025-06-01' }), funds(1_000), TODAY).status).toBe('ACCEPTED')
  })

  it('rejects what no bank takes', () => {
    expect(decideSubmission(instruction({ amount: 0 }), funds(5_000), TODAY)).toEqual({ status: 'FAILED', reasonCode: 'AM12' })
    expect(decideSubmission(instruction({ amount: 1.5 }), funds(5_000), TODAY)).toEqual({ status: 'FAILED', reasonCode: 'AM12' })
    expect(decideSubmission(instruction({ currency: 'SEK' }), funds(5_000), TODAY)).toEqual({ status: 'FAILED', reasonCode: 'AM03' })
    expect(decideSubmission(instruction({ counterpartyIban: 'DE00370400440532013000' }), funds(5_000), TODAY)).toEqual({
      status: 'FAILED',
      reasonCode: 'AC01',
    })
  })

  it('rejects the scripted amounts ending in .04 with AC04, whatever the funds', () => {
    expect(decideSubmission(instruction({ amount: 12_04 }), funds(1_000_000), TODAY)).toEqual({ status: 'FAILED', reasonCode: 'AC04' })
    expect(decideSubmission(instruction({ paymentType: 'DIRECT_DEBIT', amount: 4 }), funds(0), TODAY)).toEqual({ status: 'FAILED', reasonCode: 'AC04' })
    expect(decideSubmission(instruction({ amount: 12_40 }), funds(1_000_000), TODAY).status).toBe('ACCEPTED')
  })

  it('needs no funds for a direct debit collection', () => {
    expect(decideSubmission(instruction({ paymentType: 'DIRECT_DEBIT', amount: 9_999 }), funds(0), TODAY)).toEqual({ status: 'ACCEPTED' })
  })
})

describe('planDay', () => {
  it('checks waiting instructions oldest first, then executes what is accepted', () => {
    const account = funds(2_500)
    const instructions = [
      instruction({ id: 'old', amount: 1_500, executionDate: '2025-06-09' }),
      instruction({ id: 'new', amount: 1_500 }),
      instruction({ id: 'small', amount: 1_000 }),
      instruction({ id: 'later', amount: 1, executionDate: '2025-06-11' }),
    ]
    const steps = planDay(TODAY, instructions, new Map([['a1', account]]))
    expect(steps).toEqual([
      { instructionId: 'old', status: 'ACCEPTED' },
      { instructionId: 'new', status: 'FAILED', reasonCode: 'AM04' },
      { instructionId: 'small', status: 'ACCEPTED' },
      { instructionId: 'old', status: 'EXECUTED', booking: { kind: 'EXECUTION', amount: -1_500 } },
      { instructionId: 'small', status: 'EXECUTED', booking: { kind: 'EXECUTION', amount: -1_000 } },
    ])
    expect(account).toEqual({ currency: 'EUR', booked: 0, reserved: 0 })
  })

  it('executes an accepted instruction as its reservation', () => {
    const account = funds(1_000, 1_000)
    const steps = planDay(TODAY, [instruction({ status: 'ACCEPTED' })], new Map([['a1', account]]))
    expect(steps).toEqual([{ instructionId: 'i1', status: 'EXECUTED', booking: { kind: 'EXECUTION', amount: -1_000 } }])
    expect(account).toEqual({ currency: 'EUR', booked: 0, reserved: 0 })
  })

  it('returns payments to the returning IBAN after executing them', () => {
    const account = funds(1_000, 1_000)
    const steps = planDay(TODAY, [instruction({ status: 'ACCEPTED', counterpartyIban: RETURNING_IBAN })], new Map([['a1', account]]))
    expect(steps).toEqual([
      { instructionId: 'i1', status: 'EXECUTED', booking: { kind: 'EXECUTION', amount: -1_000 } },
      { instructionId: 'i1', status: 'RETURNED', reasonCode: 'AC04', booking: { kind: 'RETURN', amount: 1_000 } },
    ])
    expect(account).toEqual({ currency: 'EUR', booked: 1_000, reserved: 0 })
  })

  it('returns payments to a counterparty named with RETURN after executing them, with MD06', () => {
    const account = funds(1_000, 1_000)
    const steps = planDay(TODAY, [instruction({ status: 'ACCEPTED', counterpartyName: 'Return Handelsgesellschaft' })], new Map([['a1', account]]))
    expect(steps.map((step) => [step.status, step.reasonCode])).toEqual([
      ['EXECUTED', undefined],
      ['RETURNED', 'MD06'],
    ])
  })

  it('credits a direct debit collection and debits its return', () => {
    const account = funds(0)
    const steps = planDay(TODAY, [instruction({ paymentType: 'DIRECT_DEBIT', status: 'ACCEPTED', counterpartyIban: RETURNING_IBAN })], new Map([['a1', account]]))
    expect(steps.map((step) => step.booking?.amount)).toEqual([1_000, -1_000])
  })

  it('credits a transfer between two of the organization\'s accounts at this bank the same day', () => {
    const source = funds(5_000)
    const destination = funds(100)
    const steps = planDay(TODAY, [instruction({ status: 'ACCEPTED', counterpartyIban: 'DE02120300000000202051' })], new Map([['a1', source], ['a2', destination]]), new Map([['DE02120300000000202051', 'a2']]))
    expect(steps[0]).toMatchObject({ status: 'EXECUTED', booking: { amount: -1_000 }, credit: { accountId: 'a2', amount: 1_000 } })
    expect(destination.booked).toBe(1_100)
  })

  it('leaves instructions that are not due alone', () => {
    expect(planDay(TODAY, [instruction({ executionDate: '2025-06-11' })], new Map([['a1', funds(5_000)]]))).toEqual([])
  })
})

describe('dueDays', () => {
  it('lists the days on which something can happen, late ones on the first day', () => {
    const instructions = [
      instruction({ id: 'a', executionDate: '2025-06-01', status: 'ACCEPTED' }),
      instruction({ id: 'b', executionDate: '2025-06-12' }),
      instruction({ id: 'c', executionDate: '2025-06-30' }),
      instruction({ id: 'd', executionDate: '2025-06-12', status: 'FAILED' }),
    ]
    expect(dueDays(TODAY, '2025-06-20', instructions)).toEqual([TODAY, '2025-06-12'])
  })
})
