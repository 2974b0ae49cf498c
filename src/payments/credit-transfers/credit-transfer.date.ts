import { Type } from 'typebox'
import type { Executor } from '../../db/database.js'
import type { PaymentsTable } from '../../db/schema.js'
import { recordEvent } from '../../events/index.js'
import { ApiError } from '../../http/errors.js'
import { createPatcher, type JsonPatchOperation, type PatchRule } from '../../http/json-patch.js'
import { assertEtag, etagOf } from '../../http/preconditions.js'
import type { Actor } from '../../iam/actor.js'
import { nowIso } from '../../shared/clock.js'
import type { BankToday } from '../lifecycle/bank-date.js'
import { findPayment, PAYMENT_ENTITY_TYPE, serializePayment, type Payment } from '../lifecycle/payment.js'
import { paymentRepo } from '../lifecycle/payment.repo.js'
import { PaymentDate } from '../lifecycle/payment.schemas.js'
import { isDateEditable, type PaymentStatus } from '../lifecycle/payment-status.js'
import { checkExecutionDate } from './credit-transfer.rules.js'

/** reference §2.7: the requested date is the one field a client may change, until submission is scheduled. */
export const CREDIT_TRANSFER_PATCH_RULES: readonly PatchRule[] = [{ op: 'replace', path: '/date' }]
const applyPatch = createPatcher(Type.Object({ date: PaymentDate }, { additionalProperties: false }), CREDIT_TRANSFER_PATCH_RULES)

/**
 * The new date is checked against the business date of the source account's bank, as at creation.
 * @throws ApiError precondition_failed (412), invalid_patch (400: other paths), invalid_request (400: date rules),
 * conflict (409: already scheduled for submission).
 */
export async function changeDate(
  trx: Executor,
  actor: Actor,
  current: PaymentsTable,
  etag: string,
  operations: JsonPatchOperation[],
  bankToday: BankToday,
): Promise<Payment> {
  assertEtag(etag, etagOf(current.version))
  const { date } = applyPatch({ date: current.date }, operations)
  if (!isDateEditable(current.status as PaymentStatus)) {
    throw new ApiError('conflict', `The date cannot change once the payment is ${current.status}`)
  }
  checkExecutionDate(date, await bankToday(trx, { organizationId: actor.organizationId, accountId: current.account_id }))
  if (!(await paymentRepo.update(trx, current.id, current.version, { date, updated: nowIso() }))) {
    throw new ApiError('precondition_failed', 'The credit transfer changed while this update ran; fetch it again')
  }
  const payment = await serializePayment(trx, await findPayment(trx, actor.organizationId, current.kind, { id: current.id }))
  await recordEvent(trx, {
    organizationId: actor.organizationId,
    entityType: PAYMENT_ENTITY_TYPE[current.kind],
    entityId: current.id,
    type: 'UPDATED',
    name: 'DATE_CHANGED',
    originator: actor.userId,
    message: `Date changed from ${current.date} to ${date}`,
    entity: payment,
  })
  return payment
}
