/** ISO 20022 payment initiation files: pain.001 credit transfers and pain.008 direct debits, written from batches. */
export { writePain001 } from './pain001.writer.js'
export { writePain008 } from './pain008.writer.js'
export { BankFileError, type BankFileProblem } from './bank-file.rules.js'
export { MAX_NAME_LENGTH } from './pain-parties.js'
// The batches the writers take and the file they give back.
export * from './bank-file.types.js'
