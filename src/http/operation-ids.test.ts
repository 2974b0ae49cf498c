import { describe, expect, it } from 'vitest'
import { OPERATION_ID_OVERRIDES, OPERATION_ID_PATTERN, openApiPath, operationIdOf } from './operation-ids.js'

describe('openApiPath', () => {
  it.each([
    ['/payments/v2/counterparties', '/payments/v2/counterparties'],
    ['/payments/v2/counterparties/:id', '/payments/v2/counterparties/{id}'],
    ['/payments/v2/credit-transfers/:id(^.+)::approve', '/payments/v2/credit-transfers/{id}:approve'],
    ['/v1/sandbox/clock::advance', '/v1/sandbox/clock:advance'],
    ['/v1/webhooks/:id/deliveries/:deliveryId(^.+)::redeliver', '/v1/webhooks/{id}/deliveries/{deliveryId}:redeliver'],
  ])('%s → %s', (url, path) => {
    expect(openApiPath(url)).toBe(path)
  })
})

describe('operationIdOf', () => {
  it.each([
    ['GET', '/payments/v2/credit-transfers', 'listCreditTransfers'],
    ['POST', '/payments/v2/credit-transfers', 'createCreditTransfer'],
    ['GET', '/payments/v2/credit-transfers/{id}', 'getCreditTransfer'],
    ['PATCH', '/payments/v2/credit-transfers/{id}', 'updateCreditTransfer'],
    ['PUT', '/v1/webhooks/{id}', 'replaceWebhook'],
    ['DELETE', '/payments/v2/counterparties/{id}', 'deleteCounterparty'],
    ['POST', '/payments/v2/credit-transfers/{id}:approve', 'approveCreditTransfer'],
    ['GET', '/payments/v2/credit-transfers/{id}/events', 'listCreditTransferEvents'],
    ['GET', '/payments/v2/counterparties', 'listCounterparties'],
    ['GET', '/payments/v2/counterparties/{id}', 'getCounterparty'],
    ['POST', '/iam/v2/users/{id}/access-keys', 'createUserAccessKey'],
    ['DELETE', '/iam/v2/users/{id}/access-keys/{keyId}', 'deleteUserAccessKey'],
    ['GET', '/v1/webhooks/{id}/deliveries', 'listWebhookDeliveries'],
    ['POST', '/v1/webhooks/{id}/deliveries/{deliveryId}:redeliver', 'redeliverWebhookDelivery'],
    ['POST', '/v1/sandbox/clock:advance', 'advanceSandboxClock'],
    ['GET', '/v1/sandbox/clock', 'getSandboxClock'],
    ['POST', '/iam/v2/session', 'createSession'],
    ['DELETE', '/iam/v2/session', 'deleteSession'],
    ['POST', '/iam/v2/session:signOut', 'signOutSession'],
    ['GET', '/financial-data/v2/accounts/{id}/balances', 'listAccountBalances'],
    ['GET', '/iam/v2beta/audit-log-entries', 'listAuditLogEntries'],
    ['GET', '/iam/v2beta/audit-log-entries/{id}', 'getAuditLogEntry'],
    ['GET', '/payments/v2beta/credit-transfer-batches/{id}/results', 'listCreditTransferBatchResults'],
    ['POST', '/payments/v2/credit-transfer-batches/{id}:approve', 'approveCreditTransferBatch'],
  ])('%s %s → %s', (method, path, operationId) => {
    expect(operationIdOf(method, path)).toBe(operationId)
  })

  it('takes the overrides as they are, and every override is camelCase', () => {
    expect(operationIdOf('POST', '/financial-data/v2/statements')).toBe('importStatement')
    expect(operationIdOf('GET', '/healthz')).toBe('getHealth')
    for (const operationId of Object.values(OPERATION_ID_OVERRIDES)) expect(operationId).toMatch(OPERATION_ID_PATTERN)
  })

  it('refuses what it cannot derive, pointing at the overrides', () => {
    expect(() => operationIdOf('GET', '/metrics')).toThrow(/OPERATION_ID_OVERRIDES/)
    expect(() => operationIdOf('POST', '/payments/v2/credit-transfers/{id}')).toThrow(/POST \/payments\/v2\/credit-transfers\/\{id\}/)
    expect(() => operationIdOf('PATCH', '/payments/v2/credit-transfers')).toThrow(/OPERATION_ID_OVERRIDES/)
  })
})
