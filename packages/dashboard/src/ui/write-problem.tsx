import type { Problem } from '../api/problem'
import { ErrorNotice } from './notices'

/** The API's answer when If-Match names an etag the resource no longer has (src/http/errors.ts). */
const STALE = 'precondition_failed'

/**
 * A refused change, as ErrorNotice shows it — except a stale etag (412 precondition_failed): someone
 * changed the resource since this page read it, so the person is told so in plain words and offered a
 * reload, to see that change before making theirs (spec: Request headers, If-Match).
 */
export function WriteProblem({ problem, title, onReload }: { problem: Problem; title: string; onReload: () => void }) {
  if (problem.code !== STALE) return <ErrorNotice problem={problem} title={title} />
  const stale = { ...problem, message: 'Someone changed this since you opened it. Reload to see their change, then make yours again.' }
  return (
    <ErrorNotice problem={stale} title="Changed by someone else — reload">
      <button type="button" class="button" onClick={onReload}>
        Reload
      </button>
    </ErrorNotice>
  )
}
