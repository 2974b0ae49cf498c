import { createRequire } from 'node:module'
import { Worker } from 'node:worker_threads'
import type SqliteDatabase from 'better-sqlite3'

/** How often the background checkpointer copies the WAL's committed pages into the database file. */
export const CHECKPOINT_INTERVAL_MS = 20

/**
 * The writing connection's own automatic checkpoint, in pages of WAL: a backstop only, should the background one
 * fall behind (it copies what that one has not yet, holding the write lock, so the WAL then starts over).
 */
export const BACKSTOP_CHECKPOINT_PAGES = 10_000

/**
 * The checkpointer's thread: its own connection to the file, a PASSIVE checkpoint every interval (it waits for no
 * reader or writer, and copies what it can). CommonJS, given as source: a worker's file would need a loader under tsx.
 */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads')
const Database = require(workerData.driver)
const db = new Database(workerData.path)
db.pragma('busy_timeout = 0')
const checkpoint = db.prepare('pragma wal_checkpoint(PASSIVE)')
let failing = false
const timer = setInterval(() => {
  try {
    checkpoint.get()
    failing = false
  } catch (error) {
    // Said once until a checkpoint succeeds again, not every interval.
    if (!failing) parentPort.postMessage(String(error))
    failing = true
  }
}, workerData.interval)
parentPort.once('message', () => {
  clearInterval(timer)
  db.close()
  parentPort.close()
})
`

/**
 * Checkpoints of a SQLite file in WAL mode, off the event loop (issue 14). SQLite checkpoints in the COMMIT that takes
 * the WAL past 1,000 pages: a create's answer then waited for 2–7 ms of copying, which set the p99 of creates (20–21 ms
 * at 50 connections against 15 ms without, measured). The writer now checkpoints only as a backstop, and a thread of
 * this process copies the pages between its commits; the writer starts the WAL over once a checkpoint has caught up.
 * `onError` hears a checkpoint that failed (the next one tries again; the backstop holds the WAL's size meanwhile).
 * Returns its stop, which waits for the thread's connection to close.
 */
export function checkpointInBackground(writer: SqliteDatabase.Database, path: string, onError: (message: string) => void): () => Promise<void> {
  writer.pragma(`wal_autocheckpoint = ${BACKSTOP_CHECKPOINT_PAGES}`)
  const driver = createRequire(import.meta.url).resolve('better-sqlite3')
  const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { driver, path, interval: CHECKPOINT_INTERVAL_MS } })
  worker.unref()
  worker.on('message', onError)
  // A thread that failed (its file gone) has stopped: the backstop checkpoints from then on.
  worker.on('error', (error) => onError(String(error)))
  const exited = new Promise((resolve) => worker.once('exit', resolve))
  return async () => {
    // Kept alive until the thread has closed its connection: an unreferenced thread would let the process end first.
    worker.ref()
    worker.postMessage('stop')
    await exited
  }
}
