import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { dashboardUnderTest } from './support/dashboard-under-test.js'
import { counterpartyAccount, euroAccount, newCreditTransfer, newPerson, sessionCookieOf, signIn } from './support/kassa-server.js'

/**
 * Another site, open in the same browser as a signed-in Owner, tries to approve a payment through the
 * person's session. It is served from 127.0.0.1 on another port: the same *site* as Kassa (ports do not
 * count), so the browser does send the SameSite=Strict cookie — and it is the API's own check (a
 * same-origin Origin and the CSRF token) that refuses.
 */
const { server, openProfile } = dashboardUnderTest()
let attacker: Server
let attackerOrigin: string

function forgedPage(target: string, approvalStepId: string): string {
  // text/plain forms and no-cors fetches are "simple" requests: no preflight stops them from being sent.
  return `<!doctype html><title>Win a prize</title>
<form method="POST" action="${target}" enctype="text/plain">
  <input type="hidden" name='{"approvalStepId":"${approvalStepId}","padding":"' value='"}'>
  <button type="submit">Claim your prize</button>
</form>`
}

beforeAll(async () => {
  attacker = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://attacker')
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
    response.end(forgedPage(url.searchParams.get('target') ?? '', url.searchParams.get('step') ?? ''))
  })
  await new Promise<void>((resolve) => attacker.listen(0, '127.0.0.1', resolve))
  attackerOrigin = `http://127.0.0.1:${(attacker.address() as AddressInfo).port}`
})
afterAll(async () => {
  await new Promise((resolve) => attacker?.close(resolve))
})

describe('a forged cross-site request with the session cookie', () => {
  it('is refused (403), by form POST and by fetch, and the payment stays waiting', async () => {
    const olivia = await newPerson(server, 'Olivia Owner', 'owner')
    const payment = await newCreditTransfer(server.api, {
      reference: 'Invoice 2025-0099',
      value: 990_00,
      sourceId: await euroAccount(server.api),
      destinationId: await counterpartyAccount(server.api, 'Nordlicht Consulting GmbH'),
    })
    const { context, page } = await openProfile()
    await signIn(page, server, olivia)
    const cookie = await sessionCookieOf(context)
    expect(cookie).toBeDefined()

    const target = `${server.origin}/payments/v2/credit-transfers/${payment.id}:approve`
    const evil = await context.newPage()
    await evil.goto(`${attackerOrigin}/?target=${encodeURIComponent(target)}&step=${payment.approvalSteps[0]!.id}`)

    // 1. The classic: a form on the other site posts to Kassa, and the browser navigates there.
    const [formAnswer] = await Promise.all([evil.waitForResponse(target), evil.getByRole('button', { name: 'Claim your prize' }).click()])
    expect((await formAnswer.request().allHeaders()).cookie).toContain(`kassa_session=${cookie}`)
    expect(formAnswer.status()).toBe(403)
    expect(await formAnswer.json()).toMatchObject({
      code: 'forbidden',
      message: "A request with the session cookie must come from this server's own pages: its Origin header is missing or foreign",
    })

    // 2. A script on the other site: fetch with the person's credentials (the answer would be opaque to it anyway).
    // 403, not the 401 of the same request without credentials: the cookie arrived, and was refused all the same.
    await evil.goto(`${attackerOrigin}/`)
    const forge = (credentials: 'include' | 'omit') =>
      Promise.all([
        evil.waitForResponse(target),
        evil.evaluate(
          ({ url, step, credentials }) =>
            fetch(url, { method: 'POST', mode: 'no-cors', credentials, headers: { 'content-type': 'text/plain' }, body: JSON.stringify({ approvalStepId: step }) }),
          { url: target, step: payment.approvalSteps[0]!.id, credentials },
        ),
      ])
    expect((await forge('include'))[0].status()).toBe(403)
    expect((await forge('omit'))[0].status()).toBe(401)

    const { data: after } = await server.api.GET('/payments/v2/credit-transfers/{id}', { params: { path: { id: payment.id } } })
    expect(after.status).toBe('CREATED')
    expect(after.approvalSteps.map((step) => step.status)).toEqual(['PENDING'])
    // The dashboard itself, same origin and with the token, still may.
    await page.getByRole('row', { name: /Invoice 2025-0099/ }).getByRole('button', { name: 'Approve' }).click()
    await expect.poll(async () => (await server.api.GET('/payments/v2/credit-transfers/{id}', { params: { path: { id: payment.id } } })).data.status).not.toBe('CREATED')
    await context.close()
  })
})
