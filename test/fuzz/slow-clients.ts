import type { Credentials } from '../../src/iam/index.js'
import { basicAuth } from '../support/test-app.js'
import type { Answer } from './http-client.js'
import { rawExchange } from './raw-http.js'

/**
 * Clients that never finish their request (issue 9: a body sent a byte every few seconds was never
 * timed out). They are opened when the suite starts and left to run beside it; at the end each must
 * have been answered — a 408 in the envelope (README: Limits, 10 s for headers and for a paused body)
 * — well within PROBE_DEADLINE_MS, which leaves room over those 10 s for the once-a-second check.
 */
export const PROBE_DEADLINE_MS = 30_000

/**
 * How long after the probes start the suite waits before it checks that nothing went wrong in the
 * background: long enough for a body timer left behind by a refused request (10 s) to fire.
 */
export const LINGER_MS = 15_000

/** Bytes are dribbled this far apart: too slow for any documented rate, fast enough never to look idle. */
const DRIBBLE_MS = 2_000

export interface SlowProbe {
  label: string
  /** 408; 401 when the credentials are missing and 413 when the body is too large, both said before the body is read. */
  expected: number
  answer: Promise<Answer & { afterMs: number }>
}

function probe(port: number, label: string, expected: number, first: string, dribble?: string): SlowProbe {
  const started = Date.now()
  const exchange = rawExchange(port, first, PROBE_DEADLINE_MS)
  let timer: NodeJS.Timeout | undefined
  if (dribble !== undefined) {
    let sent = 0
    timer = setInterval(() => {
      if (exchange.socket.writable) exchange.socket.write(dribble[sent % dribble.length]!)
      sent += 1
    }, DRIBBLE_MS)
  }
  const answer = exchange.answer.then((received) => {
    clearInterval(timer)
    exchange.socket.destroy()
    return { ...received, afterMs: Date.now() - started }
  })
  return { label, expected, answer }
}

export function startSlowProbes(port: number, owner: Credentials): SlowProbe[] {
  const post = (length: number, authorized: boolean) =>
    [
      'POST /payments/v2/counterparties HTTP/1.1',
      'Host: kassa',
      'Content-Type: application/json',
      `Content-Length: ${length}`,
      ...(authorized ? [`Authorization: ${basicAuth(owner)}`] : []),
      '',
      '',
    ].join('\r\n')
  return [
    probe(port, 'a body that stops after 10 bytes', 408, `${post(100, true)}{"legalNam`),
    probe(port, 'a body that stops, unauthenticated', 401, `${post(100, false)}{"legalNam`),
    probe(port, 'a body dribbled a byte every 2 s', 408, post(10_000, true), '{"legalName":"slow"}'),
    probe(port, 'headers that stop before their end', 408, 'GET /payments/v2/counterparties HTTP/1.1\r\nHost: kassa\r\n'),
    // Refused before it is read: whatever the server set up to watch this body must not outlive the answer.
    probe(port, 'a body over the 1 MiB limit, sent whole', 413, `${post(2_000_000, true)}${'x'.repeat(2_000_000)}`),
    probe(port, 'headers dribbled a byte every 2 s', 408, 'GET /payments/v2/counterparties HTTP/1.1\r\n', 'X-Slow: aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa'),
  ]
}
