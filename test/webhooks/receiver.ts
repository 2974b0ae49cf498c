import { createServer, type IncomingHttpHeaders, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { verifyWebhookSignature } from '../../src/index.js'

/** A webhook endpoint on loopback that records every request and answers as told. */

export interface Received {
  body: string
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  json: any
  headers: IncomingHttpHeaders
  timestamp: string
  signature: string
  path: string
  receivedAt: number
}

/** The status to answer with (the body "ok"), a status and body, or 'hang' to never answer. */
export type Responder = (request: Received, index: number) => number | { status: number; body: string } | 'hang'

export interface Receiver {
  url: string
  received: Received[]
  respond: Responder
  /** Resolves once `predicate` holds for what was received; rejects after `timeoutMilliseconds`. */
  waitFor(predicate: (received: Received[]) => boolean, timeoutMilliseconds?: number): Promise<void>
  close(): Promise<void>
}

export async function startReceiver(respond: Responder = () => 200): Promise<Receiver> {
  const hanging = new Set<() => void>()
  const waiters = new Set<() => void>()
  const receiver: Receiver = {
    url: '',
    received: [],
    respond,
    waitFor(predicate, timeoutMilliseconds = 10_000) {
      if (predicate(receiver.received)) return Promise.resolve()
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
          waiters.delete(check)
          reject(new Error(`receiver: condition not met within ${timeoutMilliseconds} ms (${receiver.received.length} requests received)`))
        }, timeoutMilliseconds)
        function check() {
          if (!predicate(receiver.received)) return
          clearTimeout(timer)
          waiters.delete(check)
          resolve()
        }
        waiters.add(check)
      })
    },
    async close() {
      for (const release of hanging) release()
      server.closeAllConnections()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    },
  }
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = []
    request.on('data', (chunk: Buffer) => chunks.push(chunk))
    request.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8')
      const entry: Received = {
        body,
        json: JSON.parse(body),
        headers: request.headers,
        timestamp: String(request.headers['webhook-request-timestamp']),
        signature: String(request.headers['webhook-signature']),
        path: request.url ?? '',
        receivedAt: Date.now(),
      }
      const index = receiver.received.length
      receiver.received.push(entry)
      const answer = receiver.respond(entry, index)
      if (answer === 'hang') {
        hanging.add(() => response.destroy())
      } else {
        const { status, body } = typeof answer === 'number' ? { status: answer, body: 'ok' } : answer
        response.writeHead(status, status >= 300 && status < 400 ? { location: 'http://127.0.0.1:1/elsewhere' } : {})
        response.end(body)
      }
      for (const waiter of [...waiters]) waiter()
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`
  return receiver
}

/** True when the request's signature verifies with one of `keys` (the receiving application's check). */
export function isSigned(received: Received, keys: string[]): Promise<boolean> {
  return verifyWebhookSignature({ body: received.body, timestamp: received.timestamp, signatureHeader: received.signature, keys })
}
