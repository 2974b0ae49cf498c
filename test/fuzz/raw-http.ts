import { connect, type Socket } from 'node:net'
import fc from 'fast-check'
import type { Answer } from './http-client.js'

/**
 * Requests no HTTP client library would send, written to a socket byte by byte: broken request
 * lines, headers over Node's 16 KiB limit, Content-Length and Transfer-Encoding together, bodies that
 * stall. Node and Fastify answer most of these themselves, before any route runs; issue 9 wants those
 * answers in the envelope with a request-id as well.
 */

/** Parses one HTTP/1.1 answer from the bytes a socket received (enough for status, headers and body). */
export function parseAnswer(received: Buffer, failure?: string): Answer {
  const text = received.toString('latin1')
  const end = text.indexOf('\r\n\r\n')
  if (end < 0) return { status: 0, headers: {}, body: '', bytes: 0, failure: failure ?? (received.length === 0 ? 'closed without an answer' : `not an HTTP answer: ${text.slice(0, 80)}`) }
  const [statusLine, ...lines] = text.slice(0, end).split('\r\n')
  const headers: Record<string, string> = {}
  for (const line of lines) {
    const colon = line.indexOf(':')
    if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim()
  }
  let body = received.subarray(end + 4)
  if (/chunked/i.test(headers['transfer-encoding'] ?? '')) body = dechunked(body)
  return { status: Number(statusLine?.split(' ')[1] ?? 0), headers, body: body.toString('utf8'), bytes: body.length }
}

/** The body of a chunked answer (RFC 9112 §7.1), chunk extensions and trailers ignored. */
function dechunked(raw: Buffer): Buffer {
  const parts: Buffer[] = []
  let at = 0
  for (;;) {
    const lineEnd = raw.indexOf('\r\n', at)
    const size = lineEnd < 0 ? NaN : parseInt(raw.subarray(at, lineEnd).toString('latin1'), 16)
    if (!(size > 0)) return Buffer.concat(parts)
    parts.push(raw.subarray(lineEnd + 2, lineEnd + 2 + size))
    at = lineEnd + 2 + size + 2
  }
}

/** Whether `received` holds a complete answer: by Content-Length, by the last chunk; else only the socket's end tells. */
function complete(received: Buffer): boolean {
  const text = received.toString('latin1')
  const end = text.indexOf('\r\n\r\n')
  if (end < 0) return false
  const head = text.slice(0, end)
  if (/\r\ntransfer-encoding:[^\r]*chunked/i.test(head)) return text.endsWith('0\r\n\r\n')
  const length = /\r\ncontent-length:\s*(\d+)/i.exec(head)
  return length !== null && received.length - (end + 4) >= Number(length[1])
}

export interface RawExchange {
  socket: Socket
  /** Settles with the first answer, or when the socket closes or `timeoutMs` passes without one. */
  answer: Promise<Answer>
}

/** Opens a connection, writes `bytes` and waits for one answer. */
export function rawExchange(port: number, bytes: Buffer | string, timeoutMs = 15_000): RawExchange {
  const socket = connect({ host: '127.0.0.1', port })
  const answer = new Promise<Answer>((resolve) => {
    const chunks: Buffer[] = []
    const received = () => Buffer.concat(chunks)
    const timer = setTimeout(() => {
      resolve(parseAnswer(received(), `no answer within ${timeoutMs} ms`))
      socket.destroy()
    }, timeoutMs)
    socket.on('data', (chunk: Buffer) => {
      chunks.push(chunk)
      if (complete(received())) {
        clearTimeout(timer)
        resolve(parseAnswer(received()))
        socket.end()
      }
    })
    socket.on('close', () => {
      clearTimeout(timer)
      resolve(parseAnswer(received()))
    })
    socket.on('error', () => undefined)
  })
  socket.write(bytes)
  return { socket, answer }
}

const CRLF = '\r\n'

function request(lines: string[], body = ''): string {
  return `${lines.join(CRLF)}${CRLF}${CRLF}${body}`
}

/** Malformed and oversized requests at the HTTP level. */
export const malformedHttp: fc.Arbitrary<{ label: string; bytes: string }> = fc.oneof(
  fc.constantFrom(16_000, 17_000, 40_000, 70_000).map((size) => ({
    label: `a header of ${size} bytes`,
    bytes: request(['GET /payments/v2/counterparties HTTP/1.1', 'Host: kassa', `X-Padding: ${'a'.repeat(size)}`]),
  })),
  fc.constantFrom(17_000, 70_000).map((size) => ({ label: `a URL of ${size} bytes`, bytes: request([`GET /payments/v2/counterparties/${'a'.repeat(size)} HTTP/1.1`, 'Host: kassa']) })),
  fc.constantFrom(500, 3_000).map((count) => ({
    label: `${count} headers`,
    bytes: request(['GET /healthz HTTP/1.1', 'Host: kassa', ...Array.from({ length: count }, (_, n) => `X-H${n}: ${n}`)]),
  })),
  fc.constantFrom(
    { label: 'garbage request line', bytes: request(['GARBAGE']) },
    { label: 'HTTP/9.9', bytes: request(['GET /healthz HTTP/9.9', 'Host: kassa']) },
    { label: 'binary', bytes: '\u0000\u0001\u0002\u0003\r\n\r\n' },
    { label: 'no Host', bytes: request(['GET /healthz HTTP/1.1']) },
    { label: 'space in header name', bytes: request(['GET /healthz HTTP/1.1', 'Host: kassa', 'Bad Header: x']) },
    { label: 'control character in header value', bytes: request(['GET /healthz HTTP/1.1', 'Host: kassa', 'X-Bad: a\u0001b']) },
    { label: 'header line folded', bytes: request(['GET /healthz HTTP/1.1', 'Host: kassa', 'X-Folded: a', ' b']) },
    { label: 'Content-Length and Transfer-Encoding', bytes: request(['POST /payments/v2/counterparties HTTP/1.1', 'Host: kassa', 'Content-Type: application/json', 'Content-Length: 5', 'Transfer-Encoding: chunked'], '0\r\n\r\n') },
    { label: 'two Content-Lengths', bytes: request(['POST /payments/v2/counterparties HTTP/1.1', 'Host: kassa', 'Content-Length: 2', 'Content-Length: 3'], '{}') },
    { label: 'negative Content-Length', bytes: request(['POST /payments/v2/counterparties HTTP/1.1', 'Host: kassa', 'Content-Length: -1'], '{}') },
    { label: 'bad chunk size', bytes: request(['POST /payments/v2/counterparties HTTP/1.1', 'Host: kassa', 'Content-Type: application/json', 'Transfer-Encoding: chunked'], 'zz\r\n{}\r\n0\r\n\r\n') },
    { label: 'unknown Transfer-Encoding', bytes: request(['POST /payments/v2/counterparties HTTP/1.1', 'Host: kassa', 'Transfer-Encoding: gzip, chunked'], '0\r\n\r\n') },
    { label: 'absolute-form URL', bytes: request(['GET http://evil.example/healthz HTTP/1.1', 'Host: kassa']) },
    { label: 'asterisk-form URL', bytes: request(['OPTIONS * HTTP/1.1', 'Host: kassa']) },
    { label: 'CONNECT', bytes: request(['CONNECT 127.0.0.1:22 HTTP/1.1', 'Host: 127.0.0.1:22']) },
    { label: 'unknown method', bytes: request(['BREW /healthz HTTP/1.1', 'Host: kassa']) },
    { label: 'Expect of an unknown kind', bytes: request(['POST /payments/v2/counterparties HTTP/1.1', 'Host: kassa', 'Expect: x-unknown', 'Content-Length: 2'], '{}') },
    { label: 'Upgrade to websocket', bytes: request(['GET /healthz HTTP/1.1', 'Host: kassa', 'Connection: Upgrade', 'Upgrade: websocket']) },
    { label: 'HTTP/1.0 without Host', bytes: request(['GET /healthz HTTP/1.0']) },
  ),
)
