import { setTimeout as sleep } from 'node:timers/promises'
import type { Credentials } from '../../src/iam/index.js'
import { startKassaProcess, stopped, type KassaProcess } from '../support/kassa-processes.js'
import { basicAuth, startTestApp, type TestApp } from '../support/test-app.js'
import { fingerprinter, type Fingerprint } from './db-fingerprint.js'
import { headerValue, HttpClient, type Answer, type SentRequest } from './http-client.js'
import { formText, jsonText, Repeated } from './json-text.js'
import { KnownIds } from './known-ids.js'
import { collectionOf, loadOperations, type Operation } from './openapi-operations.js'
import type { PlanContext, RequestPlan } from './request-plans.js'
import { percentEncoded, type AuthChoice, type Credential, type IdChoice, type IfMatchChoice } from './request-parts.js'
import { resolveStub } from './stub-dns.js'

/**
 * The app under fuzz: the real server on 127.0.0.1 over a fresh database of the backend under test,
 * with its background workers off so that every write comes from a request the suite made (and a
 * refused one can be shown to have written nothing). Webhook host names resolve through a stub DNS.
 *
 * With `processes` (issue 14), the requests go to that many server processes of their own on the one
 * database instead (fuzz-process.ts), in turn; the app in this process then only makes the organizations
 * and keys, and never listens.
 */

function text(value: string | Repeated): string {
  return value instanceof Repeated ? value.value() : value
}

/** An id for a path slot no known id fits: well-formed, and no row has it. */
const UNKNOWN_ID = '01900000-0000-7000-8000-000000000000'

/**
 * Each key used once before the run, and its first use recorded (issue 13: a key's first request writes
 * `access_keys.first_use` to the audit log): otherwise a refused request that happens to be a key's first would
 * be seen writing to the database.
 */
export async function firstUseOf(t: TestApp, keys: Credentials[]): Promise<void> {
  for (const key of keys) await t.request({ method: 'GET', url: '/financial-data/v2/accounts', as: key })
  const accessKeys = keys.map((key) => key.accessKey)
  for (let attempt = 0; attempt < 100; attempt += 1) {
    const unused = await t.db.database.db.selectFrom('access_keys').select('id').where('access_key', 'in', accessKeys).where('first_used_at', 'is', null).execute()
    if (unused.length === 0) return
    await sleep(20)
  }
  throw new Error('the fuzz keys were never marked used')
}

export interface FuzzServerOptions {
  /** Server processes of their own on the test database to send the requests to, in turn; none: the app in this process. */
  processes?: number
}

export class FuzzServer {
  readonly operations: Operation[] = loadOperations()
  private readonly byLabel = new Map(this.operations.map((operation) => [`${operation.method} ${operation.path}`, operation]))
  /** Set once seed-resources.ts has made the organization's resources. */
  context!: PlanContext
  /** The first server's client (requests that need no particular server); `send` takes each in turn. */
  readonly client: HttpClient
  /** The first server's port, for raw sockets. */
  readonly port: number
  private turn = 0

  private constructor(
    readonly t: TestApp,
    private readonly servers: Array<{ port: number; client: HttpClient }>,
    private readonly children: KassaProcess[],
    readonly keys: Record<Credential, Credentials>,
    readonly known: KnownIds,
    readonly fingerprint: () => Promise<Fingerprint>,
  ) {
    this.client = servers[0]!.client
    this.port = servers[0]!.port
  }

  static async start({ processes = 0 }: FuzzServerOptions = {}): Promise<FuzzServer> {
    const t = await startTestApp({ paymentWorkerIntervalMilliseconds: false, webhooks: { resolve: resolveStub, startWorker: false } })
    const children = await Promise.all(Array.from({ length: processes }, () => startKassaProcess(t.db.url, {}, new URL('./fuzz-process.ts', import.meta.url))))
    const ports = processes > 0 ? children.map((child) => child.port) : [Number(new URL(await t.app.listen({ host: '127.0.0.1', port: 0 })).port)]
    const servers = ports.map((port) => ({ port, client: new HttpClient(new URL(`http://127.0.0.1:${port}`)) }))
    const keys: Record<Credential, Credentials> = {
      owner: t.owner,
      admin: await t.newKey('admin'),
      readOnly: await t.newKey('read-only'),
      otherOrganization: await t.newOrganization('Fuzz other organization'),
    }
    await firstUseOf(t, Object.values(keys))
    // The users behind the suite's own keys are never offered to DELETE or PATCH: the suite needs them.
    const known = new KnownIds(new Set(Object.values(keys).map((key) => key.userId)))
    return new FuzzServer(t, servers, children, keys, known, await fingerprinter(t.db.database))
  }

  /** Every server's client: the one in this process, or one per server process. */
  get clients(): HttpClient[] {
    return this.servers.map((server) => server.client)
  }

  /** The server processes that are gone (an uncaught error ends one), as `process N exited with …`. */
  exitedProcesses(): string[] {
    return this.children
      .map(({ child }, index) => (child.exitCode === null && child.signalCode === null ? '' : `process ${index + 1} exited with ${child.exitCode ?? child.signalCode}`))
      .filter((exited) => exited !== '')
  }

  /** Begins closing the first server, as a deployment stops one: in-flight requests finish, new ones get a 503. */
  async shutDown(): Promise<void> {
    const first = this.children[0]
    if (!first) return this.t.app.close()
    const exited = new Promise<void>((resolve) => first.child.once('exit', () => resolve()))
    first.child.send('stop')
    await exited
  }

  operation(label: string): Operation {
    const operation = this.byLabel.get(label)
    if (!operation) throw new Error(`no operation ${label}`)
    return operation
  }

  /** Sends the request to the next server in turn and files the ids of a 2xx JSON answer in `known`. */
  async send(request: SentRequest, known = this.known): Promise<Answer> {
    this.turn = (this.turn + 1) % this.servers.length
    const answer = await this.servers[this.turn]!.client.send(request)
    if (answer.status >= 200 && answer.status < 300 && /json/.test(answer.headers['content-type'] ?? '')) {
      try {
        known.harvest(request.path.split('?', 1)[0]!, JSON.parse(answer.body))
      } catch {
        // A body cut at the client's limit is not JSON: nothing to file.
      }
    }
    return answer
  }

  authorization(auth: AuthChoice): string | undefined {
    switch (auth.kind) {
      case 'key':
        return basicAuth(this.keys[auth.key])
      case 'wrongSecret': {
        const { accessKey, secret } = this.keys[auth.key]
        return basicAuth({ accessKey, secret: `${secret.slice(0, -1)}${secret.endsWith('A') ? 'B' : 'A'}` })
      }
      case 'none':
        return undefined
      case 'header':
        return text(auth.value)
    }
  }

  /** The concrete path of a plan: each `{param}` from the ids its collection lists, or the literal chosen. */
  path(operation: Operation, ids: IdChoice[]): string {
    let path = operation.path
    operation.pathParams.forEach((param, index) => {
      const choice = ids[index]!
      let segment: string
      if (choice.kind === 'text') segment = text(choice.text)
      else if (choice.kind === 'external') {
        const externalIds = this.known.externalIds
        segment = `external:${externalIds.length > 0 ? externalIds[choice.index % externalIds.length] : 'none'}`
      } else {
        const listed = this.known.inCollection(collectionOf(path, param))
        const pool = listed.length > 0 ? listed : this.known.forField(param)
        const id = pool.length > 0 ? pool[choice.index % pool.length]! : UNKNOWN_ID
        segment = choice.upper ? id.toUpperCase() : id
      }
      path = path.replace(`{${param}}`, segment)
    })
    return path
  }

  /** The etag the resource at `path` has now, as the owner reads it; a made-up one when it cannot be read. */
  async currentEtag(path: string): Promise<string> {
    const answer = await this.client.send({ method: 'GET', path: path.replace(/:\w+$/, ''), headers: { authorization: basicAuth(this.keys.owner) } })
    try {
      const etag = (JSON.parse(answer.body) as { etag?: unknown }).etag
      return typeof etag === 'string' ? etag : 'version:1'
    } catch {
      return 'version:1'
    }
  }

  private async ifMatch(choice: IfMatchChoice, path: string): Promise<string | undefined> {
    if (choice.kind === 'none') return undefined
    return choice.kind === 'current' ? this.currentEtag(path) : text(choice.text)
  }

  /** The plan as bytes on the wire; the current etag is read just before. */
  async render(plan: RequestPlan): Promise<SentRequest> {
    const operation = this.operation(plan.operation)
    const path = this.path(operation, plan.ids)
    const query = plan.query.map(({ key, value, raw }) => (raw ? `${key}=${text(value)}` : `${percentEncoded(key)}=${percentEncoded(text(value))}`)).join('&')
    const headers: Record<string, string> = {}
    const authorization = this.authorization(plan.auth)
    if (authorization !== undefined) headers.authorization = authorization
    const ifMatch = await this.ifMatch(plan.ifMatch, path)
    if (ifMatch !== undefined) headers['if-match'] = ifMatch
    if (plan.idempotencyKey !== undefined) headers['idempotency-key'] = text(plan.idempotencyKey)
    if (plan.contentType !== undefined) headers['content-type'] = plan.contentType
    Object.assign(headers, plan.headers)
    for (const [name, value] of Object.entries(headers)) headers[name] = headerValue(value)
    const body = plan.body
    return {
      method: plan.method,
      path: `${path}${plan.suffix}${query === '' ? '' : `?${query}`}`,
      headers,
      ...(body === undefined
        ? {}
        : {
            body:
              body.kind === 'json'
                ? Buffer.from(/^application\/x-www-form-urlencoded/i.test(plan.contentType ?? '') ? formText(body.value) : jsonText(body.value), 'utf8')
                : Buffer.from(typeof body.text === 'string' ? body.text : body.text instanceof Repeated ? body.text.value() : body.text.text(), body.latin1 ? 'latin1' : 'utf8'),
          }),
    }
  }

  async close(): Promise<void> {
    for (const server of this.servers) server.client.close()
    await Promise.all(this.children.map(({ child }) => stopped(child, 'SIGTERM')))
    await this.t.close()
  }
}
