import { expect } from 'vitest'
import type { RequestOptions, TestApp } from '../support/test-app.js'
import type { ReferenceSchemaName } from './reference-schemas.js'
import { listViolationsOf, violationsOf } from './reference-validator.js'

/** What a 2xx answer is checked against: one resource, a ListResponse page of them, or nothing (a 204). */
export type Expected = { one: ReferenceSchemaName } | { list: ReferenceSchemaName } | 'empty'

/**
 * Calls operations as a reference client does and collects, per operation, every way their 2xx bodies break the
 * reference's schemas. `expectConformant` then fails once, listing them all (`operationId /path: what`).
 */
export class Conformance {
  readonly violations: string[] = []

  constructor(private readonly t: TestApp) {}

  /** Sends the request, insists on `status` (else fails at once: the data the next calls need is missing), checks the body. */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  async call(operationId: string, request: RequestOptions, status: number, expected: Expected): Promise<any> {
    const response = await this.t.request(request)
    expect(response.statusCode, `${operationId} ${request.method} ${request.url}: ${response.body}`).toBe(status)
    if (expected === 'empty') return undefined
    const body: unknown = response.json()
    this.record(operationId, 'one' in expected ? violationsOf(expected.one, body) : listViolationsOf(expected.list, body))
    return body
  }

  /** A body that reached the client another way (a webhook delivery), checked as `name`. */
  check(what: string, name: ReferenceSchemaName, body: unknown, at = ''): void {
    this.record(what, violationsOf(name, body, at))
  }

  expectConformant(): void {
    expect(this.violations, `\n${this.violations.join('\n')}\n`).toEqual([])
  }

  private record(what: string, violations: string[]): void {
    this.violations.push(...violations.map((violation) => `${what} ${violation}`))
  }
}

/** A JSON Patch request with the etag as If-Match (Kassa requires it; the reference allows it). */
export function patchRequest(url: string, etag: string, operations: unknown[]): RequestOptions {
  return { method: 'PATCH', url, body: JSON.stringify(operations), headers: { 'if-match': etag, 'content-type': 'application/json-patch+json' } }
}
