import { loadConfig } from '../config/config.js'
import { openDatabase, type Database } from '../db/database.js'

/** Runs a command against DATABASE_URL (migrated first, unless `migrate` is false), closing the connection afterwards. */
export async function withDatabase<T>(work: (database: Database) => Promise<T>, { migrate = true } = {}): Promise<T> {
  const config = loadConfig()
  const database = openDatabase(config.databaseUrl, config)
  try {
    if (migrate) await database.migrate()
    return await work(database)
  } finally {
    await database.close()
  }
}
