import type { FunctionComponent } from 'preact'
import { AccountPage } from './accounts/account-page'
import { AccountsPage } from './accounts/accounts-page'
import { ImportStatementPage } from './accounts/import-statement-page'
import { ApprovalsPage } from './approvals/approvals-page'
import { CounterpartiesPage } from './counterparties/counterparties-page'
import { CounterpartyPage } from './counterparties/counterparty-page'
import { NewCounterpartyPage } from './counterparties/new-counterparty-page'
import { NewCreditTransferPage } from './payments/new-credit-transfer-page'
import { PaymentPage } from './payments/payment-page'
import { PaymentsPage } from './payments/payments-page'
import { AccessKeysPage } from './settings/access-keys/access-keys-page'
import { ApprovalChainPage } from './settings/approval-chains/approval-chain-page'
import { ApprovalChainsPage } from './settings/approval-chains/approval-chains-page'
import { NewApprovalChainPage } from './settings/approval-chains/new-approval-chain-page'
import { RolesPage } from './settings/roles/roles-page'
import { SignInSettingsPage } from './settings/sign-in/sign-in-settings-page'
import { UsersPage } from './settings/users/users-page'
import { NewWebhookPage } from './webhooks/new-webhook-page'
import { WebhookPage } from './webhooks/webhook-page'
import { WebhooksPage } from './webhooks/webhooks-page'

/** A page and the path it answers ("/payments/credit-transfers/:id" hands `params.id` to the page). */
export interface Route {
  path: string
  Page: FunctionComponent<{ params: Record<string, string> }>
}

/** Every page of the dashboard, first match wins; the navigation's sections are in layout/nav.tsx. */
export const ROUTES: Route[] = [
  { path: '/approvals', Page: ApprovalsPage },
  { path: '/approvals/:kind', Page: ApprovalsPage },
  { path: '/payments', Page: PaymentsPage },
  { path: '/payments/:kind', Page: PaymentsPage },
  { path: '/payments/credit-transfers/new', Page: NewCreditTransferPage },
  { path: '/payments/:kind/:id', Page: PaymentPage },
  { path: '/counterparties', Page: CounterpartiesPage },
  { path: '/counterparties/new', Page: NewCounterpartyPage },
  { path: '/counterparties/:id', Page: CounterpartyPage },
  { path: '/accounts', Page: AccountsPage },
  { path: '/accounts/import', Page: ImportStatementPage },
  { path: '/accounts/:id', Page: AccountPage },
  { path: '/webhooks', Page: WebhooksPage },
  { path: '/webhooks/new', Page: NewWebhookPage },
  { path: '/webhooks/:id', Page: WebhookPage },
  // Settings opens at its first part, the users.
  { path: '/settings', Page: UsersPage },
  { path: '/settings/users', Page: UsersPage },
  { path: '/settings/roles', Page: RolesPage },
  { path: '/settings/approval-chains', Page: ApprovalChainsPage },
  { path: '/settings/approval-chains/new', Page: NewApprovalChainPage },
  { path: '/settings/approval-chains/:id', Page: ApprovalChainPage },
  { path: '/settings/access-keys', Page: AccessKeysPage },
  { path: '/settings/sign-in', Page: SignInSettingsPage },
]

/** Where /dashboard itself leads: the work waiting for the person. */
export const HOME = '/approvals'
