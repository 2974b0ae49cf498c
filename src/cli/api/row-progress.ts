import { progressBar } from '../progress-bar.js'

interface Counts {
  created: unknown[]
  alreadyCreated: unknown[]
  refused: unknown[]
}

export interface RowProgress {
  update(counts: Counts): void
  stop(): void
}

/** How far the rows of a file have been sent, on stderr when it is a terminal (progress-bar.ts). */
export function rowProgress(total: number, stream: NodeJS.WriteStream = process.stderr): RowProgress {
  const bar = progressBar('{bar} {value}/{total} rows | {created} created, {alreadyCreated} already created, {refused} refused', total, { created: 0, alreadyCreated: 0, refused: 0 }, stream)
  return {
    update(counts) {
      const { created, alreadyCreated, refused } = counts
      bar.update(created.length + alreadyCreated.length + refused.length, {
        created: created.length,
        alreadyCreated: alreadyCreated.length,
        refused: refused.length,
      })
    },
    stop: () => bar.stop(),
  }
}
