import { randomUUID } from 'node:crypto'
import { link, open, readFile, unlink } from 'node:fs/promises'
import { join } from 'node:path'
import type { Database } from '../../db/database.js'
import { nowIso } from '../../shared/clock.js'
import { bankFileRepo } from '../files/bank-file.repo.js'

/**
 * Writes `content` as `name` in `directory` atomically and never over another file: first under a temporary
 * name (a dot file, which folder-syncing tools skip), flushed to disk, then linked to its name — link(2), unlike
 * rename(2), fails when the name exists — and the temporary name removed. A file already there with the same
 * content is this one, written by an earlier attempt that stopped before recording it: done.
 * @throws Error when another file has the name, or the disk refuses.
 */
export async function writeAtomically(directory: string, name: string, content: string): Promise<void> {
  const temporary = join(directory, `.${name}.${randomUUID()}.tmp`)
  const handle = await open(temporary, 'wx')
  try {
    await handle.writeFile(content, 'utf8')
    await handle.sync()
  } finally {
    await handle.close()
  }
  try {
    await link(temporary, join(directory, name))
  } catch (error) {
    const existing = (error as NodeJS.ErrnoException).code === 'EEXIST' ? await readFile(join(directory, name), 'utf8') : undefined
    if (existing !== content) throw error
  } finally {
    await unlink(temporary)
  }
}

/**
 * After commit, never inside a transaction: writes every file still PENDING_WRITE to its connection's outboxDir,
 * then marks it WRITTEN. A failure leaves it PENDING_WRITE for the next pass; two processes writing the same file
 * at once both succeed (writeAtomically). @returns the ids of the files it could not write, with why.
 */
export async function writePendingFiles(database: Database): Promise<{ fileId: string; error: unknown }[]> {
  const failures: { fileId: string; error: unknown }[] = []
  for (const file of await bankFileRepo.pendingWrites(database.db)) {
    try {
      if (file.outbox_dir) await writeAtomically(file.outbox_dir, `${file.message_id}.xml`, file.content)
      // A connection whose outboxDir was removed since keeps the file here only.
      await bankFileRepo.setStatus(database.db, file.id, file.outbox_dir ? 'WRITTEN' : 'READY', nowIso())
    } catch (error) {
      failures.push({ fileId: file.id, error })
    }
  }
  return failures
}
