/**
 * Ids the fuzz suite has seen in the server's answers, so that generated paths and bodies name real
 * rows (live, deleted, or another organization's) as often as random ones. Ids are filed by the
 * collection that lists them (`/iam/v2/users/{userId}/access-keys`) and by the field that holds them
 * (`accountId` → "account"), the way a client would learn them.
 */

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

/** `approvalStepId`, `approvalSteps`, `external-accounts` → `approvalstep`, `approvalstep`, `externalaccount`. */
export function fieldKey(name: string): string {
  const letters = name.replace(/Ids?$/, '').toLowerCase().replace(/[^a-z]/g, '')
  if (letters.endsWith('ies')) return `${letters.slice(0, -3)}y`
  return letters.endsWith('s') ? letters.slice(0, -1) : letters
}

function kebab(name: string): string {
  return name.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`)
}

function add(map: Map<string, string[]>, key: string, id: string): void {
  const list = map.get(key)
  if (!list) map.set(key, [id])
  else if (!list.includes(id)) list.push(id)
}

export class KnownIds {
  private readonly collections = new Map<string, string[]>()
  private readonly fields = new Map<string, string[]>()
  private readonly everyId: string[] = []
  readonly externalIds: string[] = []

  /** `hidden`: ids never offered (the users behind the suite's own keys, which it must not delete). */
  constructor(private readonly hidden: ReadonlySet<string>) {}

  /** Files every id of a 2xx JSON answer to `path` (no query string). */
  harvest(path: string, body: unknown): void {
    if (body === null || typeof body !== 'object') return
    const { items, id } = body as { items?: unknown; id?: unknown }
    if (Array.isArray(items)) {
      for (const item of items) this.resource(path, item, fieldKey(path.slice(path.lastIndexOf('/') + 1)))
    } else if (typeof id === 'string') {
      const last = path.slice(path.lastIndexOf('/') + 1)
      const collection = last.startsWith(id) || last.startsWith('external:') ? path.slice(0, path.lastIndexOf('/')) : path
      this.resource(collection, body, fieldKey(collection.slice(collection.lastIndexOf('/') + 1)))
    }
  }

  /**
   * Ids listed under a collection path, e.g. `/payments/v2/counterparties`; else under the same path in another
   * version of the API (a batch is listed under v2beta and approved under v2: reference §3.3).
   */
  inCollection(path: string): readonly string[] {
    const listed = this.collections.get(path)
    if (listed) return listed
    const versionless = (candidate: string) => candidate.replace(/\/v\d+(beta\d*)?\//, '/v/')
    for (const [collection, ids] of this.collections) if (versionless(collection) === versionless(path)) return ids
    return []
  }

  /** Every id seen. */
  get all(): readonly string[] {
    return this.everyId
  }

  /** Ids filed under a kind (`fieldKey`): `account`, `externalaccount`, `role`; none when no such id was seen. */
  forKind(kind: string): readonly string[] {
    return this.fields.get(kind) ?? []
  }

  /** Ids seen in fields of this name (`roleId`, `accountIds`), else every id seen. */
  forField(name: string): readonly string[] {
    return this.fields.get(fieldKey(name)) ?? this.everyId
  }

  private resource(collection: string, node: unknown, key: string): void {
    const id = (node as { id?: unknown } | null)?.id
    if (typeof id !== 'string' || !UUID.test(id) || this.hidden.has(id)) return
    add(this.collections, collection, id)
    this.walk(`${collection}/${id}`, node, key)
  }

  private walk(resourcePath: string, node: unknown, key: string): void {
    if (Array.isArray(node)) {
      for (const item of node) this.walk(resourcePath, item, key)
      return
    }
    if (node === null || typeof node !== 'object') return
    for (const [name, value] of Object.entries(node)) {
      if (name === 'id' && typeof value === 'string' && UUID.test(value)) this.remember(key, value)
      else if (name === 'externalId' && typeof value === 'string' && !this.externalIds.includes(value)) this.externalIds.push(value)
      else if (typeof value === 'string' && /Id$/.test(name) && UUID.test(value)) this.remember(fieldKey(name), value)
      else if (Array.isArray(value) && value.some((item) => typeof (item as { id?: unknown } | null)?.id === 'string')) {
        // A resource's own list of sub-resources (a webhook's keys): where DELETE …/keys/{keyId} finds them.
        for (const item of value) this.resource(`${resourcePath}/${kebab(name)}`, item, fieldKey(name))
      } else this.walk(resourcePath, value, fieldKey(name))
    }
  }

  private remember(key: string, id: string): void {
    if (this.hidden.has(id)) return
    add(this.fields, key, id)
    if (!this.everyId.includes(id)) this.everyId.push(id)
  }
}
