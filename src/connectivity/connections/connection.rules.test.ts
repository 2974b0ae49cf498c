import { describe, expect, it } from 'vitest'
import { ApiError } from '../../http/errors.js'
import { checkConnectionSettings, creditorSchemeIdProblem, directoriesOverlap, directoryProblem } from './connection.rules.js'
import type { ConnectionEditable } from './connection.schemas.js'

const settings = (overrides: Partial<ConnectionEditable> = {}): ConnectionEditable => ({
  name: 'DKB',
  bank: { name: 'Deutsche Kreditbank', bic: 'BYLADEM1001' },
  messageVersions: { creditTransfers: 'pain.001.001.09', directDebits: 'pain.008.001.08' },
  initiatingParty: { name: 'Acme GmbH' },
  batchingWindowSeconds: 300,
  metadata: {},
  ...overrides,
})

/** The field and error of the 400 `check` throws. */
function refusal(check: () => void): { field: string; error: string } {
  try {
    check()
  } catch (error) {
    expect(error).toBeInstanceOf(ApiError)
    const { field, error: text } = (error as ApiError).details![0]!
    return { field, error: text }
  }
  throw new Error('expected a refusal')
}

describe('SEPA creditor identifier (EPC262-08)', () => {
  it('accepts the published examples of several countries', () => {
    for (const id of ['DE98ZZZ09999999999', 'IT66ZZZA1B2C3D4E5F6G7H8', 'ES50ZZZM23456789', 'BE69ZZZ050D000000008', 'AT61ZZZ01234567890']) {
      expect(creditorSchemeIdProblem(id), id).toBeUndefined()
    }
  })

  it('leaves the business code out of the check, as the scheme says', () => {
    expect(creditorSchemeIdProblem('DE98ABC09999999999')).toBeUndefined()
  })

  it('names the check digits it expected, and refuses countries outside SEPA', () => {
    expect(creditorSchemeIdProblem('DE97ZZZ09999999999')).toBe('fails the ISO 7064 MOD 97-10 check: its check digits would be 98')
    expect(creditorSchemeIdProblem('DE98ZZZ09999999998')).toMatch(/^fails the ISO 7064 MOD 97-10 check/)
    expect(creditorSchemeIdProblem('US98ZZZ09999999999')).toBe('starts with US, which is not a SEPA country')
  })
})

describe('directories', () => {
  it('takes absolute paths in normal form inside the bank files directory only', () => {
    expect(directoryProblem('/srv/kassa/outbox', '/srv/kassa')).toBeUndefined()
    expect(directoryProblem('srv/kassa/outbox', '/srv/kassa')).toBe('must be an absolute path')
    for (const path of ['/srv/kassa/../etc', '/srv//kassa', '/srv/./kassa', '/srv/kassa/']) {
      expect(directoryProblem(path, '/srv'), path).toMatch(/^must be written in normal form/)
    }
    const outside = "must lie inside the server's bank files directory (KASSA_BANK_FILES_DIR): /srv/kassa"
    for (const path of ['/srv/kassa', '/srv/kassa-other/outbox', '/etc/cron.d']) expect(directoryProblem(path, '/srv/kassa'), path).toBe(outside)
  })

  it('overlap when they are the same or one lies inside the other, not when they only share a prefix', () => {
    expect(directoriesOverlap('/srv/a', '/srv/a')).toBe(true)
    expect(directoriesOverlap('/srv/a/in', '/srv/a')).toBe(true)
    expect(directoriesOverlap('/srv/a', '/srv/a/in')).toBe(true)
    expect(directoriesOverlap('/srv/a', '/')).toBe(true)
    expect(directoriesOverlap('/srv/ab', '/srv/a')).toBe(false)
    expect(directoriesOverlap('/srv/a', '/srv/b')).toBe(false)
  })
})

describe('a connection’s settings', () => {
  it('accept a plain FILES connection with both directories apart', () => {
    expect(() => checkConnectionSettings('FILES', settings({ outboxDir: '/srv/acme/out', inboxDir: '/srv/acme/in' }), '/srv')).not.toThrow()
  })

  it('refuse a BIC of no known country, for the bank and the initiating party', () => {
    expect(refusal(() => checkConnectionSettings('FILES', settings({ bank: { name: 'X', bic: 'ABCDXX22' } }), '/srv'))).toEqual({
      field: 'bank.bic',
      error: 'does not name a known country in its 5th and 6th letters (ISO 9362)',
    })
    const party = { name: 'Acme', identifiers: { bic: 'ACMEQQ22' } }
    expect(refusal(() => checkConnectionSettings('FILES', settings({ initiatingParty: party }), '/srv')).field).toBe('initiatingParty.identifiers.bic')
  })

  it('want the initiating party identified by a BIC or one other identifier, and its scheme by a code or a name', () => {
    const other = { id: '4711', schemeName: { code: 'BANK' } }
    const both = { name: 'Acme', identifiers: { bic: 'BYLADEM1001', other } }
    expect(refusal(() => checkConnectionSettings('FILES', settings({ initiatingParty: both }), '/srv')).field).toBe('initiatingParty.identifiers')
    expect(refusal(() => checkConnectionSettings('FILES', settings({ initiatingParty: { name: 'Acme', identifiers: {} } }), '/srv')).field).toBe('initiatingParty.identifiers')
    const twoSchemes = { name: 'Acme', identifiers: { other: { id: '4711', schemeName: { code: 'BANK', proprietary: 'Bank id' } } } }
    expect(refusal(() => checkConnectionSettings('FILES', settings({ initiatingParty: twoSchemes }), '/srv')).field).toBe('initiatingParty.identifiers.other.schemeName')
    expect(() => checkConnectionSettings('FILES', settings({ initiatingParty: { name: 'Acme', identifiers: { other } } }), '/srv')).not.toThrow()
  })

  it('refuse directories on a SANDBOX connection, and an inbox that is or lies in the outbox', () => {
    expect(refusal(() => checkConnectionSettings('SANDBOX', settings({ inboxDir: '/srv/in' }), '/srv'))).toEqual({
      field: 'inboxDir',
      error: 'is for FILES connections only: a SANDBOX connection exchanges no files',
    })
    expect(refusal(() => checkConnectionSettings('FILES', settings({ outboxDir: '/srv/x', inboxDir: '/srv/x' }), '/srv')).field).toBe('inboxDir')
    expect(refusal(() => checkConnectionSettings('FILES', settings({ outboxDir: '/srv/x', inboxDir: '/srv/x/in' }), '/srv')).field).toBe('inboxDir')
  })
})
