/** Events and idempotency keys, which every resource uses. Column conventions: see ../schema.ts. */

export interface EventsTable {
  organization_id: string
  entity_type: string
  entity_id: string
  sequence: number
  type: 'CREATED' | 'UPDATED' | 'DELETED'
  name: string
  timestamp: string
  originator: string
  message: string | null
  entity_version: number
  entity: string
}

export interface IdempotencyKeysTable {
  organization_id: string
  method: string
  path: string
  key: string
  fingerprint: string
  state: 'IN_PROGRESS' | 'COMPLETED'
  lock_token: string
  locked_until: string
  response_status: number | null
  response_body: string | null
  created: string
  expires_at: string
}
