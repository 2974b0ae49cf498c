import type { CompiledQuery, Compilable } from 'kysely'
import type { Dialect, Executor } from './database.js'
import { readPathOf } from './read-path.js'

/** Stands for a named parameter while the query is compiled; cannot collide with a real value. */
const SLOT_PREFIX = '\u0000kassa-slot:'

type Slot<Name> = { name: Name } | { value: unknown }

interface Prepared<Name> {
  compiled: CompiledQuery
  slots: Slot<Name>[]
}

/**
 * A hot read built and compiled once per dialect instead of on every call: Kysely's builder and
 * compiler cost more than SQLite's own work for a primary-key read (docs/benchmarks.md). `build`
 * names its parameters with `parameter(name)`; each run binds `values` in their place. Inside a
 * transaction the query is built as usual, so it sees the transaction's own writes.
 */
export function preparedQuery<Row, Name extends string>(
  build: (db: Executor, parameter: (name: Name) => string) => Compilable<Row>,
): (executor: Executor, values: Record<Name, string>) => Promise<Row[]> {
  const byDialect = new Map<Dialect, Prepared<Name>>()

  function prepare(db: Executor, dialect: Dialect): Prepared<Name> {
    const compiled = build(db, (name) => `${SLOT_PREFIX}${name}`).compile()
    const slots = compiled.parameters.map((value): Slot<Name> =>
      typeof value === 'string' && value.startsWith(SLOT_PREFIX) ? { name: value.slice(SLOT_PREFIX.length) as Name } : { value },
    )
    const prepared = { compiled, slots }
    byDialect.set(dialect, prepared)
    return prepared
  }

  return async (executor, values) => {
    const path = readPathOf(executor)
    if (!path) return (await executor.executeQuery(build(executor, (name) => values[name]))).rows
    const { compiled, slots } = byDialect.get(path.dialect) ?? prepare(executor, path.dialect)
    const parameters = slots.map((slot) => ('name' in slot ? values[slot.name] : slot.value))
    return (await path.read({ ...compiled, parameters })) as Row[]
  }
}
