import { execFile } from 'node:child_process'
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startClientTestServer, type ClientTestServer } from '../client/client-test-server.js'

/**
 * `npm pack` of packages/client, installed into an empty project as a user would, type-checked against the
 * shipped declarations and run on plain Node 20 against a started server: the SDK walkthrough from the
 * installed copy. Slow (a build, an install, a compile), hence here.
 */
const run = promisify(execFile)
const ROOT = fileURLToPath(new URL('../../', import.meta.url))
const CLIENT = join(ROOT, 'packages/client')
const TSC = join(ROOT, 'node_modules/typescript/bin/tsc')

let server: ClientTestServer
let work: string
beforeAll(async () => {
  server = await startClientTestServer()
  work = mkdtempSync(join(tmpdir(), 'kassa-client-package-'))
})
afterAll(async () => {
  await server?.close()
  if (work) rmSync(work, { recursive: true, force: true })
})

/** The module specifiers a built ES module imports, statically or dynamically. */
function importsOf(source: string): string[] {
  return [...source.matchAll(/(?:\bfrom\s*|\bimport\s*\(?\s*)['"]([^'"]+)['"]/g)].map((match) => match[1]!)
}

describe('the @kassa/client tarball', () => {
  it('installs into an empty project, compiles against its types, and runs the walkthrough on Node 20', async () => {
    const { stdout: packed } = await run('npm', ['pack', '--silent', '--pack-destination', work], { cwd: CLIENT })
    const tarball = join(work, packed.trim().split('\n').at(-1)!)
    const { stdout: listing } = await run('tar', ['-tzf', tarball])
    const files = listing.trim().split('\n')
    expect(files).toEqual(
      expect.arrayContaining(['package/package.json', 'package/README.md', 'package/LICENSE', 'package/dist/index.js', 'package/dist/index.d.ts', 'package/examples/first-payment.ts']),
    )
    expect(files.filter((file) => !/^package\/(dist|examples)\/|^package\/(package\.json|README\.md|LICENSE)$/.test(file))).toEqual([])
    // The compiler's incremental state is a build artefact, not part of the package.
    expect(files.filter((file) => file.endsWith('.tsbuildinfo'))).toEqual([])
    const { stdout: license } = await run('tar', ['-xzOf', tarball, 'package/LICENSE'])
    expect(license).toBe(readFileSync(join(ROOT, 'LICENSE'), 'utf8'))

    const project = join(work, 'project')
    mkdirSync(project)
    writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'sdk-user', private: true, type: 'module' }))
    await run('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', tarball], { cwd: project })
    const installed = join(project, 'node_modules/@kassa/client')

    // What a browser loads: our modules import each other and openapi-fetch, nothing of Node's.
    const dist = join(installed, 'dist')
    const imports = readdirSync(dist)
      .filter((file) => file.endsWith('.js'))
      .flatMap((file) => importsOf(readFileSync(join(dist, file), 'utf8')))
    expect(imports.filter((specifier) => !specifier.startsWith('./') && !specifier.startsWith('../'))).toEqual(['openapi-fetch'])
    expect(imports.some((specifier) => specifier.startsWith('node:'))).toBe(false)
    expect(importsOf(readFileSync(join(project, 'node_modules/openapi-fetch/dist/index.mjs'), 'utf8'))).toEqual([])

    copyFileSync(join(installed, 'examples/first-payment.ts'), join(project, 'first-payment.ts'))
    const tsconfig = {
      compilerOptions: {
        target: 'ES2022',
        module: 'NodeNext',
        moduleResolution: 'NodeNext',
        strict: true,
        skipLibCheck: true,
        typeRoots: [join(ROOT, 'node_modules/@types')],
        types: ['node'],
      },
      files: ['first-payment.ts'],
    }
    writeFileSync(join(project, 'tsconfig.json'), JSON.stringify(tsconfig))
    await run(process.execPath, [TSC, '-p', project])

    const { stdout } = await run(process.execPath, [join(project, 'first-payment.js')], {
      cwd: project,
      env: { PATH: process.env.PATH, KASSA_URL: server.baseUrl, KASSA_ACCESS_KEY: server.t.owner.accessKey, KASSA_SECRET: server.t.owner.secret },
    })
    const lines = stdout.trim().split('\n')
    expect(lines).toContain('2. retried: same id true, replayed true')
    expect(lines).toContain('   status: RECONCILED')
    expect(lines).toContain('   events: CREATED, FULLY_APPROVED, PENDING_SUBMISSION, SENT_TO_BANK, ACCEPTED_BY_BANK, EXECUTED, RECONCILED')
    expect(lines.filter((line) => line.startsWith('webhook:'))).toHaveLength(7)
    expect(lines.filter((line) => line.startsWith('webhook:')).every((line) => line.endsWith('(signature ok)'))).toBe(true)
  })
})
