import net from 'node:net'
import type { AddressInfo } from 'node:net'
import { expect, it } from 'vitest'
import { SHUTDOWN_RETRY_AFTER_SECONDS } from '../../src/http/shutdown.js'
import { basicAuth, startTestApp } from '../support/test-app.js'
import { expectError } from './expectations.js'
import { answersIn } from '../support/raw-http.js'

it('a request that arrives while the server shuts down gets a 503 in the envelope, with request-id and Retry-After', async () => {
  const t = await startTestApp()
  await t.app.listen({ host: '127.0.0.1', port: 0 })
  const port = (t.app.server.address() as AddressInfo).port
  const auth = basicAuth(t.owner)
  const socket = net.connect(port, '127.0.0.1')
  const chunks: Buffer[] = []
  socket.on('data', (chunk) => chunks.push(chunk))
  const closed = new Promise((resolve) => socket.on('close', resolve))
  await new Promise((resolve) => socket.on('connect', resolve))

  // A request still running when the shutdown begins keeps the connection busy, so it is not closed as idle...
  socket.write(`POST /v1/idempotency-test?sleep=1000 HTTP/1.1\r\nHost: localhost\r\nAuthorization: ${auth}\r\nContent-Length: 0\r\n\r\n`)
  await new Promise((resolve) => setTimeout(resolve, 200))
  const closing = t.app.close()
  await new Promise((resolve) => setTimeout(resolve, 100))
  // ...and the next request on it arrives while the server closes.
  socket.write(`GET /payments/v2/counterparties HTTP/1.1\r\nHost: localhost\r\nAuthorization: ${auth}\r\n\r\n`)
  await closing
  await closed
  await t.db.destroy()

  const [running, late] = answersIn(Buffer.concat(chunks).toString('utf8'))
  expect(running?.status).toBe(200)
  expect(late).toBeDefined()
  const body = expectError(late!, 503, 'unavailable')
  expect(body.message).toBe('The server is shutting down; retry the request')
  expect(late!.headers['retry-after']).toBe(String(SHUTDOWN_RETRY_AFTER_SECONDS))
  expect(late!.headers.connection).toBe('close')
})
