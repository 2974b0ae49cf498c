import type { ComponentChildren } from 'preact'
import { useEffect, useRef } from 'preact/hooks'

/**
 * A page's heading (its one h1) and the actions beside it. The heading takes focus when the page opens,
 * so after following a link a keyboard or screen reader user starts at the new page, not at the old link;
 * the window's title follows it.
 */
export function PageHeader({ title, children }: { title: string; children?: ComponentChildren }) {
  const heading = useRef<HTMLHeadingElement>(null)
  useEffect(() => {
    document.title = `${title} · Kassa`
    heading.current?.focus({ preventScroll: true })
  }, [title])
  return (
    <header class="page-header">
      <h1 tabIndex={-1} ref={heading}>
        {title}
      </h1>
      {children && <div class="page-actions">{children}</div>}
    </header>
  )
}
