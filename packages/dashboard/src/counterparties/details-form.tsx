import { patchResource } from '@kassa/client'
import { useState } from 'preact/hooks'
import { kassa } from '../api/kassa'
import { detailFor, problemOf, type Problem } from '../api/problem'
import { Field } from '../ui/field'
import { WriteProblem } from '../ui/write-problem'
import { detailsPatch, type MetadataRow } from './details-patch'
import type { Counterparty } from './types'

/** The API's limit on metadata entries (Metadata in src/shared/common.schemas.ts). */
const MAX_METADATA = 12

const rowsOf = (metadata: Counterparty['metadata']): MetadataRow[] => Object.entries(metadata).map(([key, value]) => ({ key, value }))

/**
 * The alias and metadata of a counterparty, edited in place and saved as a JSON Patch of what changed,
 * sent with the etag the page read (If-Match): if someone changed the counterparty meanwhile, the API
 * refuses (412) and the person is asked to reload rather than overwrite that change. The page keys the
 * form by the etag it read, so a reload starts a fresh form; a save keeps what was typed (now saved).
 */
export function DetailsForm({ counterparty, onSaved, onReload }: { counterparty: Counterparty; onSaved: (saved: Counterparty) => void; onReload: () => void }) {
  const [alias, setAlias] = useState(counterparty.alias ?? '')
  const [rows, setRows] = useState<MetadataRow[]>(() => rowsOf(counterparty.metadata))
  const [problem, setProblem] = useState<Problem | undefined>(undefined)
  const [busy, setBusy] = useState(false)
  const [saved, setSaved] = useState(false)
  const operations = detailsPatch(counterparty, alias, rows)
  const setRow = (index: number, change: Partial<MetadataRow>) => setRows(rows.map((row, at) => (at === index ? { ...row, ...change } : row)))

  async function save(event: Event) {
    event.preventDefault()
    setBusy(true)
    setProblem(undefined)
    setSaved(false)
    try {
      const updated = await patchResource(kassa, '/payments/v2/counterparties/{id}', {
        params: { path: { id: counterparty.id } },
        etag: counterparty.etag,
        operations,
      })
      onSaved(updated)
      setSaved(true)
    } catch (error) {
      setProblem(problemOf(error))
    }
    setBusy(false)
  }

  return (
    <form class="form-card" onSubmit={save} aria-labelledby="details-title">
      <h2 id="details-title">Alias and metadata</h2>
      {problem && <WriteProblem problem={problem} title="Not saved" onReload={onReload} />}
      <Field label="Alias" hint="The name your team knows them by; empty removes it." error={detailFor(problem, 'alias')?.error}>
        {(control) => <input {...control} maxLength={255} value={alias} onInput={(event) => setAlias(event.currentTarget.value)} />}
      </Field>
      <fieldset class="fieldset">
        <legend>Metadata</legend>
        <p class="field-hint">Up to {MAX_METADATA} entries for your own systems (an ERP supplier number, a cost centre).</p>
        {rows.map((row, index) => (
          <div key={index} class="metadata-row" role="group" aria-label={`Metadata entry ${index + 1}`}>
            <Field label="Key">
              {(control) => <input {...control} class="mono" value={row.key} onInput={(event) => setRow(index, { key: event.currentTarget.value })} />}
            </Field>
            <Field label="Value" error={row.key.trim() ? detailFor(problem, `metadata.${row.key.trim()}`)?.error : undefined}>
              {(control) => <input {...control} maxLength={512} value={row.value} onInput={(event) => setRow(index, { value: event.currentTarget.value })} />}
            </Field>
            <button type="button" class="button quiet" onClick={() => setRows(rows.filter((_, at) => at !== index))}>
              Remove entry {index + 1}
            </button>
          </div>
        ))}
        {rows.length < MAX_METADATA && (
          <button type="button" class="button" onClick={() => setRows([...rows, { key: '', value: '' }])}>
            Add metadata entry
          </button>
        )}
      </fieldset>
      <div class="form-actions">
        <button type="submit" class="button primary" disabled={busy || operations.length === 0}>
          Save
        </button>
        <p class="form-status" role="status">
          {saved ? 'Saved.' : ''}
        </p>
      </div>
    </form>
  )
}
