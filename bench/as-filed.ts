/**
 * Kassa as it was when issue 14 was filed, for its "≥ 3×" (SQLite) and "≥ 5× today's throughput" (PostgreSQL)
 * targets measured side by side in one run on one machine rather than against the figures the issue quotes from
 * another machine. "Today" is AS_FILED_COMMIT, main just before the first change (791cad4). It is checked out
 * in a detached git worktree under the system's temporary folder and compiled there; it runs on this checkout's
 * node_modules (its package.json pins a subset of ours at the same versions: `git diff 2e4cc7d -- package.json` only
 * adds), by the same harness (kassa-serve.ts), on a scratch database of its own (its migrations are older).
 */
import { execFileSync } from 'node:child_process'
import { existsSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { THIS_CHECKOUT } from './kassa-serve.js'

export const AS_FILED_COMMIT = '2e4cc7d'

/** A built checkout of AS_FILED_COMMIT, and how to remove it. */
export interface AsFiledCheckout {
  root: string
  remove(): void
}

function git(args: string[]): void {
  execFileSync('git', ['-C', THIS_CHECKOUT, ...args], { stdio: ['ignore', 'ignore', 'inherit'] })
}

/**
 * The checkout of AS_FILED_COMMIT, or undefined (with the reason on stderr) when this checkout has no git history
 * to take it from — a shallow clone or an exported tree — or BENCH_AS_FILED=0 asks for none.
 */
export function checkOutAsFiled(): AsFiledCheckout | undefined {
  if (process.env.BENCH_AS_FILED === '0') return undefined
  try {
    git(['cat-file', '-e', `${AS_FILED_COMMIT}^{commit}`])
  } catch {
    process.stderr.write(`commit ${AS_FILED_COMMIT} is not in this checkout's history: no line for Kassa as issue 14 was filed\n`)
    return undefined
  }
  const parent = mkdtempSync(join(tmpdir(), 'kassa-as-filed-'))
  const root = join(parent, 'kassa')
  git(['worktree', 'add', '--detach', root, AS_FILED_COMMIT])
  symlinkSync(join(THIS_CHECKOUT, 'node_modules'), join(root, 'node_modules'))
  return {
    root,
    remove() {
      if (existsSync(root)) git(['worktree', 'remove', '--force', root])
      rmSync(parent, { recursive: true, force: true })
    },
  }
}
