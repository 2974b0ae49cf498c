import { patchResource } from '@kassa/client'
import { useState } from 'preact/hooks'
import { kassa } from '../../api/kassa'
import { useLoad } from '../../api/use-load'
import { LOCALE } from '../../format/format'
import { numberMarks } from '../../payments/amount-entry'
import { Link } from '../../router/link'
import { navigate } from '../../router/router'
import { ConfirmDialog } from '../../ui/confirm-dialog'
import { Loadable } from '../../ui/loadable'
import { chainChoices } from '../lists'
import { SettingsLayout } from '../settings-layout'
import { chainPatch, draftOf } from './chain-draft'
import { ChainForm } from './chain-form'

/**
 * An approval chain, edited in its form and saved as a JSON Patch of what changed with the etag read (a
 * change made meanwhile is refused, 412, and offered a reload); "Delete" asks first. Payments created
 * before keep the steps they were given.
 */
export function ApprovalChainPage({ params }: { params: Record<string, string> }) {
  const id = params.id!
  const loaded = useLoad(async () => {
    const [choices, chain] = await Promise.all([chainChoices(), kassa.GET('/iam/v2/approval-chains/{id}', { params: { path: { id } } })])
    return { ...choices, chain: chain.data }
  }, [id])
  const [deleting, setDeleting] = useState(false)

  return (
    <Loadable state={loaded} what="Loading the approval chain…">
      {({ chain, roles, users }) => (
        <SettingsLayout
          title={chain.name}
          actions={
            <>
              <Link to="/settings/approval-chains" class="button">
                All approval chains
              </Link>
              <button type="button" class="button" aria-haspopup="dialog" onClick={() => setDeleting(true)}>
                Delete
              </button>
            </>
          }
        >
          <p class="page-intro">Changes apply to payments created from now on; payments waiting for approval keep the steps they were given.</p>
          <ChainForm
            key={chain.etag}
            initial={draftOf(chain, numberMarks(LOCALE))}
            roles={roles}
            users={users}
            submitLabel="Save"
            onReload={loaded.reload}
            submit={async (body) => {
              await patchResource(kassa, '/iam/v2/approval-chains/{id}', { params: { path: { id } }, etag: chain.etag, operations: chainPatch(chain, body) })
              navigate('/settings/approval-chains')
            }}
          />
          {deleting && (
            <ConfirmDialog
              title="Delete approval chain"
              confirm="Delete"
              onClose={() => setDeleting(false)}
              onReload={() => {
                setDeleting(false)
                loaded.reload()
              }}
              onConfirm={async () => {
                await kassa.DELETE('/iam/v2/approval-chains/{id}', { params: { path: { id }, header: { 'if-match': chain.etag } } })
                navigate('/settings/approval-chains')
              }}
            >
              <p>New payments stop getting the steps of “{chain.name}”. Payments already waiting keep them.</p>
            </ConfirmDialog>
          )}
        </SettingsLayout>
      )}
    </Loadable>
  )
}
