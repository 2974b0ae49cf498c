import { answerProblems, describeExchange } from './answer-checks.js'
import { fingerprintChanges, type Fingerprint } from './db-fingerprint.js'
import type { FuzzServer } from './fuzz-server.js'
import type { Answer, SentRequest } from './http-client.js'
import { hasEtag, type Operation } from './openapi-operations.js'
import type { RequestPlan } from './request-plans.js'

/**
 * One fuzzed exchange, checked: the plan is sent, the answer held to answer-checks.ts, and — around
 * that one request, the run being sequential — the database fingerprint compared, so that a refused
 * request that wrote anything is caught. Rules that only make sense for some operations live here too.
 *
 * By default the first problem fails the property (fast-check then shrinks it and prints the seed).
 * With KASSA_FUZZ_SURVEY=1 the run goes on and lists every distinct problem at the end instead: one
 * run then shows all the classes of failure at once, which is what someone fixing them wants.
 */

export const SURVEY = process.env.KASSA_FUZZ_SURVEY === '1'

/**
 * Writes a refusal makes by design, per operation: a failed sign-in is counted against the lockout of
 * the account and the address, and a lockout it starts is an event of the user (issue 11); a token request
 * with wrong client credentials counts against the address (issue 13), and a failed sign-in of a known email is
 * in that user's organization's audit log (issue 13).
 */
const REFUSALS_THAT_WRITE: Record<string, RegExp> = {
  'POST /iam/v2/session': /^(sign_in_failures|events|audit_log_entries)\./,
  'POST /iam/v2beta/oauth2/token': /^sign_in_failures\./,
  'POST /iam/v2/oauth2/token': /^sign_in_failures\./,
}

/** The OAuth2 token endpoint, whose errors carry RFC 6749 §5.2's fields beside the envelope's. */
const OAUTH2_TOKEN_PATHS = new Set(['/iam/v2beta/oauth2/token', '/iam/v2/oauth2/token'])

/** A rule of its own for one property: more problems with the exchange. */
export type ExtraRule = (request: SentRequest, answer: Answer, operation: Operation) => string[]

/** What the operation must never accept, whatever else it does. */
function operationProblems(operation: Operation, plan: RequestPlan, request: SentRequest, answer: Answer, etagBefore: string | undefined): string[] {
  const problems: string[] = []
  const succeeded = answer.status >= 200 && answer.status < 300
  if (succeeded && etagBefore !== undefined && request.headers['if-match'] !== etagBefore) {
    problems.push(`${plan.method} succeeded with If-Match ${request.headers['if-match'] ?? '(none)'} while the etag was ${etagBefore}`)
  }
  // Issue 9: XML with a DOCTYPE is refused (400), whatever entities it declares.
  if (succeeded && operation.body?.contentTypes.some((type) => type.includes('xml')) && /<!DOCTYPE/i.test(request.body?.toString('utf8') ?? '')) {
    problems.push('a statement with a DOCTYPE was accepted')
  }
  return problems
}

/** `POST /v1/idempotency-test?status=503` answers 503 on purpose (spec: Specific endpoints): the status asked for, if it is this one. */
function requestedStatus(operation: Operation, request: SentRequest, answer: Answer): number | undefined {
  if (operation.path !== '/v1/idempotency-test') return undefined
  const asked = new URLSearchParams(request.path.split('?')[1] ?? '').getAll('status').map(Number)
  return asked.includes(answer.status) ? answer.status : undefined
}

export class ExchangeChecker {
  /** In a survey: one example of each kind of problem, with how often and on which operations it was seen. */
  private readonly findings = new Map<string, { message: string; seen: number; operations: Set<string> }>()
  requests = 0
  /**
   * The fingerprint after the last checked request, which is the one before the next: nothing else
   * writes (the workers are off, the suite's own reads write nothing), and it halves the queries.
   * Cleared by `restart` when anything else may have written.
   */
  private last: Fingerprint | undefined

  constructor(private readonly server: FuzzServer) {}

  restart(): void {
    this.last = undefined
  }

  async check(plan: RequestPlan, extra?: ExtraRule): Promise<void> {
    const operation = this.server.operation(plan.operation)
    const request = await this.server.render(plan)
    const guarded = hasEtag(operation) && plan.method === operation.method && (plan.method === 'PATCH' || plan.method === 'DELETE')
    // The etag before the request: the one render() just read for If-Match, else read now.
    const etagBefore = !guarded ? undefined : plan.ifMatch.kind === 'current' ? request.headers['if-match'] : await this.server.currentEtag(request.path.split('?', 1)[0]!)
    const before = this.last ?? (await this.server.fingerprint())
    this.last = undefined
    const answer = await this.server.send(request)
    const after = await this.server.fingerprint()
    this.last = after
    this.requests += 1
    const oauth2 = OAUTH2_TOKEN_PATHS.has(operation.path)
    const problems = answerProblems(answer, { requestedStatus: requestedStatus(operation, request, answer), oauth2 }, request.method)
    if (answer.status === 0 || answer.status >= 400) {
      const allowed = REFUSALS_THAT_WRITE[plan.operation]
      const changes = fingerprintChanges(before, after).filter((change) => !allowed?.test(change))
      if (changes.length > 0) problems.push(`a refused request wrote to the database (${changes.join(', ')})`)
    }
    problems.push(...operationProblems(operation, plan, request, answer, etagBefore), ...(extra?.(request, answer, operation) ?? []))
    if (problems.length > 0) this.report(plan, request, answer, problems)
  }

  /** Problems with an exchange made outside of a plan (raw sockets, probes). */
  report(plan: Pick<RequestPlan, 'method' | 'operation'>, request: SentRequest, answer: Answer, problems: string[]): void {
    const message = describeExchange(request, answer, problems)
    if (!SURVEY) throw new Error(message)
    const kind = `${answer.status} ${problems.map((problem) => problem.replace(/\d+/g, 'N').slice(0, 50)).join(' + ')}`
    const finding = this.findings.get(kind) ?? { message, seen: 0, operations: new Set<string>() }
    finding.seen += 1
    finding.operations.add(plan.operation)
    this.findings.set(kind, finding)
  }

  /** In a survey: fails with every distinct problem seen. */
  assertNoFindings(seed: number): void {
    const findings = [...this.findings.values()]
    this.findings.clear()
    if (findings.length === 0) return
    const listed = findings
      .map(({ message, seen, operations }, index) => `#${index + 1} (seen ${seen} times, on ${[...operations].slice(0, 6).join('; ')}${operations.size > 6 ? '; …' : ''})\n${message}`)
      .join('\n\n')
    throw new Error(`${findings.length} distinct problems (seed ${seed}, replay with KASSA_FUZZ_SEED=${seed}):\n\n${listed}`)
  }
}
