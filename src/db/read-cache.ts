import type { Executor } from './database.js'
import { readPathOf } from './read-path.js'

/**
 * Results of reads, reused until the database next commits a change anywhere. Every lookup asks the
 * database whether anything changed since (SQLite's data_version: 2 µs in a loop, about 8 µs under
 * load, a fraction of the reads it saves), so a hit is never staler than a fresh read would be. Where that cannot be asked
 * cheaply (PostgreSQL, a transaction, an in-memory SQLite) every call loads.
 *
 * A hit is returned as is, not wrapped in a promise, so a request answered from memory can stay
 * synchronous. Values are shared between callers: use it for results that are only serialized, never
 * mutated.
 */
export function readCache<T>(capacity = 10_000): (executor: Executor, key: string, load: () => Promise<T>) => T | Promise<T> {
  let version: number | undefined
  let entries = new Map<string, T>()

  return (executor, key, load) => {
    const current = readPathOf(executor)?.dataVersion?.()
    if (current === undefined) return load()
    if (current !== version) {
      entries = new Map()
      version = current
    }
    const hit = entries.get(key)
    if (hit !== undefined) return hit
    // Loaded after `current` was read, so the value is at least that new. If a commit lands
    // meanwhile, the next lookup sees another version and drops it.
    return load().then((value) => {
      if (version === current) {
        if (entries.size >= capacity) entries.delete(entries.keys().next().value!)
        entries.set(key, value)
      }
      return value
    })
  }
}
