/**
 * The bank's side of ISO 20022 files, for the simulated bank behind a FILES connection: it reads the pain.001
 * and pain.008 files Kassa writes, and writes the pain.002 status reports and camt.054 notifications Kassa reads.
 * Pure functions of text and values (docs/bank-files.md, "The bank's side").
 */
export { readPaymentFile } from './pain-file.reader.js'
export type * from './pain-file.model.js'
export { writePain002, type PaymentInformationReport, type StatusReportDocument } from './pain002.writer.js'
export * from './camt054.writer.js'
