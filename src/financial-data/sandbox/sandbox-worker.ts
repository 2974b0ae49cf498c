import type { ProcessDueResult, SandboxBank } from './sandbox-bank.js'

export interface SandboxWorker {
  /** Stops after the pass in progress, if any; resolves when it is done. */
  stop(): Promise<void>
}

export interface SandboxWorkerOptions {
  /** Pause between passes: the sandbox's pace (default 2 s). */
  intervalMilliseconds?: number
  /** Told of each pass that did something or failed for some organization. */
  onPass?: (result: ProcessDueResult) => void
  /** Told when a pass fails as a whole (e.g. the database is unreachable); the worker keeps going. */
  onError?: (error: unknown) => void
}

/**
 * Runs `bank.processDue()` every interval, never two passes at once: approved payments dated today
 * reach their final status within one interval, and banks follow the real date at midnight.
 */
export function startSandboxWorker(bank: SandboxBank, options: SandboxWorkerOptions = {}): SandboxWorker {
  const interval = options.intervalMilliseconds ?? 2_000
  let stopped = false
  let running: Promise<void> = Promise.resolve()
  let timer: NodeJS.Timeout | undefined

  const pass = async () => {
    try {
      const result = await bank.processDue(new Date())
      if (result.results.some((step) => step.reports.length > 0 || step.previousToday !== step.today) || result.errors.length > 0) {
        options.onPass?.(result)
      }
    } catch (error) {
      options.onError?.(error)
    }
  }
  const schedule = () => {
    if (stopped) return
    timer = setTimeout(() => {
      running = pass().finally(schedule)
    }, interval)
    timer.unref()
  }
  schedule()
  return {
    async stop() {
      stopped = true
      if (timer) clearTimeout(timer)
      await running
    },
  }
}
