import type { ComponentChildren } from 'preact'
import type { ListPage } from '../api/use-list-page'
import type { Loaded } from '../api/use-load'
import { Loadable } from './loadable'
import { Pager } from './pager'

/**
 * One page of a list (useListPage), as every list shows it: Loadable's faces while it is read, then its
 * items (`children`) — or `empty`, where given, when there are none — and the Pager under them.
 */
export function PagedList<Item>({
  page,
  what,
  empty,
  children,
}: {
  page: Loaded<ListPage<Item>> & { reload: () => void }
  what: string
  empty?: ComponentChildren
  children: (items: Item[]) => ComponentChildren
}) {
  return (
    <Loadable state={page} what={what}>
      {({ items, nextToken }) => (
        <>
          {items.length === 0 && empty !== undefined ? empty : children(items)}
          <Pager nextToken={nextToken} shown={items.length} />
        </>
      )}
    </Loadable>
  )
}
