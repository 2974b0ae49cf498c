import { kassa } from '../../api/kassa'

/**
 * Gives a person a one-time password (an invitation, or a reset): they sign in with it and must then
 * choose their own; it ends their sessions. `password` is absent when an Idempotency-Key replays the
 * answer: only its hash is kept.
 */
export async function giveOneTimePassword(userId: string) {
  return (await kassa.POST('/iam/v2/users/{id}/one-time-password', { params: { path: { id: userId } } })).data
}
