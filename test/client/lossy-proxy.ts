import { createServer, request as forward, type IncomingMessage } from 'node:http'
import type { AddressInfo } from 'node:net'

/**
 * A proxy on 127.0.0.1 in front of `target` that forwards every request, but for the first one lets the
 * server answer in full and then cuts the connection before the client sees a byte: the request was
 * served, its answer lost — as when a network fails on the way back.
 */
export interface LossyProxy {
  url: string
  /** The Idempotency-Key of each request forwarded, in order. */
  forwardedKeys: Array<string | undefined>
  close(): Promise<void>
}

export async function startLossyProxy(target: string): Promise<LossyProxy> {
  const upstream = new URL(target)
  const forwardedKeys: Array<string | undefined> = []
  const server = createServer((incoming, outgoing) => {
    const index = forwardedKeys.push(incoming.headers['idempotency-key'] as string | undefined) - 1
    const proxied = forward(
      { host: upstream.hostname, port: upstream.port, method: incoming.method, path: incoming.url, headers: incoming.headers },
      (answer: IncomingMessage) => {
        if (index === 0) {
          // Read the whole answer, so the server has finished with the request, then drop it.
          answer.resume()
          answer.on('end', () => incoming.socket.destroy())
          return
        }
        outgoing.writeHead(answer.statusCode ?? 502, answer.headers)
        answer.pipe(outgoing)
      },
    )
    incoming.pipe(proxied)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    forwardedKeys,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}
