import { useState } from 'preact/hooks'
import { kassa } from '../api/kassa'
import { problemOf, type Problem } from '../api/problem'
import { Timestamp } from '../format/format'
import { ConfirmDialog } from '../ui/confirm-dialog'
import { DataTable } from '../ui/data-table'
import { ErrorNotice } from '../ui/notices'
import { ShownOnce } from '../ui/shown-once'
import { MAX_SIGNING_KEYS, type Webhook } from './types'

type Key = Webhook['keys'][number]

/**
 * Signing-key rotation: add a key (its secret shown this once), let the endpoint accept both — every
 * delivery carries a signature per key — then retire the old one. The API keeps at most two keys and
 * never fewer than one, so "Add signing key" waits for a retirement, and the last key has no "Retire".
 */
export function SigningKeys({ webhook, onChanged }: { webhook: Webhook; onChanged: () => void }) {
  const [added, setAdded] = useState<string | undefined>(undefined)
  const [retiring, setRetiring] = useState<Key | undefined>(undefined)
  const [problem, setProblem] = useState<Problem | undefined>(undefined)
  const [busy, setBusy] = useState(false)
  const full = webhook.keys.length >= MAX_SIGNING_KEYS

  async function addKey() {
    setBusy(true)
    setProblem(undefined)
    try {
      const { data } = await kassa.POST('/v1/webhooks/{id}/keys', { params: { path: { id: webhook.id } } })
      setAdded(data.signingKey)
      onChanged()
    } catch (error) {
      setProblem(problemOf(error))
    }
    setBusy(false)
  }

  return (
    <section class="section" aria-labelledby="keys-title">
      <div class="section-header">
        <h2 id="keys-title">Signing keys</h2>
        <button type="button" class="button" disabled={busy || full} aria-describedby="keys-rule" onClick={() => void addKey()}>
          Add signing key
        </button>
      </div>
      <p class="field-hint" id="keys-rule">
        {full
          ? 'A webhook holds at most two keys: once your endpoint accepts the new one, retire the old one.'
          : 'To rotate: add a key, let your endpoint accept signatures of both, then retire the old key.'}
      </p>
      {problem && <ErrorNotice problem={problem} title="No key added" />}
      {added && (
        <ShownOnce title="New signing key" secrets={[{ label: 'Signing key', value: added }]} onDone={() => setAdded(undefined)}>
          <p>Deliveries are now signed with every key of the webhook.</p>
        </ShownOnce>
      )}
      <DataTable
        caption="Signing keys"
        rows={webhook.keys}
        rowKey={(key) => key.id}
        columns={[
          { header: 'Key', rowHeader: true, cell: (key: Key) => <code>{key.id}</code> },
          { header: 'Added', cell: (key: Key) => <Timestamp at={key.created} /> },
          {
            header: 'Action',
            cell: (key: Key) =>
              webhook.keys.length > 1 ? (
                <button type="button" class="button" aria-haspopup="dialog" aria-label={`Retire key ${key.id}`} onClick={() => setRetiring(key)}>
                  Retire
                </button>
              ) : (
                <span class="secondary">In use (the only key)</span>
              ),
          },
        ]}
      />
      {retiring && (
        <ConfirmDialog
          title="Retire signing key"
          confirm="Retire key"
          onClose={() => setRetiring(undefined)}
          onReload={onChanged}
          onConfirm={async () => {
            await kassa.DELETE('/v1/webhooks/{id}/keys/{keyId}', { params: { path: { id: webhook.id, keyId: retiring.id } } })
            onChanged()
          }}
        >
          <p>
            Deliveries will no longer be signed with the key added <Timestamp at={retiring.created} />. Retire it once your endpoint checks signatures
            with the other key.
          </p>
        </ConfirmDialog>
      )}
    </section>
  )
}
