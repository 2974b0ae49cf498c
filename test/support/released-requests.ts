import net from 'node:net'
import { parseAnswer, type WireAnswer } from './raw-http.js'

/** One HTTP/1.1 request to send on a connection of its own. */
export interface ReleasedRequest {
  port: number
  method: string
  path: string
  headers: Record<string, string>
  body?: string
}


function wireText(request: ReleasedRequest): string {
  const body = request.body ?? ''
  const headers = {
    host: `127.0.0.1:${request.port}`,
    ...request.headers,
    'content-length': String(Buffer.byteLength(body)),
    // The server closes after answering: the end of the stream is the end of the answer.
    connection: 'close',
  }
  const lines = Object.entries(headers).map(([name, value]) => `${name}: ${value}`)
  return `${request.method} ${request.path} HTTP/1.1\r\n${lines.join('\r\n')}\r\n\r\n${body}`
}

function parse(raw: string): WireAnswer {
  const answer = parseAnswer(raw)
  if (!answer) throw new Error(`no complete HTTP answer: ${JSON.stringify(raw.slice(0, 200))}`)
  return answer
}

function connected(port: number): Promise<net.Socket> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1')
    socket.once('connect', () => resolve(socket))
    socket.once('error', reject)
  })
}

function answer(socket: net.Socket, timeoutMilliseconds: number): Promise<WireAnswer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    const timer = setTimeout(() => {
      socket.destroy()
      reject(new Error(`no answer within ${timeoutMilliseconds} ms`))
    }, timeoutMilliseconds)
    socket.on('data', (chunk: Buffer) => chunks.push(chunk))
    socket.once('error', (error) => {
      clearTimeout(timer)
      reject(error)
    })
    socket.once('end', () => {
      clearTimeout(timer)
      try {
        resolve(parse(Buffer.concat(chunks).toString('utf8')))
      } catch (error) {
        reject(error)
      }
    })
  })
}

/**
 * Many requests that truly arrive together: every request gets a connection of its own, all of them are opened
 * first, and only once every one is connected are the requests written, in one go — no connection pool
 * serializes them, and none starts before the others are ready. Resolves with the answers in request order.
 */
export async function releasedTogether(requests: readonly ReleasedRequest[], timeoutMilliseconds = 30_000): Promise<WireAnswer[]> {
  const sockets = await Promise.all(requests.map((request) => connected(request.port)))
  const answers = sockets.map((socket) => answer(socket, timeoutMilliseconds))
  sockets.forEach((socket, index) => socket.write(wireText(requests[index]!)))
  return Promise.all(answers)
}
