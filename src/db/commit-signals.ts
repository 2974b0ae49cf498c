import type { Executor } from './database.js'

/**
 * Signals a transaction raises for what should happen once it has committed (issue 14: the webhook worker is
 * nudged only when a committed transaction enqueued a delivery, not after every write). Raised inside the
 * transaction, heard after its commit, and dropped with a rollback, so a listener never acts on work that is gone.
 */
const raised = new WeakMap<object, Set<string>>()

/** Marks `trx` as having done something `signal`'s listeners wait for; they hear it after the commit. */
export function raiseAfterCommit(trx: Executor, signal: string): void {
  const signals = raised.get(trx)
  if (signals) signals.add(signal)
  else raised.set(trx, new Set([signal]))
}

/** What `trx` has raised so far, forgotten there: a work that shares its transaction with others takes its own. */
export function takeRaised(trx: object): ReadonlySet<string> | undefined {
  const signals = raised.get(trx)
  raised.delete(trx)
  return signals
}

export type CommitListener = () => void
export type CommitSignals = ReturnType<typeof createCommitSignals>

/** The listeners of one database: `committed` is called for each of its committed transactions. */
export function createCommitSignals() {
  const listeners = new Map<string, Set<CommitListener>>()
  return {
    /** Calls `listener` after each commit that raised `signal`; the returned function stops it. */
    on(signal: string, listener: CommitListener): () => void {
      const set = listeners.get(signal) ?? new Set<CommitListener>()
      listeners.set(signal, set.add(listener))
      return () => set.delete(listener)
    },

    /** Tells the listeners of `signals`, raised by work that has committed (takeRaised). */
    heard(signals: ReadonlySet<string> | undefined): void {
      for (const signal of signals ?? []) for (const listener of listeners.get(signal) ?? []) listener()
    },
  }
}
