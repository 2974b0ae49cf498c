import { PageHeader } from './page-header'

/** A section whose page is still to be built: its heading, and what it will hold. */
export function PlaceholderPage({ title, children }: { title: string; children: string }) {
  return (
    <>
      <PageHeader title={title} />
      <p class="page-intro">{children}</p>
    </>
  )
}
