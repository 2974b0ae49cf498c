import { readFile } from 'node:fs/promises'
import { text } from 'node:stream/consumers'

export type JsonObject = Record<string, unknown>

/** `--body FILE`, or `--body -` for standard input: a JSON object, the request body the options then add to. */
export async function readJsonBody(source: string | undefined): Promise<JsonObject> {
  if (source === undefined) return {}
  const name = source === '-' ? 'standard input' : source
  const content = await (source === '-' ? text(process.stdin) : readFile(source, 'utf8')).catch((error: NodeJS.ErrnoException) => {
    throw new Error(`--body: cannot read ${name}: ${error.code === 'ENOENT' ? 'no such file' : error.message}`)
  })
  let body: unknown
  try {
    body = JSON.parse(content)
  } catch (error) {
    throw new Error(`--body: ${name} is not JSON (${(error as Error).message})`)
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw new Error(`--body: ${name} must hold a JSON object`)
  return body as JsonObject
}

/** `fields` without the options that were not given, so they leave the --body file's values alone. */
export function given(fields: JsonObject): JsonObject {
  return Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined))
}
