import { describe, expectTypeOf, it } from 'vitest'
import { createKassaClient, paginate, patchResource, type KassaClient, type ListItem, type paths } from '../../packages/client/src/index.js'

/**
 * The client's types, checked by `npm run typecheck` (the suite's first step): a resolved call holds its
 * data, lists and patches take only the paths that have them, credentials come as a pair or not at all.
 */
type Counterparty = paths['/payments/v2/counterparties/{id}']['get']['responses'][200]['content']['application/json']

describe('the client’s types', () => {
  it('type a resolved call’s data as the 200 body, never undefined', () => {
    expectTypeOf<Awaited<ReturnType<typeof get>>['data']>().toEqualTypeOf<Counterparty>()
    function get(kassa: KassaClient) {
      return kassa.GET('/payments/v2/counterparties/{id}', { params: { path: { id: 'external:acme' } } })
    }
  })

  it('paginate and patchResource take list and patch paths, and type their items', () => {
    expectTypeOf<ListItem<'/payments/v2/counterparties'>>().toEqualTypeOf<Counterparty>()
    // Compiled, never called.
    expectTypeOf(misuses).toBeFunction()
    function misuses(kassa: KassaClient) {
      // @ts-expect-error a single resource is not a list
      void paginate(kassa, '/payments/v2/counterparties/{id}')
      // @ts-expect-error the events list needs its path parameter
      void paginate(kassa, '/payments/v2/counterparties/{id}/events')
      // @ts-expect-error events are not patched
      void patchResource(kassa, '/payments/v2/credit-transfers/{id}/events', { params: { path: { id: 'x' } }, etag: 'version:1', operations: [] })
    }
  })

  it('needs an access key with its secret, or a fetch of one’s own', () => {
    // @ts-expect-error neither credentials nor a fetch
    createKassaClient({ baseUrl: 'http://127.0.0.1:1' })
    // @ts-expect-error a key without its secret
    createKassaClient({ baseUrl: 'http://127.0.0.1:1', accessKey: 'KA' })
    createKassaClient({ baseUrl: 'http://127.0.0.1:1', fetch: (request) => fetch(request) })
  })
})
