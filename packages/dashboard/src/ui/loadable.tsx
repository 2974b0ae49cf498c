import type { ComponentChildren } from 'preact'
import type { Loaded } from '../api/use-load'
import { ErrorNotice, Loading } from './notices'

/**
 * The three faces of a read, the same on every page: "Loading…", the error with its request id and a
 * "Try again" button, or the data rendered by `children`.
 */
export function Loadable<T>({ state, what, children }: { state: Loaded<T> & { reload: () => void }; what?: string; children: (data: T) => ComponentChildren }) {
  if (state.status === 'loading') return <Loading what={what} />
  if (state.status === 'error') {
    return (
      <ErrorNotice problem={state.problem} title="Could not load this page">
        <button type="button" class="button" onClick={state.reload}>
          Try again
        </button>
      </ErrorNotice>
    )
  }
  return <>{children(state.data)}</>
}
