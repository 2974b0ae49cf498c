import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { counterpartyBody } from '../support/fixtures.js'
import { startTestApp, type TestApp } from '../support/test-app.js'
import { COUNTERPARTIES, EXTERNAL_ACCOUNTS, createCounterparty, listAll, patch, remove } from './payments-helpers.js'

let t: TestApp
beforeAll(async () => {
  t = await startTestApp()
})
afterAll(() => t.close())

const PARALLEL = 6
const statuses = (responses: Array<{ statusCode: number }>) => responses.map((r) => r.statusCode).sort()

/** Racing requests on one counterparty: each must get the answer it would get had it come last. */
describe('concurrent writes', () => {
  it('one externalId: exactly one create wins, the others get 409', async () => {
    const org = await t.newOrganization('Racing creates')
    const responses = await Promise.all(
      Array.from({ length: PARALLEL }, () =>
        t.request({ method: 'POST', url: COUNTERPARTIES, body: counterpartyBody({ externalId: 'race' }), as: org }),
      ),
    )
    expect(statuses(responses)).toEqual([201, ...Array(PARALLEL - 1).fill(409)])
    expect(await listAll(t, COUNTERPARTIES, org)).toHaveLength(1)
    expect(await listAll(t, EXTERNAL_ACCOUNTS, org)).toHaveLength(1)
  })

  it('one etag: exactly one PATCH wins, the others get 412', async () => {
    const counterparty = await createCounterparty(t)
    const responses = await Promise.all(
      Array.from({ length: PARALLEL }, (_, i) =>
        patch(t, `${COUNTERPARTIES}/${counterparty.id}`, counterparty.etag, [{ op: 'replace', path: '/alias', value: `a${i}` }]),
      ),
    )
    expect(statuses(responses)).toEqual([200, ...Array(PARALLEL - 1).fill(412)])
    const events = (await t.request({ method: 'GET', url: `${COUNTERPARTIES}/${counterparty.id}/events` })).json()
    expect(events.items.map((event: { entityVersion: number }) => event.entityVersion)).toEqual([1, 2])
  })

  it('DELETE: exactly one wins, the others find it gone (410), not a 412 for the etag they all sent', async () => {
    const counterparty = await createCounterparty(t)
    const responses = await Promise.all(
      Array.from({ length: PARALLEL }, () => remove(t, `${COUNTERPARTIES}/${counterparty.id}`, counterparty.etag)),
    )
    expect(statuses(responses)).toEqual([204, ...Array(PARALLEL - 1).fill(410)])
  })

  it('PATCH racing DELETE from one etag: exactly one wins; a PATCH that lands first makes the DELETE a 412', async () => {
    const counterparty = await createCounterparty(t)
    const url = `${COUNTERPARTIES}/${counterparty.id}`
    const [patched, deleted] = await Promise.all([
      patch(t, url, counterparty.etag, [{ op: 'replace', path: '/alias', value: 'late' }]),
      remove(t, url, counterparty.etag),
    ])
    const read = await t.request({ method: 'GET', url })
    if (patched.statusCode === 200) {
      expect(deleted.statusCode).toBe(412)
      expect(read.json()).toMatchObject({ alias: 'late', version: 2 })
    } else {
      expect(deleted.statusCode).toBe(204)
      expect([410, 412]).toContain(patched.statusCode)
      expect(read.statusCode).toBe(410)
    }
  })
})
