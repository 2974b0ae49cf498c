import type { Executor } from '../../db/database.js'
import type { BankConnectionsTable, BankFilesTable, SimulatedBankAnswersTable } from '../../db/schema.js'

/** A file of a simulated-bank connection the bank has not taken yet, with where its connection keeps files. */
export type UntakenFile = BankFilesTable & Pick<BankConnectionsTable, 'outbox_dir'>

/** The simulated bank's side of the files: what it took, and the answers it wrote (docs/sandbox-bank.md). */
export const simulatedBankRepo = {
  /** OUTBOUND files of simulated-bank connections not taken yet that are ready to be read (in the outbox, or kept here), oldest first. */
  async untakenFiles(db: Executor): Promise<UntakenFile[]> {
    return db
      .selectFrom('bank_files')
      .innerJoin('bank_connections', 'bank_connections.id', 'bank_files.connection_id')
      .leftJoin('simulated_bank_intake', 'simulated_bank_intake.file_id', 'bank_files.id')
      .selectAll('bank_files')
      .select('bank_connections.outbox_dir')
      .where('bank_connections.simulated_bank', '=', 1)
      .where('bank_files.direction', '=', 'OUTBOUND')
      .where('bank_files.status', 'in', ['READY', 'WRITTEN'])
      .where('simulated_bank_intake.file_id', 'is', null)
      .orderBy('bank_files.created')
      .orderBy('bank_files.id')
      .execute()
  },

  /** Takes the file for the bank; false when another pass (or process) took it first. */
  async take(trx: Executor, file: Pick<BankFilesTable, 'id' | 'organization_id'>, taken: string): Promise<boolean> {
    const result = await trx
      .insertInto('simulated_bank_intake')
      .values({ file_id: file.id, organization_id: file.organization_id, taken })
      .onConflict((conflict) => conflict.column('file_id').doNothing())
      .returning('file_id')
      .executeTakeFirst()
    return result !== undefined
  },

  async insertAnswer(trx: Executor, row: SimulatedBankAnswersTable): Promise<void> {
    await trx.insertInto('simulated_bank_answers').values(row).execute()
  },

  /** Answers not delivered yet, with their connection's inbox, oldest first. */
  async undelivered(db: Executor): Promise<Array<SimulatedBankAnswersTable & Pick<BankConnectionsTable, 'inbox_dir'>>> {
    return db
      .selectFrom('simulated_bank_answers')
      .innerJoin('bank_connections', 'bank_connections.id', 'simulated_bank_answers.connection_id')
      .selectAll('simulated_bank_answers')
      .select('bank_connections.inbox_dir')
      .where('simulated_bank_answers.delivered', 'is', null)
      .orderBy('simulated_bank_answers.created')
      .orderBy('simulated_bank_answers.id')
      .execute()
  },

  async markDelivered(db: Executor, id: string, delivered: string): Promise<void> {
    await db.updateTable('simulated_bank_answers').set({ delivered }).where('id', '=', id).execute()
  },
}
