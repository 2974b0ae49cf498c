import type { Browser } from 'playwright-core'
import { afterAll, beforeAll } from 'vitest'
import { launchChromium, openProfile, type PersonView, type ProfileOptions } from './browser.js'
import { startKassaServer, type KassaServer } from './kassa-server.js'

export interface DashboardUnderTest {
  /** The Kassa server, filled in once it has started: read it inside hooks and tests. */
  server: KassaServer
  /** A fresh browser profile (its own cookies) in the file's Chromium, as openProfile in browser.ts. */
  openProfile(options?: ProfileOptions): Promise<PersonView>
}

/**
 * What a browser test file runs against: a Kassa server with a fresh database (`start`, a
 * startKassaServer unless told otherwise) and Chromium, started side by side before the file's first
 * test and both closed after its last. The file's own beforeAll, registered after this call, runs once
 * they are up.
 */
export function dashboardUnderTest(start: () => Promise<KassaServer> = () => startKassaServer()): DashboardUnderTest {
  const server = {} as KassaServer
  let started: KassaServer | undefined
  let browser: Browser | undefined
  beforeAll(async () => {
    ;[started, browser] = await Promise.all([start(), launchChromium()])
    Object.assign(server, started)
  })
  afterAll(async () => {
    await browser?.close()
    await started?.close()
  })
  return {
    server,
    openProfile(options) {
      if (!browser) throw new Error('Chromium starts in beforeAll: open a profile inside hooks and tests')
      return openProfile(browser, options)
    },
  }
}
