import { useListPage } from '../../api/use-list-page'
import { accountLabel } from '../../format/account'
import { Timestamp } from '../../format/format'
import { Link } from '../../router/link'
import { DataTable, type Column } from '../../ui/data-table'
import { EmptyState } from '../../ui/notices'
import { PagedList } from '../../ui/paged-list'
import { useOwnAccounts } from '../../accounts/own-accounts'
import { useRoles, useUsers } from '../lists'
import { SettingsLayout } from '../settings-layout'
import type { ApprovalChain } from '../types'
import { ChainSteps, conditionsOf, useNames } from './chain-summary'

/**
 * Approval chains: who must approve which payments. Each chain with its conditions in words and its
 * steps; a chain's name opens it for editing, "New approval chain" makes one.
 */
export function ApprovalChainsPage() {
  const page = useListPage('/iam/v2/approval-chains')
  const roles = useRoles()
  const users = useUsers()
  const accounts = useOwnAccounts()
  const names = useNames(roles.status === 'ready' ? roles.data : [], users.status === 'ready' ? users.data : [])
  const accountName = (id: string) => {
    const account = accounts.status === 'ready' ? accounts.data.find((own) => own.id === id) : undefined
    return account ? accountLabel(account) : `…${id.slice(-6)}`
  }

  const columns: Column<ApprovalChain>[] = [
    {
      header: 'Chain',
      rowHeader: true,
      cell: (chain) => (
        <Link to={`/settings/approval-chains/${chain.id}`} class="primary-text">
          {chain.name}
        </Link>
      ),
    },
    { header: 'Applies to', cell: (chain) => conditionsOf(chain, names, accountName).join(', ') },
    { header: 'Steps', cell: (chain) => <ChainSteps chain={chain} names={names} /> },
    { header: 'Changed', cell: (chain) => <Timestamp at={chain.updated} short /> },
  ]

  return (
    <SettingsLayout
      title="Approval chains"
      actions={
        <Link to="/settings/approval-chains/new" class="button primary">
          New approval chain
        </Link>
      }
    >
      <p class="page-intro">A new payment needs the approvals of every chain that applies to it; a payment no chain applies to waits for an Owner.</p>
      <PagedList
        page={page}
        what="Loading approval chains…"
        empty={
          <EmptyState title="No approval chains yet">
            Every payment waits for an Owner’s approval. Add a chain to say who approves which payments.
          </EmptyState>
        }
      >
        {(items) => <DataTable caption="Approval chains" columns={columns} rows={items} rowKey={(chain) => chain.id} />}
      </PagedList>
    </SettingsLayout>
  )
}
