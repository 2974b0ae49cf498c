/**
 * When a failed delivery is tried again: exponential backoff with jitter, for at least
 * `retryForMilliseconds` after the delivery was enqueued (or redelivered); the first failure
 * after that marks it failed. Defaults: 10 s, 20 s, 40 s, … capped at 1 h, for 24 h — about 30
 * attempts. Every number is configurable, so tests compress the schedule to milliseconds.
 */
export interface RetrySchedule {
  /** Delay after the first failed attempt. */
  initialDelayMilliseconds: number
  /** The delay doubles per failed attempt up to this. */
  maxDelayMilliseconds: number
  /** How long after enqueueing a delivery keeps being retried. */
  retryForMilliseconds: number
}

export const DEFAULT_RETRY_SCHEDULE: RetrySchedule = {
  initialDelayMilliseconds: 10_000,
  maxDelayMilliseconds: 60 * 60_000,
  retryForMilliseconds: 24 * 60 * 60_000,
}

/**
 * Delay before attempt `failedAttempts + 1`. "Equal jitter": half the backoff fixed, half random,
 * so retries of many deliveries that failed together (an endpoint outage) spread out but never
 * come sooner than half the schedule.
 */
export function retryDelay(schedule: RetrySchedule, failedAttempts: number, random: () => number = Math.random): number {
  const exponent = Math.min(Math.max(failedAttempts - 1, 0), 30)
  const backoff = Math.min(schedule.maxDelayMilliseconds, schedule.initialDelayMilliseconds * 2 ** exponent)
  return Math.round(backoff / 2 + random() * (backoff / 2))
}
