import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core'

/**
 * Debian's Chromium (`apt-get install -y chromium`, which .ci/run does when it is missing), never a
 * browser downloaded by Playwright: playwright-core only drives it.
 */
export const CHROMIUM = '/usr/bin/chromium'
const FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync']

/** The widths the dashboard is made for: a laptop and a phone. */
export const DESKTOP = { width: 1280, height: 800 }
export const PHONE = { width: 390, height: 844 }

export const SCREENSHOTS = join(process.cwd(), 'test-results', 'screenshots')

export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM, args: FLAGS, headless: true })
}

export interface PersonView {
  context: BrowserContext
  page: Page
  /** Script errors and Content-Security-Policy refusals the page reported: each is a failure of the page. */
  problems: string[]
}

export interface ProfileOptions {
  viewport?: { width: number; height: number }
  locale?: string
  timezoneId?: string
}

/**
 * A fresh browser profile (its own cookies) at `viewport`, in a fixed locale and time zone so what the
 * tests read is stable: en-GB in Berlin unless told otherwise.
 */
export async function openProfile(browser: Browser, options: ProfileOptions = {}): Promise<PersonView> {
  const context = await browser.newContext({
    viewport: options.viewport ?? DESKTOP,
    locale: options.locale ?? 'en-GB',
    timezoneId: options.timezoneId ?? 'Europe/Berlin',
  })
  // A control that does not appear fails its test in seconds, not at the test's own timeout.
  context.setDefaultTimeout(15_000)
  const page = await context.newPage()
  const problems: string[] = []
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`))
  page.on('console', (message) => {
    if (message.type() === 'error' && /Content Security Policy|Refused to/.test(message.text())) problems.push(`console: ${message.text()}`)
  })
  return { context, page, problems }
}

/** A full-page screenshot into test-results/screenshots/ (kept by CI as an artifact folder). */
export async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync(SCREENSHOTS, { recursive: true })
  await page.screenshot({ path: join(SCREENSHOTS, `${name}.png`), fullPage: true })
}
