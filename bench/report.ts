/** The results as a console table and as this benchmark's section of docs/benchmarks.md. */
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import type { LoadSettings, Measurement } from './load.js'
import type { Machine } from './machine.js'

export interface Row {
  name: string
  backend: string
  kassa: Measurement
  bare: Measurement
  /** Kassa/bare of every round, in the order measured; the row's figures are the median round's. */
  roundRatios: number[]
}

export interface Report {
  rows: Row[]
  machine: Machine
  settings: LoadSettings
  command: string
  date: string
  /** Seconds the whole run took. */
  elapsed: number
  /** Counterparties created before measuring. */
  seeded: number
  /** Bare-then-Kassa measurement pairs per scenario. */
  rounds: number
  /** 1-minute load averages at the start and the end: other work on the host skews absolute figures. */
  load: [number, number]
}

/** Kassa's throughput as a fraction of the bare handler's. */
export function ratio(row: Row): number {
  return row.kassa.requestsPerSecond / row.bare.requestsPerSecond
}

const TARGET_NAME = 'GET counterparty by id'
/** Issue 14: an authenticated GET by id stays ≥ 50% of the bare handler on SQLite, reaches ≥ 25% on PostgreSQL. */
function targetRatio(backend: string): number {
  return backend.startsWith('PostgreSQL') ? 0.25 : 0.5
}

const reqs = (m: Measurement) => Math.round(m.requestsPerSecond).toLocaleString('en-US')
const ms = (value: number) => `${value} ms`
const percent = (value: number) => `${(value * 100).toFixed(0)}%`
const cpu = (m: Measurement) => (m.cpuPerRequest === undefined ? '–' : m.cpuPerRequest.toFixed(0))

/** Bare CPU time per request over Kassa's: the throughput ratio the servers would reach if each had a core to itself. */
function cpuRatio(row: Row): string {
  const { kassa, bare } = row
  return kassa.cpuPerRequest && bare.cpuPerRequest ? percent(bare.cpuPerRequest / kassa.cpuPerRequest) : '–'
}

function cells(row: Row): string[] {
  return [
    row.name,
    row.backend,
    reqs(row.kassa),
    ms(row.kassa.latencyP50),
    ms(row.kassa.latencyP99),
    reqs(row.bare),
    ms(row.bare.latencyP50),
    ms(row.bare.latencyP99),
    percent(ratio(row)),
    row.roundRatios.map(percent).join(' '),
    `${cpu(row.kassa)} / ${cpu(row.bare)}`,
    cpuRatio(row),
  ]
}

const HEADER = ['Benchmark', 'Backend', 'Kassa req/s', 'p50', 'p99', 'Bare req/s', 'p50', 'p99', 'Kassa/bare', 'Rounds', 'CPU µs/req K / B', 'CPU B/K']

export function targetVerdicts(rows: Row[]): string[] {
  return rows
    .filter((row) => row.name === TARGET_NAME)
    .map((row) => {
      const target = targetRatio(row.backend)
      const met = ratio(row) >= target
      return `${row.name} (${row.backend}) at ${percent(ratio(row))} of the bare handler: target ≥ ${percent(target)} ${met ? 'met' : 'NOT met'}`
    })
}

export function consoleTable(rows: Row[]): string {
  const table = [HEADER, ...rows.map(cells)]
  const widths = HEADER.map((_, column) => Math.max(...table.map((line) => line[column]!.length)))
  const line = (values: string[]) =>
    values.map((value, column) => (column < 2 ? value.padEnd(widths[column]!) : value.padStart(widths[column]!))).join('  ')
  return [line(HEADER), widths.map((width) => '-'.repeat(width)).join('  '), ...rows.map((row) => line(cells(row)))].join('\n')
}

function markdownTable(rows: Row[]): string {
  const line = (values: string[]) => `| ${values.join(' | ')} |`
  return [line(HEADER), line(HEADER.map((_, column) => (column < 2 ? '---' : '---:'))), ...rows.map((row) => line(cells(row)))].join('\n')
}

export const SECTION_ID = 'issue-2-foundation'
const BEGIN = `<!-- bench:${SECTION_ID}:begin (written by npm run bench; edits inside are overwritten) -->`
const END = `<!-- bench:${SECTION_ID}:end -->`

function section(report: Report): string {
  const { machine, settings } = report
  return [
    BEGIN,
    '## Foundation: counterparties against a bare Fastify handler (issues 2 and 14)',
    '',
    `Run \`${report.command}\` on ${report.date} (${Math.round(report.elapsed)} s in all), commit ${machine.commit}.`,
    '',
    `- Machine: ${machine.cpus} CPUs (\`nproc\`; ${machine.cpuModel}), ${machine.memoryGiB} GiB memory, ${machine.os}`,
    `- Node ${machine.node}, Fastify ${machine.fastify}, autocannon ${machine.autocannon}; load generator and servers share the machine`,
    `- Load: ${settings.connections} connections, ${settings.warmup} s warm-up then ${settings.duration} s measured, no pipelining;`,
    `  ${report.rounds} rounds per line, each the bare handler then Kassa back to back; the line shows the round with the median ratio;`,
    `  host load average ${report.load[0].toFixed(1)} at the start, ${report.load[1].toFixed(1)} at the end (other work on the host lowers both sides' req/s)`,
    '- Kassa: `kassa serve` compiled (`bin/kassa.js` on dist/, as `npm start` runs it) — one process, or two (`KASSA_WORKERS=2`, node:cluster on one port) on',
    '  the PostgreSQL line that says so — LOG_LEVEL silent, rate limit on (never reached), background workers as in production',
    `  (idle), HTTP Basic auth of a sandbox owner key on every request, ${report.seeded} counterparties seeded over the API (one IBAN`,
    '  account each); a fresh database per line of backends. GET by id and the list page re-read the same data, so on',
    '  SQLite they are answered from the read cache (`src/db/read-cache.ts`: one `PRAGMA data_version` per request, the body',
    '  serialized once); PostgreSQL reads every time',
    '- Bare: a Fastify server in its own process answering the same routes with the same JSON bodies (captured from Kassa,',
    '  serialized per request) — no hooks, auth, validation or database',
    '- POST: every request carries a new Idempotency-Key and a distinct body, so each one creates a counterparty, its account and',
    '  two events and stores the idempotent response',
    '',
    markdownTable(report.rows),
    '',
    'Latencies are autocannon\'s (whole milliseconds). **Kassa/bare** is the ratio of requests per second, the figure the',
    'target is stated in (the median round; **Rounds** lists every round\'s). **CPU µs/req** is each server process\'s CPU time (user + system) per answered request, and',
    '**CPU B/K** the bare handler\'s over Kassa\'s: the throughput ratio if each server had a core to itself and the load',
    'generator were free. It moves far less than req/s when other processes compete for the CPUs. It counts all of',
    '`kassa serve`\'s processes (from /proc), not the database server\'s own work.',
    '',
    ...targetVerdicts(report.rows).map((verdict) => `**Target:** ${verdict}.`),
    END,
  ].join('\n')
}

const PREAMBLE = `# Benchmarks

Performance is measured here, not timed in tests. Each benchmark lives in \`bench/\`, reports its
figures as ratios against a baseline measured in the same run on the same machine, and writes its
latest figures into its own section below (\`npm run bench\` rewrites only the section between its
markers; text outside the markers is kept). Absolute numbers move with the machine; compare ratios.
`

/** Replaces this benchmark's section in `path`, or adds it, keeping everything else. */
export function writeSection(path: string, report: Report): void {
  const current = existsSync(path) ? readFileSync(path, 'utf8') : PREAMBLE
  const start = current.indexOf(BEGIN.slice(0, BEGIN.indexOf(' ')))
  const end = current.indexOf(END)
  if (start >= 0 && end > start) {
    writeFileSync(path, `${current.slice(0, start)}${section(report)}${current.slice(end + END.length)}`)
    return
  }
  // First run: issue 2's section goes before the other benchmarks' sections.
  const firstSection = current.indexOf('<!-- bench:')
  writeFileSync(
    path,
    firstSection >= 0
      ? `${current.slice(0, firstSection)}${section(report)}\n\n${current.slice(firstSection)}`
      : `${current.trimEnd()}\n\n${section(report)}\n`,
  )
}

/**
 * Any benchmark's section: re-reads `path` right before writing and replaces only what lies between the
 * `bench:<id>` markers (or appends the section with its markers), keeping everything else.
 */
export function writeMarkedSection(path: string, id: string, command: string, text: string): void {
  const begin = `<!-- bench:${id}:begin (written by ${command}; edits inside are overwritten) -->`
  const end = `<!-- bench:${id}:end -->`
  const current = existsSync(path) ? readFileSync(path, 'utf8') : PREAMBLE
  const start = current.indexOf(`<!-- bench:${id}:begin`)
  const stop = current.indexOf(end)
  const block = `${begin}\n${text}\n${end}`
  writeFileSync(path, start >= 0 && stop > start ? `${current.slice(0, start)}${block}${current.slice(stop + end.length)}` : `${current.trimEnd()}\n\n${block}\n`)
}
