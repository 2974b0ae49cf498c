import { DEFAULT_RETRY_SCHEDULE, type RetrySchedule } from './retry-schedule.js'
import { systemResolver, type HostResolver, type TargetPolicy } from './target-policy.js'

/** How webhooks are delivered. Production uses the defaults; tests and benchmarks compress the times. */
export interface WebhookSettings extends TargetPolicy {
  retry: RetrySchedule
  /** A delivery attempt without a complete response by then has failed (issue 5: 10 s). */
  timeoutMilliseconds: number
  /** How long a claimed delivery stays with its worker; past it (the process died), another claims it. */
  leaseMilliseconds: number
  /** How often an idle worker looks for due deliveries (writes over HTTP in this process wake it at once). */
  pollIntervalMilliseconds: number
  /** Attempts in flight at once, per process. */
  concurrency: number
  /** Start the delivery worker when the app is ready; false leaves it to the caller (`app.webhookDeliveries.start()`). */
  startWorker: boolean
}

export type WebhookSettingsInput = Partial<Omit<WebhookSettings, 'retry' | 'allowLoopback'>> & {
  retry?: Partial<RetrySchedule>
  resolve?: HostResolver
}

export function webhookSettings(allowLoopback: boolean, input: WebhookSettingsInput = {}): WebhookSettings {
  const settings: WebhookSettings = {
    allowLoopback,
    resolve: input.resolve ?? systemResolver,
    retry: { ...DEFAULT_RETRY_SCHEDULE, ...input.retry },
    timeoutMilliseconds: input.timeoutMilliseconds ?? 10_000,
    leaseMilliseconds: input.leaseMilliseconds ?? 60_000,
    pollIntervalMilliseconds: input.pollIntervalMilliseconds ?? 1_000,
    concurrency: input.concurrency ?? 16,
    startWorker: input.startWorker ?? true,
  }
  // A lease shorter than an attempt would let a second worker send a delivery still in flight.
  if (settings.leaseMilliseconds <= settings.timeoutMilliseconds) {
    throw new Error('webhook leaseMilliseconds must exceed timeoutMilliseconds')
  }
  return settings
}
