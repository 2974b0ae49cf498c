import { readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

/**
 * Kassa's version, read from its package.json so that `kassa --version`, the OpenAPI document and the
 * package never disagree. The file is found by walking up from this module: it runs from src/ (tsx) and
 * from dist/src/ (the build).
 */
function readVersion(): string {
  let folder = dirname(fileURLToPath(import.meta.url))
  for (let level = 0; level < 4; level += 1) {
    try {
      const manifest = JSON.parse(readFileSync(join(folder, 'package.json'), 'utf8')) as { name?: string; version?: string }
      if (manifest.name === 'kassa' && typeof manifest.version === 'string') return manifest.version
    } catch {
      // No package.json at this level: look further up.
    }
    folder = dirname(folder)
  }
  throw new Error("Kassa's package.json was not found above its code")
}

export const VERSION = readVersion()
