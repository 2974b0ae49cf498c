import { Command } from 'commander'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { registerSandboxCommands } from '../../src/cli/sandbox-commands.js'
import { addDays } from '../../src/shared/calendar.js'
import { startTestApp, type TestApp } from '../support/test-app.js'
import { bankToday, bookedNow, ledgerProblems, liveOrganization, sandboxAccounts } from './sandbox-helpers.js'

let t: TestApp
beforeAll(async () => {
  // No payment worker: its processDue would move these banks' clocks in the background.
  t = await startTestApp({ paymentWorkerIntervalMilliseconds: false })
})
afterAll(() => t.close())

/** Runs `kassa sandbox …` against the test database; resolves with what it printed, rejects with what it complained of. */
async function kassa(...args: string[]): Promise<string> {
  let output = ''
  const program = new Command('kassa').exitOverride().configureOutput({ writeOut: () => undefined, writeErr: () => undefined })
  registerSandboxCommands(program, { withDatabase: (work) => work(t.db.database), write: (text) => (output += text) })
  await program.parseAsync(['node', 'kassa', 'sandbox', ...args])
  return output
}

describe('kassa sandbox', () => {
  it('shows and advances the clock', async () => {
    const org = t.owner.organizationId
    const today = await bankToday(t.db.database, org)
    expect(JSON.parse(await kassa('clock', '--org', org, '--json'))).toMatchObject({ organizationId: org, today })
    expect(await kassa('advance', '--org', org, '--days', '2')).toBe(`today: ${addDays(today, 2)} (was ${today})\n`)
    expect(JSON.parse(await kassa('advance', '--org', org, '--to', addDays(today, 3), '--json'))).toMatchObject({ today: addDays(today, 3), statusChanges: [] })
    expect(await bankToday(t.db.database, org)).toBe(addDays(today, 3))
  })

  it('injects a transaction in the account currency', async () => {
    const org = t.owner.organizationId
    const [account] = await sandboxAccounts(t.db.database, org)
    const before = await bookedNow(t.db.database, account!.id)
    const printed = JSON.parse(
      await kassa('inject', '--org', org, '--account', account!.id, '--amount', '-42.50', '--description', 'Coffee beans',
        '--counterparty-name', 'Rösterei', '--counterparty-iban', 'DE89 3704 0044 0532 0130 00', '--json'),
    )
    expect(printed).toMatchObject({ accountId: account!.id, amount: `-42.50 ${account!.currency}` })
    expect(await bookedNow(t.db.database, account!.id)).toBe(before - 4_250)
    expect(await ledgerProblems(t.db.database, org)).toEqual([])
  })

  it('refuses what the API refuses, saying why', async () => {
    const org = t.owner.organizationId
    const [account] = await sandboxAccounts(t.db.database, org)
    const live = await liveOrganization(t.db.database)
    await expect(kassa('advance', '--org', live.organizationId)).rejects.toThrow('not a sandbox')
    await expect(kassa('advance', '--org', org, '--days', 'two')).rejects.toThrow('whole number')
    await expect(kassa('advance', '--org', org, '--days', '1', '--to', '2030-01-01')).rejects.toThrow('not both')
    await expect(kassa('inject', '--org', org, '--account', account!.id, '--amount', '1.234', '--description', 'x')).rejects.toThrow('decimals')
    await expect(kassa('inject', '--org', org, '--account', account!.id, '--amount', '1', '--currency', 'JPY', '--description', 'x')).rejects.toThrow('currency')
    await expect(kassa('inject', '--org', org, '--account', account!.id, '--amount', '1', '--description', 'x', '--counterparty-iban', 'DE00')).rejects.toThrow('IBAN')
    await expect(kassa('clock', '--org', '01978a3c-0000-7000-8000-00000000dead')).rejects.toThrow('No organization')
  })
})
