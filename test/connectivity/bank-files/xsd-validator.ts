import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { memoryPages, validateXML } from 'xmllint-wasm'
import type { PainVersion } from '../../../src/connectivity/bank-files/index.js'
import type { Pain002Version } from '../../../src/connectivity/files-in/pain002.model.js'

/**
 * Validation against the official ISO 20022 XSDs, kept beside the repository in shared/iso20022/xsd (their
 * provenance is in its README), with xmllint-wasm: libxml2 compiled to WebAssembly, so no system package.
 * Every run starts libxml2 in a worker thread and compiles the schema, most of a second: documents are
 * validated in batches, one run per message version.
 */

const XSD_DIR = fileURLToPath(new URL('../../../../shared/iso20022/xsd/', import.meta.url))

export interface Document {
  // camt.053.001.08: the statements Kassa writes (GET …/accounts/{id}/statement).
  version: PainVersion | Pain002Version | 'camt.053.001.08' | 'camt.054.001.08'
  xml: string
}

/** Each document's schema errors, in the order given: [] for a valid one. */
export async function xsdErrors(documents: readonly Document[]): Promise<string[][]> {
  const errors = documents.map((): string[] => [])
  const versions = [...new Set(documents.map((document) => document.version))]
  await Promise.all(
    versions.map(async (version) => {
      const indexes = documents.flatMap((document, index) => (document.version === version ? [index] : []))
      const fileName = (index: number) => `document-${index}.xml`
      const result = await validateXML({
        // The bytes a bank would receive: UTF-8, as the XML declaration says.
        xml: indexes.map((index) => ({ fileName: fileName(index), contents: Buffer.from(documents[index]!.xml, 'utf8') })),
        schema: [{ fileName: `${version}.xsd`, contents: readFileSync(`${XSD_DIR}${version}.xsd`, 'utf8') }],
        maxMemoryPages: 512 * memoryPages.MiB,
      })
      // xmllint goes through the files in order: an error names its file and line; the lines without a
      // location (a parser error's quote of the line, "document-3.xml fails to validate") belong to the last named.
      let current: number | undefined
      for (const error of result.errors) {
        const name = error.loc?.fileName ?? /^(\S+) fails to validate$/.exec(error.message)?.[1]
        if (name !== undefined) current = indexes.find((candidate) => fileName(candidate) === name)
        if (current === undefined) throw new Error(`xmllint reported an error of no document: ${error.rawMessage}`)
        errors[current]!.push(error.message)
      }
    }),
  )
  return errors
}

/** A map of named documents to their errors, so a failing expectation names the document at fault. */
export async function xsdErrorsByName(documents: Readonly<Record<string, Document>>): Promise<Record<string, string[]>> {
  const names = Object.keys(documents)
  const errors = await xsdErrors(names.map((name) => documents[name]!))
  return Object.fromEntries(names.map((name, index) => [name, errors[index]!]))
}
