import type { ListItem } from '@kassa/client'

/** The API's IAM resources, as the generated client types them (from docs/openapi.json). */
export type User = ListItem<'/iam/v2/users'>
export type Role = ListItem<'/iam/v2/roles'>
export type AccessKey = ListItem<'/iam/v2/users/{id}/access-keys'>
export type SessionSummary = ListItem<'/iam/v2/users/{id}/sessions'>
export type ApprovalChain = ListItem<'/iam/v2/approval-chains'>
export type Permission = Role['permissions'][number]

export const USER_TYPE_LABEL: Record<User['type'], string> = { HUMAN: 'Person', PROGRAMMATIC: 'Integration' }
