import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'

/**
 * Issue 10, "surprises a new user met": the licence a package declares is the one its LICENSE file holds, and
 * the README shows no import of a package that cannot be installed.
 */
const ROOT = fileURLToPath(new URL('../..', import.meta.url))
const read = (path: string) => readFileSync(join(ROOT, path), 'utf8')
const manifest = (path: string) => JSON.parse(read(path)) as { name: string; license?: string; private?: boolean }

/** The first line of each licence's text as its SPDX id names it. */
const LICENSE_HEADINGS: Record<string, string> = { MIT: 'MIT License' }

describe('LICENSE', () => {
  it('holds the licence package.json declares', () => {
    const { license } = manifest('package.json')
    expect(Object.keys(LICENSE_HEADINGS)).toContain(license)
    expect(read('LICENSE').split('\n')[0]).toBe(LICENSE_HEADINGS[license!])
  })

  it('ships with @kassa/client, the same text under the same licence', () => {
    expect(manifest('packages/client/package.json').license).toBe(manifest('package.json').license)
    expect(read('packages/client/LICENSE')).toBe(read('LICENSE'))
  })
})

describe('README', () => {
  it('imports from the server package only if it can be installed', () => {
    const server = manifest('package.json')
    const markdown = ['README.md', ...readdirSync(join(ROOT, 'docs')).filter((file) => file.endsWith('.md')).map((file) => `docs/${file}`)]
    const importing = new RegExp(`from ['"]${server.name}(/[^'"]*)?['"]|require\\(['"]${server.name}['"]\\)|npm (install|i) ${server.name}\\b`)
    // The pattern finds what the README once showed.
    expect(importing.test("import { buildApp } from 'kassa'")).toBe(true)
    expect(importing.test('npm install kassa')).toBe(true)
    for (const file of markdown) {
      if (server.private) expect(importing.exec(read(file))?.[0], file).toBeUndefined()
    }
    // The SDK is what the README shows instead, and it is installable.
    expect(read('README.md')).toContain("from '@kassa/client'")
    expect(manifest('packages/client/package.json').private).toBeUndefined()
  })
})
