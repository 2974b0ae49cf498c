import http from 'node:http'
import https from 'node:https'
import type { LookupFunction, Socket } from 'node:net'
import { refusedRange, type ResolvedAddress } from './target-policy.js'

/**
 * One webhook POST. The connection goes to the addresses the target policy just approved (the
 * socket's DNS lookup is answered from them), so a DNS answer that changes between the check and
 * the connect cannot point a delivery elsewhere; and the address the socket actually connected to is checked
 * against the policy once more (also on a reused keep-alive socket) before a byte is sent. Redirects are not followed: a 3xx is a failure.
 * Keep-alive agents let consecutive deliveries to one endpoint reuse their connection.
 * The first RESPONSE_EXCERPT_BYTES of the answer are kept for the delivery log (issue 11); the rest is drained unread.
 */

/** How much of an endpoint's answer an attempt keeps: enough to see why it refused, never a whole page. */
export const RESPONSE_EXCERPT_BYTES = 1_024

export interface PostResult {
  statusCode?: number
  durationMilliseconds: number
  error?: string
  /** The start of the answer's body as UTF-8; absent when no answer or an empty one came back. */
  responseExcerpt?: string
}

export interface OutboundClient {
  post(url: URL, addresses: ResolvedAddress[], body: string, headers: Record<string, string>, timeoutMilliseconds: number): Promise<PostResult>
  close(): void
}

/** A socket lookup that answers with the pre-approved addresses only. */
function pinnedLookup(addresses: ResolvedAddress[]): LookupFunction {
  return (_hostname, options, callback) => {
    const usable = options.family === 4 || options.family === 6 ? addresses.filter((a) => a.family === options.family) : addresses
    if (usable.length === 0) {
      callback(Object.assign(new Error('no approved address of the requested family'), { code: 'ENOTFOUND' }), '', 4)
      return
    }
    if (options.all) (callback as unknown as (error: null, all: ResolvedAddress[]) => void)(null, usable)
    else callback(null, usable[0]!.address, usable[0]!.family)
  }
}

/**
 * The excerpt as text: invalid UTF-8 (a character cut at the limit too) becomes U+FFFD, and so does NUL,
 * which a PostgreSQL text column cannot hold. None for an empty body.
 */
function excerptOf(chunks: Buffer[]): Pick<PostResult, 'responseExcerpt'> {
  const bytes = Buffer.concat(chunks).subarray(0, RESPONSE_EXCERPT_BYTES)
  return bytes.length === 0 ? {} : { responseExcerpt: bytes.toString('utf8').replaceAll('\u0000', '\uFFFD') }
}

/** What a status means for the attempt. */
function verdictOf(statusCode: number): Pick<PostResult, 'statusCode' | 'error'> {
  if (statusCode >= 200 && statusCode < 300) return { statusCode }
  if (statusCode >= 300 && statusCode < 400) return { statusCode, error: 'redirects are not followed' }
  return { statusCode, error: `the endpoint answered ${statusCode}` }
}

function describeError(error: unknown): string {
  const { code, message } = error as { code?: string; message?: string }
  return code && !message?.includes(code) ? `${code}: ${message}` : (message ?? String(error))
}

/** The peer of a connected socket, refused unless the target policy admits it. */
function checkPeer(socket: Socket, allowLoopback: boolean): void {
  const peer = socket.remoteAddress
  const range = peer === undefined ? 'unknown' : refusedRange(peer, allowLoopback)
  if (range !== undefined) socket.destroy(new Error(`connected to ${peer ?? 'an unknown address'}, a ${range} address; refused`))
}

export function createOutboundClient(allowLoopback: boolean): OutboundClient {
  const agents = {
    'http:': new http.Agent({ keepAlive: true, maxSockets: 32 }),
    'https:': new https.Agent({ keepAlive: true, maxSockets: 32 }),
  }

  return {
    post(url, addresses, body, headers, timeoutMilliseconds) {
      const started = performance.now()
      const elapsed = () => Math.round(performance.now() - started)
      const transport = url.protocol === 'https:' ? https : http
      return new Promise<PostResult>((resolve) => {
        let settled = false
        const finish = (result: Omit<PostResult, 'durationMilliseconds'>) => {
          if (settled) return
          settled = true
          resolve({ ...result, durationMilliseconds: elapsed() })
        }
        const request = transport.request(url, {
          method: 'POST',
          agent: agents[url.protocol as keyof typeof agents],
          lookup: pinnedLookup(addresses),
          headers: { ...headers, 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)) },
        })
        request.on('socket', (socket: Socket) => {
          if (socket.connecting) socket.once('connect', () => checkPeer(socket, allowLoopback))
          else checkPeer(socket, allowLoopback)
        })
        // Set once the status is in: the attempt's result from then on, with as much excerpt as has come.
        let answered: (() => void) | undefined
        // The whole exchange, connect to last byte, gets `timeoutMilliseconds`.
        const timer = setTimeout(() => {
          if (answered) answered()
          else finish({ error: `no response within ${timeoutMilliseconds} ms` })
          request.destroy()
        }, timeoutMilliseconds)
        request.on('response', (response) => {
          const verdict = verdictOf(response.statusCode ?? 0)
          const chunks: Buffer[] = []
          let kept = 0
          answered = () => finish({ ...verdict, ...excerptOf(chunks) })
          // The status is the answer; the body is read to its end so the connection can be reused, only its start kept.
          response.on('data', (chunk: Buffer) => {
            if (kept >= RESPONSE_EXCERPT_BYTES) return
            chunks.push(chunk)
            kept += chunk.length
            if (kept >= RESPONSE_EXCERPT_BYTES) answered?.()
          })
          response.on('end', () => {
            clearTimeout(timer)
            answered?.()
          })
          response.on('error', () => {
            clearTimeout(timer)
            answered?.()
          })
        })
        request.on('error', (error) => {
          clearTimeout(timer)
          finish({ error: describeError(error) })
        })
        request.end(body)
      })
    },
    close() {
      agents['http:'].destroy()
      agents['https:'].destroy()
    },
  }
}
