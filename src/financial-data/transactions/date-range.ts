import { Type } from 'typebox'
import { invalidField } from '../../http/errors.js'

/** yyyy-mm-dd on the account's calendar: booking dates, value dates, a pending entry's provisional date. */
export const LocalDate = Type.String({ format: 'date', description: 'yyyy-mm-dd, local to the account' })

/** reference §4 (deepObject date filter): `date` or `date[eq]` pins one day, `date[gte]` and `date[lte]` bound a range. */
export const DateFilterProperties = {
  date: Type.Optional(LocalDate),
  'date[eq]': Type.Optional(LocalDate),
  'date[gte]': Type.Optional(LocalDate),
  'date[lte]': Type.Optional(LocalDate),
}

export interface DateFilterQuery {
  date?: string
  'date[eq]'?: string
  'date[gte]'?: string
  'date[lte]'?: string
}

/** The first and last day a date filter lets through. @throws ApiError invalid_request (400) naming date[gte] when inverted. */
export function dateRangeOf(query: DateFilterQuery): { dateFrom?: string; dateTo?: string } {
  const exactDate = query.date ?? query['date[eq]']
  const dateFrom = exactDate ?? query['date[gte]']
  const dateTo = exactDate ?? query['date[lte]']
  if (dateFrom && dateTo && dateFrom > dateTo) throw invalidField('date[gte]', 'must not be after date[lte]')
  return { dateFrom, dateTo }
}
