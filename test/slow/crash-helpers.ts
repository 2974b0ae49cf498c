import { setTimeout as sleep } from 'node:timers/promises'

/** Small tools of the crash proof (crash.test.ts): waiting, running in a pool, measuring. */

/** `work` for every item, `concurrency` at a time. */
export async function inPool<T, R>(items: readonly T[], concurrency: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = []
  let next = 0
  const worker = async () => {
    while (next < items.length) {
      const index = next++
      results[index] = await work(items[index]!)
    }
  }
  await Promise.all(Array.from({ length: concurrency }, worker))
  return results
}

/** Polls `done` until it holds; throws, naming `what`, after `timeoutMilliseconds`. */
export async function until(what: string, done: () => Promise<boolean>, timeoutMilliseconds = 120_000, pollMilliseconds = 100): Promise<void> {
  const deadline = Date.now() + timeoutMilliseconds
  while (!(await done())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await sleep(pollMilliseconds)
  }
}

/** Wall time per phase of the test, for its closing line. */
export function phaseClock(): { end(name: string): void; summary(): string } {
  const phases: string[] = []
  let mark = performance.now()
  return {
    end(name) {
      const now = performance.now()
      phases.push(`${name} ${((now - mark) / 1000).toFixed(1)} s`)
      mark = now
    },
    summary: () => phases.join(', '),
  }
}

export function percentile(sorted: readonly number[], share: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * share))] ?? 0
}
