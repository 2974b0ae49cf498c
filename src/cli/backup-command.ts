import { existsSync, mkdirSync, statSync } from 'node:fs'
import { dirname, resolve } from 'node:path'
import type { Command } from 'commander'
import { sql } from 'kysely'
import { withDatabase } from './with-database.js'

/**
 * `kassa backup PATH`: a consistent copy of the SQLite database while the server runs (docs/deployment.md).
 * A plain copy of the file is not one: in WAL mode the latest commits live in the `-wal` file beside it.
 * `VACUUM INTO` reads one snapshot in a single read transaction, which in WAL mode blocks no writer, and
 * writes it as a new, self-contained database file (sqlite.org/lang_vacuum.html#vacuuminto). The online
 * backup API would instead start over each time another process (the server) writes during the copy.
 * PostgreSQL has its own tools: pg_dump, or base backups with WAL archiving.
 */
export function registerBackupCommand(program: Command): void {
  program
    .command('backup')
    .description('Copy the SQLite database of DATABASE_URL to a new file, also while the server runs (PostgreSQL: pg_dump)')
    .argument('<path>', 'the file to write; it must not exist yet')
    .action(async (path: string) => {
      const target = resolve(path)
      // VACUUM INTO refuses a non-empty file too; checked here to say so in the command's words.
      if (existsSync(target)) throw new Error(`${target} already exists; a backup never overwrites a file`)
      await withDatabase(
        async (database) => {
          if (database.dialect !== 'sqlite') {
            throw new Error('kassa backup copies an SQLite database; back up PostgreSQL with pg_dump (docs/deployment.md)')
          }
          mkdirSync(dirname(target), { recursive: true })
          await sql`vacuum into ${target}`.execute(database.db)
        },
        // The copy is of the database as it is: an older schema stays older, to be migrated when it is restored.
        { migrate: false },
      )
      process.stdout.write(`Backed up to ${target} (${statSync(target).size} bytes)\n`)
    })
}
