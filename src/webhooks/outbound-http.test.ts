import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createOutboundClient } from './outbound-http.js'

describe('outbound webhook POST', () => {
  let server: http.Server
  let port = 0
  let received = 0

  beforeAll(async () => {
    server = http.createServer((request, response) => {
      received += 1
      request.resume()
      response.end('ok')
    })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    port = (server.address() as AddressInfo).port
  })
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())))

  it('checks the address it actually connected to, not only the one it was given (DNS rebinding)', async () => {
    // As if a host name had been approved on a public address and the connection still reached loopback.
    const client = createOutboundClient(false)
    const url = new URL(`http://rebound.example.com:${port}/hook`)
    const result = await client.post(url, [{ address: '127.0.0.1', family: 4 }], '{}', {}, 2_000)
    client.close()
    expect(result.error).toMatch(/connected to 127\.0\.0\.1, a loopback address; refused/)
    expect(received).toBe(0)
  })

  it('delivers when the connected address is admitted, and checks a reused connection again', async () => {
    const client = createOutboundClient(true)
    const url = new URL(`http://127.0.0.1:${port}/hook`)
    const first = await client.post(url, [{ address: '127.0.0.1', family: 4 }], '{}', {}, 2_000)
    const second = await client.post(url, [{ address: '127.0.0.1', family: 4 }], '{}', {}, 2_000)
    client.close()
    expect([first.statusCode, second.statusCode]).toEqual([200, 200])
    expect(received).toBe(2)
  })
})
