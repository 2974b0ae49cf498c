/**
 * `kassa credit-transfers create --csv FILE`: one credit transfer per row, against a running server;
 * running the same file again creates nothing new.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { apiGet, apiServerForFile, jsonOf, startApiServer, UUID, type ApiServer } from './api-server.js'

const SLOW = 120_000
const HEADER = 'sourceAccountId,destinationExternalAccountId,amount,currency,date,reference,externalId'

interface Summary {
  file: string
  sha256: string
  rows: number
  created: Array<{ row: number; id: string }>
  alreadyCreated: Array<{ row: number; id: string }>
  refused: Array<{ row: number; code: string; message: string; status?: number; requestId?: string; details?: Array<{ field: string }> }>
}

interface Transfer {
  id: string
  externalId?: string
  reference: string
  amount: { value: number; currency: string }
}

const server = apiServerForFile()
let directory: string

beforeAll(() => {
  directory = mkdtempSync(join(tmpdir(), 'kassa-cli-csv-'))
})

afterAll(() => {
  rmSync(directory, { recursive: true, force: true })
})

function csvFile(name: string, rows: string[]): string {
  const file = join(directory, name)
  writeFileSync(file, `${[HEADER, ...rows].join('\n')}\n`)
  return file
}

function row(amount: string, reference: string, externalId = '', date = server.today): string {
  return [server.operatingAccountId, server.externalAccountId, amount, 'EUR', date, reference, externalId].join(',')
}

async function transfersWithExternalIds(prefix: string): Promise<Transfer[]> {
  const listed = await apiGet<{ items: Transfer[] }>(server, '/payments/v2/credit-transfers?limit=500')
  return listed.items.filter((transfer) => transfer.externalId?.startsWith(prefix)).sort((a, b) => a.externalId!.localeCompare(b.externalId!))
}

describe('kassa credit-transfers create --csv', { timeout: SLOW }, () => {
  it('creates one transfer per row, amounts in exact minor units; the same file again creates nothing new', async () => {
    const file = csvFile('payments.csv', [row('1250.00', 'Invoice 1', 'csv-a-1'), row('1.15', '"Invoice 2, part 1"', 'csv-a-2'), row('0.07', 'Invoice 3', 'csv-a-3')])
    const first = await server.kassa(['credit-transfers', 'create', '--csv', file])
    expect(first.stderr).toBe('')
    expect(first.code).toBe(0)
    expect(first.stdout).toBe(`3 rows in ${file}: 3 created, 0 already created, 0 refused\n`)
    const transfers = await transfersWithExternalIds('csv-a-')
    expect(transfers.map((transfer) => [transfer.externalId, transfer.amount.value, transfer.reference])).toEqual([
      ['csv-a-1', 125000, 'Invoice 1'],
      ['csv-a-2', 115, 'Invoice 2, part 1'],
      ['csv-a-3', 7, 'Invoice 3'],
    ])

    const again = jsonOf<Summary>(await server.kassa(['credit-transfers', 'create', '--csv', file, '--json']))
    expect(again).toMatchObject({ file, rows: 3, created: [], refused: [], sha256: expect.stringMatching(/^[0-9a-f]{64}$/) })
    expect(again.alreadyCreated).toEqual(transfers.map((transfer, index) => ({ row: index + 1, id: transfer.id })))
    expect(await transfersWithExternalIds('csv-a-')).toHaveLength(3)
    const text = await server.kassa(['credit-transfers', 'create', '--csv', file])
    expect(text.stdout).toBe(`3 rows in ${file}: 0 created, 3 already created, 0 refused\n`)
  })

  it('without externalIds too: the keys come from the file and the row, so a rerun replays rather than duplicates', async () => {
    const file = csvFile('no-external-ids.csv', [row('10.00', 'Same reference'), row('10.00', 'Same reference')])
    const first = jsonOf<Summary>(await server.kassa(['credit-transfers', 'create', '--csv', file, '--json']))
    expect(first.created.map((done) => done.row)).toEqual([1, 2])
    expect(new Set(first.created.map((done) => done.id)).size).toBe(2)
    const again = jsonOf<Summary>(await server.kassa(['credit-transfers', 'create', '--csv', file, '--json']))
    expect(again.created).toEqual([])
    expect(again.alreadyCreated).toEqual(first.created)
  })

  it('a refused row is reported with its row number, the API code and request id; the others are created; exit code 1', async () => {
    const file = csvFile('some-bad.csv', [row('5.00', 'Good 1', 'csv-b-1'), row('5.00', 'Bad date', 'csv-b-2', '2026-02-30'), row('5.005', 'Bad amount', 'csv-b-3'), row('5.00', 'Good 4', 'csv-b-4')])
    const run = await server.kassa(['credit-transfers', 'create', '--csv', file, '--json'])
    expect(run.code).toBe(1)
    expect(run.stderr).toBe('')
    const summary = JSON.parse(run.stdout) as Summary
    expect(summary.created.map((done) => done.row)).toEqual([1, 4])
    expect(summary.refused).toEqual([
      {
        row: 2,
        status: 400,
        code: 'invalid_request',
        message: expect.any(String),
        requestId: expect.stringMatching(UUID),
        details: [expect.objectContaining({ field: 'date' })],
      },
      { row: 3, code: 'invalid_row', message: 'amount "5.005" has more than 2 decimals for EUR, or is too large' },
    ])
    expect((await transfersWithExternalIds('csv-b-')).map((transfer) => transfer.externalId)).toEqual(['csv-b-1', 'csv-b-4'])

    const text = await server.kassa(['credit-transfers', 'create', '--csv', file])
    expect(text.code).toBe(1)
    expect(text.stdout).toMatch(
      new RegExp(
        `^4 rows in ${file}: 0 created, 2 already created, 2 refused\n` +
          `row 2 refused: .+ \\(400, invalid_request, request id ${UUID.source}\\)\n  date: .+\n` +
          'row 3 refused: amount "5.005" has more than 2 decimals for EUR, or is too large \\(invalid_row, not sent\\)\n$',
      ),
    )
  })

  it('an externalId the API already knows is refused with its 409', async () => {
    const file = csvFile('taken.csv', [row('1.00', 'Taken', 'csv-a-1')])
    const summary = JSON.parse((await server.kassa(['credit-transfers', 'create', '--csv', file, '--json'])).stdout) as Summary
    expect(summary.refused).toEqual([{ row: 1, status: 409, code: 'external_id_taken', message: expect.any(String), requestId: expect.stringMatching(UUID), details: [] }])
  })

  it('a file wrong as a whole sends nothing; --csv takes no field options', async () => {
    const file = join(directory, 'misspelt.csv')
    writeFileSync(file, `${HEADER.replace('amount', 'ammount')}\n${row('1.00', 'Never sent', 'csv-c-1')}\n`)
    const misspelt = await server.kassa(['credit-transfers', 'create', '--csv', file])
    expect(misspelt.code).toBe(1)
    expect(misspelt.stdout).toBe('')
    expect(misspelt.stderr).toMatch(new RegExp(`^kassa: ${file}: unknown column "ammount"; the columns are sourceAccountId, `))
    expect(await transfersWithExternalIds('csv-c-')).toEqual([])

    const mixed = await server.kassa(['credit-transfers', 'create', '--csv', file, '--amount', '1.00'])
    expect(mixed).toMatchObject({ code: 1, stdout: '', stderr: 'kassa: --csv takes every field from the file: leave out --body, --idempotency-key and the field options\n' })
    const missing = await server.kassa(['credit-transfers', 'create', '--csv', join(directory, 'nothing-here.csv')])
    expect(missing).toMatchObject({ code: 1, stderr: `kassa: Cannot read ${join(directory, 'nothing-here.csv')}: no such file\n` })
  })
})

describe('kassa credit-transfers create --csv at the rate limit', { timeout: SLOW }, () => {
  let limited: ApiServer
  beforeAll(async () => {
    limited = await startApiServer({ rateLimitPerMinute: 3 })
  }, 60_000)
  afterAll(async () => {
    await limited?.close()
  })

  it('stops at a 429 that outlasts the SDK retries: the rows before it created, none refused', async () => {
    // A key of its own: its first 3 requests in a minute pass, the 4th waits longer than the SDK's 30 s bound.
    const key = await limited.t.newKey('admin')
    const env = { KASSA_ACCESS_KEY: key.accessKey, KASSA_SECRET: key.secret }
    const rows = [1, 2, 3, 4].map((index) => [limited.operatingAccountId, limited.externalAccountId, '2.00', 'EUR', limited.today, `Paced ${index}`, `csv-d-${index}`].join(','))
    const file = join(directory, 'paced.csv')
    writeFileSync(file, `${[HEADER, ...rows].join('\n')}\n`)
    const run = await limited.kassa(['credit-transfers', 'create', '--csv', file, '--json'], { env })
    expect(run.code).toBe(1)
    expect(run.stdout).toBe('')
    expect(run.stderr).toMatch(
      new RegExp(
        '^kassa: stopped after 3 of 4 rows; running the same file again sends the rest and creates none twice\n' +
          `kassa: .+ \\(429, rate_limited, request id ${UUID.source}\\)\n$`,
      ),
    )
    const listed = await limited.t.request({ method: 'GET', url: '/payments/v2/credit-transfers?limit=500', as: await limited.t.newKey('read-only') })
    expect(listed.json<{ items: Transfer[] }>().items.map((transfer) => transfer.externalId).sort()).toEqual(['csv-d-1', 'csv-d-2', 'csv-d-3'])
  })
})
