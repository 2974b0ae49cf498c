import http from 'node:http'

/**
 * Real HTTP to the app listening on 127.0.0.1, through node:http rather than fetch: fetch refuses
 * to send some of what the suite must send (a body on GET, a Host of its choosing, any header name),
 * and the framework's own answers (431, the parser's 400) only exist on a real socket.
 */

export interface SentRequest {
  method: string
  /** Path and query string, already percent-encoded as the request line carries them. */
  path: string
  headers: Record<string, string>
  body?: Buffer
}

export interface Answer {
  /** 0 when no answer came: then `failure` says why. */
  status: number
  headers: Record<string, string>
  /** The body as text, cut after MAX_KEPT bytes; `bytes` is its full length. */
  body: string
  bytes: number
  failure?: string
}

const MAX_KEPT = 1024 * 1024

/** Header values as bytes on the wire: non-ASCII as its UTF-8 bytes, control characters (which node:http refuses) as `?`. */
export function headerValue(text: string): string {
  return Buffer.from(text, 'utf8')
    .toString('latin1')
    .replace(/[^\t\x20-\x7e\x80-\xff]/g, '?')
}

export class HttpClient {
  private readonly agent = new http.Agent({ keepAlive: true, maxSockets: 8 })

  constructor(private readonly base: URL) {}

  send(request: SentRequest, timeoutMs = 30_000): Promise<Answer> {
    return new Promise((resolve) => {
      const chunks: Buffer[] = []
      let bytes = 0
      const outgoing = http.request(
        {
          host: this.base.hostname,
          port: this.base.port,
          method: request.method,
          path: request.path,
          // A body with Transfer-Encoding: chunked goes in chunks, without a Content-Length.
          headers: { ...request.headers, ...(request.body && !request.headers['transfer-encoding'] ? { 'content-length': String(request.body.length) } : {}) },
          agent: this.agent,
        },
        (incoming) => {
          incoming.on('data', (chunk: Buffer) => {
            if (bytes < MAX_KEPT) chunks.push(chunk)
            bytes += chunk.length
          })
          incoming.on('end', () => {
            const headers: Record<string, string> = {}
            for (const [name, value] of Object.entries(incoming.headers)) if (value !== undefined) headers[name] = String(value)
            resolve({ status: incoming.statusCode ?? 0, headers, body: Buffer.concat(chunks).subarray(0, MAX_KEPT).toString('utf8'), bytes })
          })
          incoming.on('error', (error: NodeJS.ErrnoException) => resolve(this.failed(`answer cut off: ${error.code ?? error.message}`)))
        },
      )
      outgoing.setTimeout(timeoutMs, () => outgoing.destroy(Object.assign(new Error(`no answer within ${timeoutMs} ms`), { code: 'TIMEOUT' })))
      outgoing.on('error', (error: NodeJS.ErrnoException) => resolve(this.failed(`${error.code ?? ''} ${error.message}`.trim())))
      outgoing.end(request.body)
    })
  }

  close(): void {
    this.agent.destroy()
  }

  private failed(failure: string): Answer {
    return { status: 0, headers: {}, body: '', bytes: 0, failure }
  }
}
