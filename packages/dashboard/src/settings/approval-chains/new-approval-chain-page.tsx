import { kassa } from '../../api/kassa'
import { useLoad } from '../../api/use-load'
import { Link } from '../../router/link'
import { navigate } from '../../router/router'
import { Loadable } from '../../ui/loadable'
import { chainChoices } from '../lists'
import { SettingsLayout } from '../settings-layout'
import { emptyDraft } from './chain-draft'
import { ChainForm } from './chain-form'

/** "New approval chain": the form, empty but for one step; created, the list of chains shows it. */
export function NewApprovalChainPage() {
  const choices = useLoad(chainChoices, [])
  return (
    <SettingsLayout
      title="New approval chain"
      actions={
        <Link to="/settings/approval-chains" class="button">
          Back to approval chains
        </Link>
      }
    >
      <Loadable state={choices} what="Loading roles and people…">
        {({ roles, users }) => (
          <ChainForm
            initial={emptyDraft()}
            roles={roles}
            users={users}
            submitLabel="Create"
            onReload={choices.reload}
            submit={async (body) => {
              await kassa.POST('/iam/v2/approval-chains', { body })
              navigate('/settings/approval-chains')
            }}
          />
        )}
      </Loadable>
    </SettingsLayout>
  )
}
