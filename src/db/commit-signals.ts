import type { Executor } from './database.js'

/**
 * Signals a transaction raises for what should happen once it has committed (issue 14: the webhook worker is
 * nudged only when a committed transaction enqueued a delivery, not after every write). Raised inside the
 * transaction, heard after its commit, and dropped with a rollback, so a listener never acts on work that is gone.
 */
const raised = new WeakMap<Executor, Set<string>>()

/** Marks `trx` as having done something `signal`'s listeners wait for; they hear it after the commit. */
export function raiseAfterCommit(trx: Executor, signal: string): void {
  const signals = raised.get(trx)
  if (signals) signals.add(signal)
  else raised.set(trx, new Set([signal]))
}

export type CommitListener = () => void

/** The listeners of one database: `run` wraps each of its transactions. */
export function createCommitSignals() {
  const listeners = new Map<string, Set<CommitListener>>()
  return {
    /** Calls `listener` after each commit that raised `signal`; the returned function stops it. */
    on(signal: string, listener: CommitListener): () => void {
      const set = listeners.get(signal) ?? new Set<CommitListener>()
      listeners.set(signal, set.add(listener))
      return () => set.delete(listener)
    },

    /** Runs one transaction (`begin` runs `work` in it and commits), then tells the listeners of what it raised. */
    async run<Trx extends Executor, T>(begin: (work: (trx: Trx) => Promise<T>) => Promise<T>, work: (trx: Trx) => Promise<T>): Promise<T> {
      let transaction: Trx | undefined
      const result = await begin((trx) => {
        transaction = trx
        return work(trx)
      })
      for (const signal of raised.get(transaction!) ?? []) for (const listener of listeners.get(signal) ?? []) listener()
      return result
    },
  }
}
