import { useState } from 'preact/hooks'
import { kassa } from '../api/kassa'
import { problemOf, type Problem } from '../api/problem'
import { useLoad } from '../api/use-load'
import { Timestamp } from '../format/format'
import { Link } from '../router/link'
import { navigate } from '../router/router'
import { ConfirmDialog } from '../ui/confirm-dialog'
import { Loadable } from '../ui/loadable'
import { ErrorNotice } from '../ui/notices'
import { PageHeader } from '../ui/page-header'
import { Deliveries } from './deliveries'
import { ResourceTags } from './resource-tags'
import { SigningKeys } from './signing-keys'

/**
 * One webhook: where it posts and what, "Send test event" (a TEST event through the same signed,
 * retried delivery as any other), its signing keys, and its delivery log.
 */
export function WebhookPage({ params }: { params: Record<string, string> }) {
  const id = params.id!
  const loaded = useLoad(async () => (await kassa.GET('/v1/webhooks/{id}', { params: { path: { id } } })).data, [id])
  const [round, setRound] = useState(0)
  const [sent, setSent] = useState('')
  const [problem, setProblem] = useState<Problem | undefined>(undefined)
  const [deleting, setDeleting] = useState(false)

  async function sendTestEvent() {
    setProblem(undefined)
    setSent('')
    try {
      await kassa.POST('/v1/webhooks/{id}:test', { params: { path: { id } }, body: {} })
      setSent('Test event sent: follow it in the deliveries below.')
      setRound((count) => count + 1)
    } catch (error) {
      setProblem(problemOf(error))
    }
  }

  return (
    <Loadable state={loaded} what="Loading the webhook…">
      {(webhook) => (
        <>
          <PageHeader title={webhook.name ?? 'Webhook'}>
            <Link to="/webhooks" class="button">
              All webhooks
            </Link>
            <button type="button" class="button primary" onClick={() => void sendTestEvent()}>
              Send test event
            </button>
            <button type="button" class="button" aria-haspopup="dialog" onClick={() => setDeleting(true)}>
              Delete
            </button>
          </PageHeader>
          <dl class="facts">
            <div>
              <dt>URL</dt>
              <dd class="mono">{webhook.url}</dd>
            </div>
            <div>
              <dt>Events of</dt>
              <dd>
                <ResourceTags filter={webhook.filter} />
              </dd>
            </div>
            <div>
              <dt>Created</dt>
              <dd>
                <Timestamp at={webhook.created} />
              </dd>
            </div>
          </dl>
          <p class={sent ? 'notice success' : 'visually-hidden'} role="status">
            {sent}
          </p>
          {problem && <ErrorNotice problem={problem} title="No test event sent" />}
          <SigningKeys webhook={webhook} onChanged={loaded.reload} />
          <Deliveries webhookId={webhook.id} round={round} />
          {deleting && (
            <ConfirmDialog
              title="Delete webhook"
              confirm="Delete"
              onClose={() => setDeleting(false)}
              onConfirm={async () => {
                await kassa.DELETE('/v1/webhooks/{id}', { params: { path: { id } } })
                navigate('/webhooks')
              }}
            >
              <p>Kassa stops sending events to {webhook.url}, and cancels the deliveries still pending.</p>
            </ConfirmDialog>
          )}
        </>
      )}
    </Loadable>
  )
}
