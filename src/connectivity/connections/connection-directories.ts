import { constants } from 'node:fs'
import { access, mkdir, realpath, stat } from 'node:fs/promises'
import { dirname } from 'node:path'
import { ApiError } from '../../http/errors.js'
import { directoriesOverlap, isInside } from './connection.rules.js'

/**
 * A connection's outboxDir and inboxDir on the server's disk: made usable when they are set (created if
 * missing, then checked to be a directory the server reads and writes), and kept apart from every other
 * connection's, whatever its organization — a connection reading another's directory would read its files.
 */

export interface ConnectionDirectories {
  outboxDir?: string
  inboxDir?: string
}

const REASONS: Record<string, string> = {
  EACCES: 'permission denied',
  EPERM: 'permission denied',
  ENOENT: 'the file system has no place for it there',
  ENOTDIR: 'a part of the path is a file, not a directory',
  EROFS: 'the file system is read-only',
  ENOSPC: 'the disk is full',
  ENAMETOOLONG: 'the path is too long',
  ELOOP: 'the path has a loop of symbolic links',
}

function unusable(field: string, path: string, problem: string): ApiError {
  return new ApiError('directory_unusable', `The ${field} ${path} cannot be used: ${problem}`, [{ code: 'directory_unusable', field, error: problem }])
}

function codeOf(error: unknown): unknown {
  return (error as { code?: unknown }).code
}

function reasonOf(error: unknown): string {
  const code = codeOf(error)
  return (typeof code === 'string' && REASONS[code]) || (typeof code === 'string' ? code : 'the server could not check it')
}

/**
 * `mkdir -p`, one level at a time: Node's recursive mkdir never returns where mkdir answers ENOENT under an
 * existing parent (as under /proc), which would hold a thread of the pool forever.
 */
async function makeDirectory(path: string): Promise<void> {
  try {
    await mkdir(path)
    return
  } catch (error) {
    if (codeOf(error) === 'EEXIST') return
    if (codeOf(error) !== 'ENOENT' || dirname(path) === path) throw error
  }
  await makeDirectory(dirname(path))
  await mkdir(path).catch((error: unknown) => {
    if (codeOf(error) !== 'EEXIST') throw error
  })
}

/** @throws ApiError directory_unusable (422) naming the field and why. */
async function prepare(filesDir: string, field: string, path: string): Promise<void> {
  let isDirectory: boolean
  let resolved: [string, string]
  try {
    await makeDirectory(path)
    isDirectory = (await stat(path)).isDirectory()
    resolved = [await realpath(path), await realpath(filesDir)]
  } catch (error) {
    throw unusable(field, path, `it cannot be created (${reasonOf(error)})`)
  }
  if (!isDirectory) throw unusable(field, path, 'it is not a directory')
  // The path lies in filesDir as written (rules); a symbolic link on the way must not lead out of it.
  if (!isInside(...resolved)) throw unusable(field, path, `a symbolic link leads it out of the server's bank files directory (KASSA_BANK_FILES_DIR)`)
  try {
    await access(path, constants.R_OK | constants.W_OK)
  } catch (error) {
    throw unusable(field, path, `the server cannot read and write it (${reasonOf(error)})`)
  }
}

/**
 * Creates and checks the directories of `next` that differ from `previous` (all of them at creation). Run
 * before the database transaction: nothing on the disk waits inside it, and an empty directory left by a
 * request that fails later is harmless.
 * @throws ApiError directory_unusable (422).
 */
export async function prepareDirectories(filesDir: string, next: ConnectionDirectories, previous: ConnectionDirectories = {}): Promise<void> {
  for (const field of ['outboxDir', 'inboxDir'] as const) {
    const path = next[field]
    if (path !== undefined && path !== previous[field]) await prepare(filesDir, field, path)
  }
}

/** A path as written and the directory it names, symbolic links resolved (as written when it cannot be resolved). */
export type ResolvedPaths = ReadonlyMap<string, string>

/** Resolves `paths` on the disk: before the database transaction, so that nothing inside it waits on the disk. */
export async function resolvePaths(paths: ReadonlyArray<string | undefined>): Promise<ResolvedPaths> {
  const given = paths.filter((path) => path !== undefined)
  return new Map(await Promise.all(given.map(async (path) => [path, await realpath(path).catch(() => path)] as const)))
}

/**
 * No disk access: the paths were resolved before the transaction; a directory a connection took since is
 * compared as written.
 * @param resolved `directories` and the other connections' directories, resolved before the transaction.
 * @param inUse the directories of every other live connection, as the transaction reads them.
 * @throws ApiError conflict (409) when one of `directories` is, or is inside, or holds, one of them.
 */
export function assertDirectoriesFree(directories: ConnectionDirectories, resolved: ResolvedPaths, inUse: readonly string[]): void {
  const taken = inUse.map((path) => [path, resolved.get(path) ?? path])
  for (const field of ['outboxDir', 'inboxDir'] as const) {
    const path = directories[field]
    if (path === undefined) continue
    const own = resolved.get(path) ?? path
    if (taken.some((other) => other.some((candidate) => directoriesOverlap(path, candidate) || directoriesOverlap(own, candidate)))) {
      throw new ApiError(
        'conflict',
        `The ${field} ${path} is, holds or lies inside a directory another connection uses: each connection needs directories of its own`,
      )
    }
  }
}
