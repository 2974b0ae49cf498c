import type { PaymentInstruction } from '../../financial-data/sandbox/index.js'
import { BankFileError } from '../bank-files/index.js'
import { writeGroupFile, type FileGroup } from './pain-batches.js'

/** A writer's problem about one transaction of the file: "paymentInformation.0.transactions.3.creditor.name". */
const TRANSACTION_FIELD = /^paymentInformation\.\d+\.transactions\.\d+\./

/**
 * The payments of a group that its file cannot carry, each with the writer's reasons (e.g. an address too long for
 * a 2009 message's AdrLine): found by writing the group, and, when the writer refuses it, each payment alone. Only
 * problems of a payment's own transaction count; a problem of the group (the connection's settings, e.g. no
 * creditorSchemeId) is nobody's payment's fault and stays the group's: its payments wait for the connection to be fixed.
 */
export function refusedPayments(group: Omit<FileGroup, 'instructions'>, instructions: PaymentInstruction[]): Map<string, string> {
  const refused = new Map<string, string>()
  if (!writerRefuses(group, instructions)) return refused
  for (const instruction of instructions) {
    const error = writerRefuses(group, [instruction])
    const own = error?.problems.filter((problem) => TRANSACTION_FIELD.test(problem.field)) ?? []
    if (own.length > 0) refused.set(instruction.paymentId, own.map((problem) => `${problem.field.replace(TRANSACTION_FIELD, '')} ${problem.error}`).join('; '))
  }
  return refused
}

function writerRefuses(group: Omit<FileGroup, 'instructions'>, instructions: PaymentInstruction[]): BankFileError | undefined {
  try {
    writeGroupFile({ ...group, instructions })
    return undefined
  } catch (error) {
    if (error instanceof BankFileError) return error
    throw error
  }
}
