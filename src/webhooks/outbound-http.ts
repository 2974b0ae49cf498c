import http from 'node:http'
import https from 'node:https'
import type { LookupFunction } from 'node:net'
import type { ResolvedAddress } from './target-policy.js'

/**
 * One webhook POST. The connection goes to the addresses the target policy just approved (the
 * socket's DNS lookup is answered from them), so a DNS answer that changes between the check and
 * the connect cannot point a delivery elsewhere. Redirects are not followed: a 3xx is a failure.
 * Keep-alive agents let consecutive deliveries to one endpoint reuse their connection.
 */

export interface PostResult {
  statusCode?: number
  durationMilliseconds: number
  error?: string
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

function describeError(error: unknown): string {
  const { code, message } = error as { code?: string; message?: string }
  return code && !message?.includes(code) ? `${code}: ${message}` : (message ?? String(error))
}

export function createOutboundClient(): OutboundClient {
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
        // The whole exchange, connect to last byte, gets `timeoutMilliseconds`.
        const timer = setTimeout(() => {
          finish({ error: `no response within ${timeoutMilliseconds} ms` })
          request.destroy()
        }, timeoutMilliseconds)
        request.on('response', (response) => {
          const statusCode = response.statusCode ?? 0
          // The status is the answer; the body is read (and dropped) so the connection can be reused.
          response.resume()
          response.on('end', () => clearTimeout(timer))
          response.on('error', () => clearTimeout(timer))
          if (statusCode >= 200 && statusCode < 300) finish({ statusCode })
          else if (statusCode >= 300 && statusCode < 400) finish({ statusCode, error: 'redirects are not followed' })
          else finish({ statusCode, error: `the endpoint answered ${statusCode}` })
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
