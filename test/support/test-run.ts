import { randomUUID } from 'node:crypto'
import type { TestProject } from 'vitest/node'

declare module 'vitest' {
  export interface ProvidedContext {
    /** One id per `vitest run`, the same in every project and worker: work done once per run keys on it. */
    testRunId: string
  }
}

const RUN_ID = randomUUID()

/** Global setup: gives every test file the run's id (see test/cli/cli-process.ts, which builds once per run). */
export default function provideRunId(project: TestProject): void {
  project.provide('testRunId', RUN_ID)
}
