import type { ComponentChildren, TargetedMouseEvent } from 'preact'
import { href, navigate } from './router'

interface LinkProps {
  to: string
  children: ComponentChildren
  class?: string
  'aria-current'?: 'page' | undefined
}

/**
 * A link to a dashboard path. A plain click moves inside the page (no reload); a click with a modifier,
 * or the middle button, is left to the browser, so "open in new tab" works as on any link.
 */
export function Link({ to, children, ...rest }: LinkProps) {
  function follow(event: TargetedMouseEvent<HTMLAnchorElement>) {
    if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return
    event.preventDefault()
    navigate(to)
  }
  return (
    <a href={href(to)} onClick={follow} {...rest}>
      {children}
    </a>
  )
}
