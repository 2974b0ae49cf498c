import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { counterpartyBody } from '../support/fixtures.js'
import type { TestApp } from '../support/test-app.js'
import { createWebhook, startWebhookTestApp, waitForDeliveries } from './webhook-helpers.js'

/** Each attempt keeps the start of the endpoint's answer (issue 11): 1,024 bytes, as UTF-8, invalid bytes replaced. */
let t: TestApp
let server: Server
let url = ''
// A refusal longer than the excerpt, with a NUL and a byte that is not UTF-8 after its 15-byte start.
const REFUSAL = Buffer.concat([Buffer.from('{"error":"bad"}\u0000'), Buffer.from([0xff]), Buffer.from('x'.repeat(3_000))])
const answers: Array<{ status: number; body: Buffer }> = [
  { status: 500, body: REFUSAL },
  { status: 200, body: Buffer.from('thanks') },
]

beforeAll(async () => {
  t = await startWebhookTestApp()
  let index = 0
  server = createServer((request, response) => {
    request.resume()
    request.on('end', () => {
      const answer = answers[Math.min(index++, answers.length - 1)]!
      response.writeHead(answer.status, { 'content-type': 'text/plain' }).end(answer.body)
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`
})
afterAll(async () => {
  await t.close()
  server.closeAllConnections()
  await new Promise<void>((resolve) => server.close(() => resolve()))
})

describe('the response excerpt of a delivery attempt', () => {
  it("keeps the first 1,024 bytes of the endpoint's answer per attempt, refusals and acknowledgements alike", async () => {
    const webhook = await createWebhook(t, { url, filter: [{ resource: 'counterparties', apiVersion: 2 }] })
    const created = await t.request({ method: 'POST', url: '/payments/v2/counterparties', body: counterpartyBody() })
    expect(created.statusCode, created.body).toBe(201)

    const [delivery] = await waitForDeliveries(t, webhook.id, (deliveries) => deliveries.some((d) => d.status === 'DELIVERED'))
    const attempts = (delivery!.attempts as Array<{ statusCode?: number; responseExcerpt?: string }>).map((attempt) => ({
      statusCode: attempt.statusCode,
      responseExcerpt: attempt.responseExcerpt,
    }))
    expect(attempts).toEqual([
      // 15 bytes of JSON, the NUL and the stray byte each one U+FFFD, then x up to byte 1,024.
      { statusCode: 500, responseExcerpt: `{"error":"bad"}\uFFFD\uFFFD${'x'.repeat(1_024 - 17)}` },
      { statusCode: 200, responseExcerpt: 'thanks' },
    ])
  })
})
