import type { Credentials } from '../../src/iam/index.js'
import { firstUseOf, FuzzServer } from '../fuzz/fuzz-server.js'
import { KnownIds } from '../fuzz/known-ids.js'
import { operationsOf, type Operation } from '../fuzz/openapi-operations.js'
import { call, concretePaths, seedResources, walkReads } from '../fuzz/seed-resources.js'
import { connectionBody } from '../connectivity/connection-helpers.js'
import { person, signIn, type SignedIn } from '../iam/session-helpers.js'
import { accessTokenFor } from '../support/oauth2.js'
import { basicAuth } from '../support/test-app.js'
import { approveAndSubmit } from '../financial-data/pending-transactions-helpers.js'
import type { PaymentJson } from '../payments/lifecycle-helpers.js'

/**
 * The two organizations of the tenancy suite (issue 14), on the fuzz suite's server (the real app on
 * 127.0.0.1, workers off, so that every write is a request's): A holds a resource of every kind, made by
 * test/fuzz/seed-resources.ts and the few kinds it leaves out (below); B has an Owner key (and a bearer token
 * of it), a read-only key and an Owner's dashboard session. A's ids are learnt as a client learns them, by reading every GET as A.
 */

export interface Organization {
  owner: Credentials
  readOnly: Credentials
  /** A person of the organization signed in to the dashboard (a cookie session). */
  session: SignedIn
}

export interface TenancyWorld {
  server: FuzzServer
  /** Every operation of the OpenAPI document the running app serves (not the committed copy). */
  operations: Operation[]
  a: Organization & { readOnlySession: SignedIn; readOnlyToken: string; ids: KnownIds }
  b: Organization & { ownerToken: string }
}

/**
 * The kinds seed-resources.ts does not make, which the fuzz run does without: a bank connection and a file it
 * received, a batch, and a payment the sandbox bank holds (a pending transaction).
 */
async function seedTheRest(server: FuzzServer): Promise<void> {
  const connection = await call(server, 'POST', '/connectivity/v2/connections', connectionBody())
  const upload = server.operation('POST /connectivity/v2/connections/{id}/files')
  await call(server, 'POST', `/connectivity/v2/connections/${connection.id}/files`, String(upload.body!.example), server.keys.owner, 'application/xml')
  const accounts = (await call(server, 'GET', '/financial-data/v2/accounts')) as unknown as { items: Array<{ id: string; name: string }> }
  const externalAccounts = (await call(server, 'GET', '/payments/v2/external-accounts')) as unknown as { items: Array<{ id: string }> }
  const payment = {
    amount: { currency: 'EUR', value: 2_500 },
    date: server.context.vocabulary.today,
    scheme: 'SCT',
    source: { type: 'ACCOUNT', id: accounts.items.find((account) => account.name === 'Operating account')!.id },
    destination: { type: 'EXTERNAL_ACCOUNT', id: externalAccounts.items[0]!.id },
    reference: 'Tenancy',
  }
  await call(server, 'POST', '/payments/v2beta/credit-transfer-batches', { treatment: 'BATCH', externalId: 'tenancy-batch', payments: [payment] })
  const held = await call(server, 'POST', '/payments/v2/credit-transfers', payment)
  await approveAndSubmit(server.t, server.keys.owner, held as unknown as PaymentJson)
}

async function signedIn(server: FuzzServer, roleName: string, organizationId: string): Promise<SignedIn> {
  return signIn(server.t, await person(server.t, roleName, { organizationId }))
}

export async function tenancyWorld(): Promise<TenancyWorld> {
  const server = await FuzzServer.start()
  await seedResources(server, { walk: false })
  await seedTheRest(server)
  const b = server.keys.otherOrganization
  const bReadOnly = await server.t.newKey('read-only', b.organizationId)
  await firstUseOf(server.t, [bReadOnly])
  const sessions = {
    a: await signedIn(server, 'owner', server.t.owner.organizationId),
    aReadOnly: await signedIn(server, 'read-only', server.t.owner.organizationId),
    b: await signedIn(server, 'owner', b.organizationId),
  }
  // Every id A's owner can read, down to the sessions of its people: the ids B must never reach.
  const ids = new KnownIds(new Set())
  await walkReads(server, server.keys.owner, ids, Number.POSITIVE_INFINITY)
  const served = await server.client.send({ method: 'GET', path: '/openapi.json', headers: {} })
  if (served.status !== 200) throw new Error(`GET /openapi.json answered ${served.status}`)
  return {
    server,
    operations: operationsOf(JSON.parse(served.body)),
    a: { owner: server.keys.owner, readOnly: server.keys.readOnly, session: sessions.a, readOnlySession: sessions.aReadOnly, readOnlyToken: await accessTokenFor(server.t, server.keys.readOnly), ids },
    b: { owner: b, readOnly: bReadOnly, session: sessions.b, ownerToken: await accessTokenFor(server.t, b) },
  }
}

/** The operation's path with an id of organization A in every slot, or undefined when A has none to offer. */
export function pathOfA(world: TenancyWorld, operation: Operation): string | undefined {
  return concretePaths(world.a.ids, operation, Number.POSITIVE_INFINITY)[0]
}

/**
 * The operation's path as A's Owner names one of its resources by `external:{externalId}` (spec: the external id
 * lookup), or undefined when none of them has an externalId A itself can read it by.
 */
export async function externalPathOfA(world: TenancyWorld, operation: Operation): Promise<string | undefined> {
  const [param] = operation.pathParams
  if (param === undefined) return undefined
  const read = async (at: string) => world.server.client.send({ method: 'GET', path: at, headers: { authorization: basicAuth(world.a.owner) } })
  const start = operation.path.indexOf(`{${param}}`)
  for (const path of concretePaths(world.a.ids, operation, 8)) {
    const id = path.slice(start).split(/[/:]/, 1)[0]!
    const resource = path.slice(0, start + id.length)
    const answer = await read(resource)
    const externalId = answer.status === 200 ? (JSON.parse(answer.body) as { externalId?: unknown }).externalId : undefined
    if (typeof externalId !== 'string') continue
    const external = `${path.slice(0, start)}external:${encodeURIComponent(externalId)}`
    // Only where A's Owner reads the same resource by it: there B's 404 says something.
    if ((await read(external)).status === 200) return `${external}${path.slice(resource.length)}`
  }
  return undefined
}
