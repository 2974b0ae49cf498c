import type { ComponentChildren } from 'preact'
import { useEffect } from 'preact/hooks'
import { useLoad } from '../api/use-load'
import { StepList } from '../approvals/step-list'
import { Link } from '../router/link'
import { Loadable } from '../ui/loadable'
import { PageHeader } from '../ui/page-header'
import { loadPaymentRecord, SETTLED_STATUSES, type PaymentRecord } from './payment-record'
import { PaymentSummary } from './payment-summary'
import { kindView, type KindView } from './payment-kinds'
import { UnknownKind } from './payments-page'
import { ReconciledTransactions } from './reconciled-transactions'
import { StatusTimeline } from './status-timeline'

/** How often a payment on its way (awaiting approval, at the bank) is read again while the page is shown. */
const FOLLOW_MILLISECONDS = 3_000

function Section({ id, title, children }: { id: string; title: string; children: ComponentChildren }) {
  return (
    <section class="panel" aria-labelledby={id}>
      <h2 id={id}>{title}</h2>
      {children}
    </section>
  )
}

function PaymentDetail({ view, record }: { view: KindView; record: PaymentRecord }) {
  const { payment, events, transactions } = record
  return (
    <>
      <PageHeader title={payment.reference} />
      <div class="detail-grid">
        <div class="detail-main">
          <Section id="payment-summary" title={view.kind === 'CREDIT_TRANSFER' ? 'Credit transfer' : 'Direct debit'}>
            <PaymentSummary payment={payment} />
          </Section>
          <Section id="bank-transaction" title="Bank transaction">
            <ReconciledTransactions payment={payment} transactions={transactions} />
          </Section>
        </div>
        <div class="detail-side">
          <Section id="approval-steps" title="Approval steps">
            <StepList steps={payment.approvalSteps} />
          </Section>
          <Section id="status-timeline" title="Status timeline">
            <StatusTimeline events={events} labelledBy="status-timeline" />
          </Section>
        </div>
      </div>
    </>
  )
}

function Payment({ view, id }: { view: KindView; id: string }) {
  const record = useLoad(() => loadPaymentRecord(view.kind, id), [view.kind, id])
  const following = record.status === 'ready' && !SETTLED_STATUSES.has(record.data.payment.status)

  // A payment on its way is followed: approvals by others and the bank's steps show up as they happen.
  useEffect(() => {
    if (!following) return
    const timer = window.setInterval(() => document.visibilityState === 'visible' && record.reload(), FOLLOW_MILLISECONDS)
    return () => window.clearInterval(timer)
  }, [following, record.reload])

  return (
    <>
      <p class="breadcrumb">
        Payments › <Link to={view.listPath}>{view.plural}</Link>
      </p>
      <Loadable state={record} what="Loading the payment…">
        {(data) => <PaymentDetail view={view} record={data} />}
      </Loadable>
    </>
  )
}

/** A credit transfer or direct debit (/payments/credit-transfers/:id, /payments/direct-debits/:id). */
export function PaymentPage({ params }: { params: Record<string, string> }) {
  const view = kindView(params.kind!)
  if (!view) return <UnknownKind />
  return <Payment key={`${view.kind}/${params.id}`} view={view} id={params.id!} />
}
