import { setTimeout as sleep } from 'node:timers/promises'
import type { Credentials } from '../../src/iam/index.js'
import { basicAuth } from '../support/test-app.js'

/**
 * The clients of the crash proof (crash.test.ts): keyed POSTs sent until each got its answer, through server
 * processes that are killed under them, with a share of the answers lost on the way.
 */

/** Share of answers the "network" drops: the client saw nothing and retries. */
const DROPPED = 0.2

/** Who sends a task: an access key. */
export type Sender = Pick<Credentials, 'accessKey' | 'secret'>

/** One keyed request a client repeats until it sees its answer. */
export interface Task {
  key: string
  path: string
  body: unknown
  as: Sender
  /** The status of the answer that completes it: 201 for a create, 202 for an approval. */
  status: number
  /** Every answer the client saw (the body's bytes): the original and its replays must all be one. */
  seen: Set<string>
  done: boolean
  /** An attempt got no answer (cut off by a kill, or no server listening), or its answer was dropped. */
  interrupted: boolean
  /** When the task was first tried again after its last interruption. */
  retryFrom: number | undefined
  /** For an interrupted task: milliseconds from retryFrom to the answer that completed it. */
  latency: number | undefined
  /** Runs once, with the body of the first answer the client saw (a create hands on its approval); then cleared. */
  then?: (body: string) => void
}

export function task(fields: Pick<Task, 'key' | 'path' | 'body' | 'as' | 'status' | 'then'>): Task {
  return { ...fields, seen: new Set(), done: false, interrupted: false, retryFrom: undefined, latency: undefined }
}

export interface Counts {
  status425: number
  /** Requests that got no answer: in flight when their server died. */
  cutOff: number
  /** Requests sent while their server was down. */
  refused: number
  dropped: number
}

export function noCounts(): Counts {
  return { status425: 0, cutOff: 0, refused: 0, dropped: 0 }
}

/** No answer: `refused` when no process listened (killed, not yet restarted), else cut off mid-request. */
type Outcome = { kind: 'answer'; body: string } | { kind: 'retry'; status: number } | { kind: 'lost'; refused: boolean }

async function attempt(url: string, task: Task): Promise<Outcome> {
  let response: Response
  let text: string
  try {
    response = await fetch(`${url}${task.path}`, {
      method: 'POST',
      headers: { authorization: basicAuth(task.as), 'content-type': 'application/json', 'idempotency-key': task.key },
      body: JSON.stringify(task.body),
      signal: AbortSignal.timeout(10_000),
    })
    text = await response.text()
  } catch (error) {
    return { kind: 'lost', refused: (error as { cause?: { code?: string } }).cause?.code === 'ECONNREFUSED' }
  }
  if (response.status === task.status) return { kind: 'answer', body: text }
  // 425 (the key in flight), 503 (shutting down): retry; anything else is a defect.
  if (response.status !== 425 && response.status !== 503) throw new Error(`${task.key}: unexpected ${response.status}: ${text}`)
  return { kind: 'retry', status: response.status }
}

function interrupt(task: Task): void {
  task.interrupted = true
  task.retryFrom = undefined
}

export interface Load {
  clients: number
  queue: Task[]
  /** The base URLs of the server processes, as they are now (a killed one's until it is replaced). */
  servers: () => readonly string[]
  /** Whether every task there is, or will be, has completed: the clients then stop. */
  finished: () => boolean
  counts: Counts
}

/**
 * Clients take tasks from the queue, one client per task at a time, until `finished`. Client i starts on server
 * i mod n and moves to the next one when a connection fails, as behind a load balancer. A task that got no
 * answer goes back to the end of the queue.
 */
export async function runClients(load: Load): Promise<void> {
  const { queue, counts } = load
  const client = async (index: number) => {
    let server = index
    while (!load.finished()) {
      const next = queue.shift()
      if (!next) {
        await sleep(10)
        continue
      }
      if (next.interrupted && next.retryFrom === undefined) next.retryFrom = performance.now()
      const servers = load.servers()
      const outcome = await attempt(servers[server % servers.length]!, next)
      if (outcome.kind === 'retry') {
        queue.push(next)
        if (outcome.status === 425) counts.status425 += 1
        await sleep(5)
        continue
      }
      if (outcome.kind === 'lost') {
        queue.push(next)
        interrupt(next)
        server += 1
        if (outcome.refused) counts.refused += 1
        else counts.cutOff += 1
        // Nobody listening: back off (a restart takes seconds) rather than spin, leaving the CPU to the restart.
        await sleep(outcome.refused ? 100 : 5)
        continue
      }
      if (Math.random() < DROPPED) {
        counts.dropped += 1
        interrupt(next)
        queue.push(next)
        continue
      }
      next.seen.add(outcome.body)
      if (next.interrupted) next.latency = performance.now() - next.retryFrom!
      next.done = true
      const then = next.then
      next.then = undefined
      then?.(outcome.body)
    }
  }
  await Promise.all(Array.from({ length: load.clients }, (_, index) => client(index)))
}
