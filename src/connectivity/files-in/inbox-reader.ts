import { createHash } from 'node:crypto'
import { link, mkdir, readdir, readFile, stat, unlink } from 'node:fs/promises'
import { join } from 'node:path'
import type { Database } from '../../db/database.js'
import { ApiError } from '../../http/errors.js'
import { connectionRepo } from '../connections/connection.repo.js'
import { createInboundFileService } from './inbound-file.service.js'
import { INBOUND_FILE_LIMIT } from './pain002.model.js'

/** Where a file goes once read: processed (its result is kept with it in bank_files) or refused (not a file Kassa reads). */
export const PROCESSED_DIR = 'processed'
export const REFUSED_DIR = 'refused'

export interface InboxPass {
  /** Files processed and moved to processed/ (a file seen before, by content, too). */
  processed: number
  /** Files Kassa cannot read (a 4xx over HTTP), moved to refused/ with why. */
  refused: { path: string; message: string }[]
  /** Files left where they are for the next pass (the disk or the database failed). */
  failures: { path: string; error: unknown }[]
}

/**
 * Names the channel's tool is still writing are skipped: dot files and temporary names. The tool must drop a file
 * atomically (temporary name, then rename), as Kassa writes its outbox (outbox-writer.ts).
 */
function isDropped(name: string): boolean {
  return !name.startsWith('.') && !/\.(tmp|part)$/i.test(name)
}

/** Whether a file system call failed because the name is not there: the file another process took. */
function isGone(error: unknown): boolean {
  return (error as NodeJS.ErrnoException).code === 'ENOENT'
}

/**
 * Moves a file into a subfolder without overwriting one there (link(2) fails on an existing name): a clash takes a
 * hash of `content` (the file's text, or what stands for it when it was not read). Every server process reads the
 * same inboxes (issue 14): a file another process moved first — gone from the inbox, or already linked under its
 * name (the same inode) — is left to it. @returns false when another process moved the file.
 */
async function moveInto(directory: string, name: string, subfolder: string, content: string): Promise<boolean> {
  const source = join(directory, name)
  const target = join(directory, subfolder)
  await mkdir(target, { recursive: true })
  try {
    await link(source, join(target, name))
  } catch (error) {
    if (isGone(error)) return false
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error
    const [moving, there] = await Promise.all([stat(source).catch(() => undefined), stat(join(target, name))])
    if (moving === undefined || (moving.ino === there.ino && moving.dev === there.dev)) return false
    await link(source, join(target, `${createHash('sha256').update(content, 'utf8').digest('hex').slice(0, 16)}-${name}`)).catch((again: unknown) => {
      if ((again as NodeJS.ErrnoException).code !== 'EEXIST') throw again
    })
  }
  await unlink(source).catch((error: unknown) => {
    if (!isGone(error)) throw error
  })
  return true
}

/** The process's one-import-at-a-time gate (financial-data ImportGate), as far as the inbox reader uses it. */
export interface InboxGate {
  /** Runs `work` holding the gate, or gives undefined without running it while another import holds it. */
  tryHolding<T>(work: () => Promise<T>): Promise<T | undefined>
}

const UNGATED: InboxGate = { tryHolding: (work) => work() }

/**
 * Reads one dropped file and moves it: processed, or refused with why; taken when another process read it too and
 * moved it first (its transaction found the file's hash known and changed nothing). @throws when the disk or the database failed.
 */
async function readOne(database: Database, connection: { id: string; organization_id: string }, directory: string, name: string): Promise<{ refused?: string; taken?: true }> {
  const service = createInboundFileService(database)
  const path = join(directory, name)
  const taken = { taken: true } as const
  // Too large to read at all: refused on its size, never loaded (INBOUND_FILE_LIMIT, as for an upload).
  const found = await stat(path).catch((error: unknown) => (isGone(error) ? undefined : Promise.reject(error)))
  if (found === undefined) return taken
  if (found.size > INBOUND_FILE_LIMIT) {
    const reason = `The file is larger than ${INBOUND_FILE_LIMIT / 1024 / 1024} MiB`
    return (await moveInto(directory, name, REFUSED_DIR, `${found.size}:${found.mtimeMs}`)) ? { refused: reason } : taken
  }
  const xml = await readFile(path, 'utf8').catch((error: unknown) => (isGone(error) ? undefined : Promise.reject(error)))
  if (xml === undefined) return taken
  const ctx = { actor: { organizationId: connection.organization_id }, transaction: database.transaction.bind(database) }
  try {
    if (Buffer.byteLength(xml, 'utf8') > INBOUND_FILE_LIMIT) throw new ApiError('payload_too_large', `The file is larger than ${INBOUND_FILE_LIMIT / 1024 / 1024} MiB`)
    await service.receive(ctx, connection.id, xml)
  } catch (error) {
    // A file Kassa cannot read stays unread however often it is tried: out of the way, with the reason.
    if (!(error instanceof ApiError) || error.status >= 500 || error.code === 'conflict') throw error
    return (await moveInto(directory, name, REFUSED_DIR, xml)) ? { refused: error.message } : taken
  }
  return (await moveInto(directory, name, PROCESSED_DIR, xml)) ? {} : taken
}

/**
 * The files dropped in every connection's inboxDir, processed exactly as POST /connectivity/v2/connections/{id}/files
 * processes an upload (the same service). Each file is read before and moved after its transaction, never inside one.
 * Crash-safe by order: the file is processed (committed, with its content's hash) first and moved second; a crash
 * between the two leaves it in the inbox, and the next pass finds its hash known, changes nothing and moves it. A
 * file that moved was therefore always processed, and no file is lost or applied twice. Each file is read holding
 * `gate` (the server's import gate: never beside an upload); one it cannot get waits in the inbox for the next pass.
 */
export async function readInboxes(database: Database, gate: InboxGate = UNGATED): Promise<InboxPass> {
  const pass: InboxPass = { processed: 0, refused: [], failures: [] }
  for (const connection of await connectionRepo.withInbox(database.db)) {
    const directory = connection.inbox_dir!
    const entries = await readdir(directory, { withFileTypes: true }).catch((error: unknown) => {
      pass.failures.push({ path: directory, error })
      return []
    })
    for (const entry of entries.filter((candidate) => candidate.isFile() && isDropped(candidate.name))) {
      const path = join(directory, entry.name)
      try {
        const read = await gate.tryHolding(() => readOne(database, connection, directory, entry.name))
        if (read === undefined || read.taken) continue
        if (read.refused === undefined) pass.processed += 1
        else pass.refused.push({ path, message: read.refused })
      } catch (error) {
        pass.failures.push({ path, error })
      }
    }
  }
  return pass
}
