import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Writable } from 'node:stream'
import { Command, CommanderError } from 'commander'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { registerImportStatementCommand } from '../../src/cli/import-statement.js'
import { generateCamt053 } from '../fixtures/camt/generate-camt053.js'
import { startTestApp, type TestApp } from '../support/test-app.js'
import { camtFixture, sandboxAccounts, writtenRows } from './statements-helpers.js'

let t: TestApp
let directory: string
let statementFile: string
let operatingIban: string

beforeAll(async () => {
  t = await startTestApp()
  const accounts = await sandboxAccounts(t)
  operatingIban = accounts.operating.iban
  directory = mkdtempSync(join(tmpdir(), 'kassa-statements-'))
  statementFile = join(directory, 'statement.xml')
  writeFileSync(statementFile, camtFixture('camt053-001-02-two-accounts.xml', { operating: accounts.operating.iban, payroll: accounts.payroll.iban }))
})
afterAll(async () => {
  await t.close()
  rmSync(directory, { recursive: true, force: true })
})

/** A stream that collects what is written to it, a terminal or not. */
function stderrStream(isTTY: boolean): { stream: NodeJS.WriteStream; written: () => string } {
  let written = ''
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      written += chunk.toString()
      done()
    },
  })
  return { stream: Object.assign(stream, { isTTY, columns: 120 }) as unknown as NodeJS.WriteStream, written: () => written }
}

/** Runs `kassa import statement …` on the test database (left open afterwards); collects its output and exit code. */
async function kassa(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return kassaWith({}, ...args)
}

async function kassaWith(options: { progress?: NodeJS.WriteStream }, ...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = ''
  let stderr = ''
  const program = new Command('kassa')
    .exitOverride()
    .configureOutput({ writeOut: (text) => (stdout += text), writeErr: (text) => (stderr += text) })
  registerImportStatementCommand(program, {
    openDatabase: async () => ({ ...t.db.database, close: async () => undefined }),
    write: (text) => (stdout += text),
    ...options,
  })
  try {
    await program.parseAsync(['node', 'kassa', 'import', 'statement', ...args])
    return { code: 0, stdout, stderr }
  } catch (error) {
    if (error instanceof CommanderError) return { code: error.exitCode, stdout, stderr }
    throw error
  }
}

describe('kassa import statement FILE', () => {
  it('imports into the only organization there is, then finds everything already present', async () => {
    const first = await kassa(statementFile)
    expect(first).toMatchObject({ code: 0, stderr: '' })
    expect(first.stdout).toContain('Imported camt.053.001.02 KASADEFF-20260302-053-000187: 2 statement(s), 8 transaction(s) booked, 0 already present')
    expect(first.stdout).toContain('20260302-OPERATING-0042')
    expect(first.stdout).toContain('CLBD 2026-03-02 12726.85 EUR (BOOKED/CLOSE)')

    const again = await kassa(statementFile, '--json')
    expect(again.code).toBe(0)
    expect(JSON.parse(again.stdout)).toMatchObject({ statementsFound: 2, transactionsBooked: 0, transactionsAlreadyPresent: 8 })
  })

  it('needs --org once there are several organizations', async () => {
    const other = await t.newOrganization('Second organization')
    const ambiguous = await kassa(statementFile)
    expect(ambiguous.code).toBe(1)
    expect(ambiguous.stderr).toContain('several organizations')

    // The file's IBANs are the first organization's: in the second one they are unknown, and nothing is written.
    const before = await writtenRows(t)
    const rejected = await kassa(statementFile, '--org', other.organizationId)
    expect(rejected.code).toBe(1)
    expect(rejected.stderr).toContain('Stmt[1].Acct.Id.IBAN: no account with IBAN')
    expect(rejected.stderr).toContain('Stmt[2].Acct.Id.IBAN')
    expect(await writtenRows(t)).toEqual(before)

    const named = await kassa(statementFile, '--org', t.owner.organizationId)
    expect(named.code).toBe(0)
    expect(named.stdout).toContain('0 transaction(s) booked, 8 already present')
  })

  it('says so when the organization or the file does not exist', async () => {
    const noOrganization = await kassa(statementFile, '--org', '01900000-0000-7000-8000-000000000000')
    expect(noOrganization).toMatchObject({ code: 1 })
    expect(noOrganization.stderr).toContain('No organization 01900000-0000-7000-8000-000000000000')
    const noFile = await kassa(join(directory, 'missing.xml'), '--org', t.owner.organizationId)
    expect(noFile.code).toBe(1)
    expect(noFile.stderr).toContain('no such file')
  })

  it('shows its progress on a terminal while it reads and books a large statement, then what it booked, skipped and warns of', async () => {
    const large = join(directory, 'large.xml')
    // Dated before every statement imported so far: booked, with warnings.
    writeFileSync(large, generateCamt053({ iban: operatingIban, entries: 1500, bookingDate: '2020-01-06', referencePrefix: 'CLI' }))
    const terminal = stderrStream(true)
    const first = await kassaWith({ progress: terminal.stream }, large, '--org', t.owner.organizationId)
    expect(first.code).toBe(0)
    expect(terminal.written()).toContain('reading and checking: 0.0 of 0.8 MiB')
    // 1,500 entries, 30 of them batches split in three: 1,560 transactions.
    expect(terminal.written()).toMatch(/booking: \d+\/1560 transactions/)
    expect(first.stdout).toContain('1 statement(s), 1560 transaction(s) booked, 0 already present, 2 warning(s)')
    // The account's history starts with the statement imported above, of 2026-03-02.
    expect(first.stdout).toContain(
      'Warnings:\n' +
        '  Stmt[1] before_account_history: Statement CLI-2020-01-06 booked 1560 transactions dated 2020-01-06, before the earliest transaction the account had (2026-03-02)\n' +
        '  Stmt[1] before_last_statement: Statement CLI-2020-01-06 booked 1560 transactions dated 2020-01-06, before the period of statement 20260302-OPERATING-0042 (2026-03-02) imported earlier',
    )

    const pipe = stderrStream(false)
    const again = await kassaWith({ progress: pipe.stream }, large, '--org', t.owner.organizationId)
    expect(again.stdout).toContain('0 transaction(s) booked, 1560 already present, 0 warning(s)')
    expect(again.stdout).not.toContain('Warnings:')
    expect(pipe.written()).toBe('')
  })
})
