import { execFile } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, describe, expect, it } from 'vitest'
import { OPENAPI_PATH } from '../../scripts/openapi-document.js'

/**
 * docs/openapi.json passes Redocly's recommended rules (redocly.yaml), as a client developer's first
 * `npx @redocly/cli lint` would run them (issue 10: it once gave 1 error and 77 warnings).
 */

const ROOT = fileURLToPath(new URL('../..', import.meta.url))
const REDOCLY = join(ROOT, 'node_modules', '.bin', 'redocly')

interface LintReport {
  totals: { errors: number; warnings: number; ignored: number }
  problems: Array<{ ruleId: string; severity: string; message: string; location: Array<{ pointer?: string }> }>
}

/** `redocly lint --format=json` with the repository's redocly.yaml; without a file, the document it names. */
function lint(file?: string): Promise<LintReport> {
  return new Promise((resolve, reject) => {
    const args = ['lint', ...(file ? [file] : []), '--format=json']
    // No telemetry and no update check: a test must not talk to Redocly. The CLI's Node 20 banner goes to stderr.
    const env = { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' }
    // The exit code is 1 when there are errors: the JSON report on stdout is what is asserted.
    execFile(REDOCLY, args, { cwd: ROOT, env, maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) => {
      try {
        resolve(JSON.parse(stdout) as LintReport)
      } catch {
        reject(new Error(`redocly lint printed no report (${error?.message ?? 'exit 0'}): ${stderr.slice(-2000)}`))
      }
    })
  })
}

function summary(report: LintReport): string[] {
  return report.problems.map((problem) => `${problem.severity} ${problem.ruleId} ${problem.location[0]?.pointer ?? ''}: ${problem.message}`)
}

const scratch = mkdtempSync(join(tmpdir(), 'kassa-redocly-'))
afterAll(() => rmSync(scratch, { recursive: true, force: true }))

describe('redocly lint, recommended rules', () => {
  it('docs/openapi.json: no errors and no warnings', async () => {
    const report = await lint()
    expect(summary(report)).toEqual([])
    expect(report.totals).toEqual({ errors: 0, warnings: 0, ignored: 0 })
  })

  it('catches what it is there for: no servers, an operation without operationId', async () => {
    const document = JSON.parse(readFileSync(OPENAPI_PATH, 'utf8')) as {
      servers?: unknown[]
      paths: Record<string, Record<string, { operationId?: string }>>
    }
    document.servers = []
    delete document.paths['/payments/v2/credit-transfers']!.get!.operationId
    const broken = join(scratch, 'openapi.json')
    writeFileSync(broken, JSON.stringify(document))
    const report = await lint(broken)
    expect(report.problems.map((problem) => `${problem.severity} ${problem.ruleId}`).sort()).toEqual([
      'error no-empty-servers',
      'warn operation-operationId',
    ])
  })
})
