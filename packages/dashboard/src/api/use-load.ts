import { useCallback, useEffect, useRef, useState } from 'preact/hooks'
import { problemOf, type Problem } from './problem'

/** A read in progress, failed, or done. */
export type Loaded<T> = { status: 'loading' } | { status: 'error'; problem: Problem } | { status: 'ready'; data: T }

/**
 * Runs `load` now and whenever a value in `deps` changes; `reload` runs it again. An answer that arrives
 * after a newer load started is dropped, so a slow old page never replaces the one asked for last.
 * A reload keeps the data already shown until the new answer is in (no flash of "Loading…").
 */
export function useLoad<T>(load: () => Promise<T>, deps: readonly unknown[]): Loaded<T> & { reload: () => void } {
  const [state, setState] = useState<Loaded<T>>({ status: 'loading' })
  const [round, setRound] = useState(0)
  const latest = useRef(0)
  const reloading = useRef(false)

  useEffect(() => {
    const mine = ++latest.current
    if (!reloading.current) setState({ status: 'loading' })
    reloading.current = false
    load().then(
      (data) => mine === latest.current && setState({ status: 'ready', data }),
      (error: unknown) => mine === latest.current && setState({ status: 'error', problem: problemOf(error) }),
    )
    // `load` is a new closure on every render: `deps` says when it reads something new.
  }, [...deps, round])

  const reload = useCallback(() => {
    reloading.current = true
    setRound((count) => count + 1)
  }, [])
  return { ...state, reload }
}
