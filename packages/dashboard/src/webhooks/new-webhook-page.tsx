import { useState } from 'preact/hooks'
import { kassa } from '../api/kassa'
import { detailFor, problemOf, type Problem } from '../api/problem'
import { Link } from '../router/link'
import { navigate } from '../router/router'
import { CreateForm } from '../ui/create-form'
import { Field } from '../ui/field'
import { PageHeader } from '../ui/page-header'
import { ShownOnce } from '../ui/shown-once'
import { FilterFields, filterBody, type FilterChoice } from './filter-fields'

/**
 * "New webhook": a name, the endpoint's URL and the events it receives. The API decides which URLs it
 * may call (https to public hosts; http and loopback only where the server allows them) and says why it
 * refuses one; created, the first signing key is shown this once.
 */
export function NewWebhookPage() {
  const [name, setName] = useState('')
  const [url, setUrl] = useState('')
  const [choice, setChoice] = useState<FilterChoice>({ credit_transfers: '' })
  const [problem, setProblem] = useState<Problem | undefined>(undefined)
  const [busy, setBusy] = useState(false)
  const [created, setCreated] = useState<{ id: string; signingKey: string } | undefined>(undefined)

  async function create(event: Event) {
    event.preventDefault()
    setBusy(true)
    setProblem(undefined)
    try {
      const { data } = await kassa.POST('/v1/webhooks', { body: { url: url.trim(), filter: filterBody(choice), ...(name.trim() ? { name: name.trim() } : {}) } })
      setCreated({ id: data.id, signingKey: data.keys[0]!.signingKey })
    } catch (error) {
      setProblem(problemOf(error))
      setBusy(false)
    }
  }

  if (created) {
    return (
      <>
        <PageHeader title="New webhook" />
        <ShownOnce title="Webhook created: its signing key" secrets={[{ label: 'Signing key', value: created.signingKey }]} onDone={() => navigate(`/webhooks/${created.id}`)}>
          <p>Your endpoint checks each delivery’s Webhook-Signature header with it (verifyWebhookSignature in @kassa/client).</p>
        </ShownOnce>
      </>
    )
  }

  return (
    <>
      <PageHeader title="New webhook">
        <Link to="/webhooks" class="button">
          Back to webhooks
        </Link>
      </PageHeader>
      <CreateForm name="New webhook" refusal="The webhook was not created" problem={problem} busy={busy} cancelTo="/webhooks" onSubmit={create}>
        <Field label="Name" hint="Optional: what the endpoint is, e.g. “ERP payment status”." error={detailFor(problem, 'name')?.error}>
          {(control) => <input {...control} maxLength={255} value={name} onInput={(event) => setName(event.currentTarget.value)} />}
        </Field>
        <Field label="URL" hint="https to a public host. Kassa refuses private addresses, and checks the URL again before each delivery." error={detailFor(problem, 'url')?.error}>
          {(control) => (
            <input {...control} type="url" class="mono" required placeholder="https://erp.example.com/kassa/webhooks" value={url} onInput={(event) => setUrl(event.currentTarget.value)} />
          )}
        </Field>
        <FilterFields choice={choice} onChange={setChoice} error={detailFor(problem, 'filter')?.error} />
      </CreateForm>
    </>
  )
}
