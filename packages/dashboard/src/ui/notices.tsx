import type { ComponentChildren } from 'preact'
import type { Problem } from '../api/problem'

/** Shown while a read is under way; a polite live region, so screen readers hear it once. */
export function Loading({ what = 'Loading…' }: { what?: string }) {
  return (
    <p class="notice loading" role="status">
      {what}
    </p>
  )
}

/**
 * A failed call: the API's message, its status and code, and the request id to quote to whoever reads
 * Kassa's logs. An alert, so a screen reader announces it as it appears.
 */
export function ErrorNotice({ problem, title = 'Something went wrong', children }: { problem: Problem; title?: string; children?: ComponentChildren }) {
  return (
    <div class="notice error" role="alert">
      <p class="notice-title">{title}</p>
      <p>{problem.message}</p>
      {problem.details.length > 0 && (
        <ul class="notice-details">
          {problem.details.map((detail) => (
            <li key={`${detail.field}:${detail.code}`}>
              <code>{detail.field}</code> {detail.error}
            </li>
          ))}
        </ul>
      )}
      {(problem.status !== undefined || problem.requestId) && (
        <p class="notice-meta">
          {problem.status !== undefined && <span>HTTP {problem.status}{problem.code ? ` · ${problem.code}` : ''}</span>}
          {problem.requestId && (
            <span>
              Request id <code class="request-id">{problem.requestId}</code>
            </span>
          )}
        </p>
      )}
      {children}
    </div>
  )
}

/** A list with nothing in it: what it would hold, and what to do about that. */
export function EmptyState({ title, children }: { title: string; children?: ComponentChildren }) {
  return (
    <div class="empty-state">
      <p class="empty-title">{title}</p>
      {children && <div class="empty-text">{children}</div>}
    </div>
  )
}
