import { kassa } from '../api/kassa'
import type { StatementImport } from './account-types'

/**
 * POST /financial-data/v2/statements with the file as the body, as application/xml. The API types the
 * body as XML text; openapi-fetch's per-call `bodySerializer` hands the File to fetch unchanged instead
 * of JSON-encoding it, so the browser sends the file's own bytes (no decoding into a string and back —
 * a statement may be tens of megabytes), and the retries' Request.clone() can resend it.
 */
export async function uploadStatement(file: File): Promise<StatementImport> {
  const { data } = await kassa.POST('/financial-data/v2/statements', {
    body: file as unknown as string,
    bodySerializer: (body) => body,
    headers: { 'Content-Type': 'application/xml' },
  })
  return data
}
