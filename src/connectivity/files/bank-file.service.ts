import type { Database } from '../../db/database.js'
import { ApiError } from '../../http/errors.js'
import { pageOf, pageRequest, type ListEnvelopeOf } from '../../http/pagination.js'
import type { Actor } from '../../iam/actor.js'
import { bankFileRepo, toBankFile } from './bank-file.repo.js'
import type { BankFile, BankFileListQuery } from './bank-file.schemas.js'

/** The list's name in its cursor tokens. */
const FILES = 'files'

function noFile(id: string): ApiError {
  return new ApiError('not_found', `No file ${id}`)
}

/** The files made for and received from banks: read-only, kept for audit (issue 12). */
export function createBankFileService(database: Database) {
  return {
    /** Oldest first. @throws ApiError invalid_token (400), invalid_request (400: created[gte] after created[lte]). */
    async list(actor: Actor, query: BankFileListQuery): Promise<ListEnvelopeOf<BankFile>> {
      const filters = {
        connectionId: query.connectionId,
        direction: query.direction,
        messageType: query.messageType,
        createdFrom: query['created[gte]'],
        createdTo: query['created[lte]'],
      }
      if (filters.createdFrom && filters.createdTo && filters.createdFrom > filters.createdTo) {
        throw new ApiError('invalid_request', 'created[gte] must not be after created[lte]')
      }
      const page = pageRequest(query, FILES, filters, ['text'])
      const rows = await bankFileRepo.list(database.db, actor.organizationId, filters, page)
      return pageOf(rows, page, (row) => [row.id], toBankFile)
    },

    /** @throws ApiError not_found (404). */
    async get(actor: Actor, id: string): Promise<BankFile> {
      const row = await bankFileRepo.find(database.db, actor.organizationId, id)
      if (!row) throw noFile(id)
      return toBankFile(row)
    },

    /** The XML as written, byte for byte. @throws ApiError not_found (404). */
    async content(actor: Actor, id: string): Promise<string> {
      const content = await bankFileRepo.content(database.db, actor.organizationId, id)
      if (content === undefined) throw noFile(id)
      return content
    },
  }
}
