import { paginate, type KassaClient, type ListItem, type ListPath } from '@kassa/client'
import { Option, type Command } from 'commander'
import { apiAction, apiCommand, positiveInteger } from './api-command.js'
import { renderTable, type Column } from './output.js'

/** A filter option and the query parameter of the list it becomes (see the list's *ListQuery schema). */
export interface Filter {
  flags: string
  parameter: string
  description: string
}

export interface ListDefinition<Path extends ListPath> {
  nameAndArguments: string
  description: string
  filters: readonly Filter[]
  columns: ReadonlyArray<Column<ListItem<Path>>>
  /** Printed instead of an empty table. */
  none: string
  path: Path
  /** The path's parameters, from the command's arguments. */
  pathParameters?: (args: string[]) => Record<string, string>
}

/**
 * paginate with the query as the command line gives it: text. The server validates each parameter
 * (a 400 naming it) rather than the CLI keeping a second copy of every list's query schema.
 */
const paginateQuery = paginate as <Path extends ListPath>(
  client: KassaClient,
  path: Path,
  params: { path?: Record<string, string>; query: Record<string, string | number> },
) => AsyncGenerator<ListItem<Path>, void, undefined>

/** The API's largest page (spec: Pagination — above 500 becomes 500): the fewest round trips for a whole list. */
const LARGEST_PAGE = 500

/**
 * A list command: its filters map one to one onto the list's query parameters; it follows nextToken
 * through every page (spec: Pagination rules 3–5), or stops after `--limit N` items.
 */
export function listCommand<Path extends ListPath>(parent: Command, definition: ListDefinition<Path>): Command {
  const command = apiCommand(parent, definition.nameAndArguments, definition.description)
  const filters = definition.filters.map((filter) => ({
    option: new Option(filter.flags, `${filter.description} (${filter.parameter})`),
    parameter: filter.parameter,
  }))
  for (const { option } of filters) command.addOption(option)
  command.option('--limit <n>', 'at most N items (default: all, page after page)', positiveInteger)
  command.option('--page-size <n>', `items asked for per request (default and most: ${LARGEST_PAGE})`, positiveInteger)
  return command.action(
    apiAction<{ limit?: number; pageSize?: number } & Record<string, unknown>>(async (api, flags, args) => {
      const query: Record<string, string | number> = { limit: Math.min(flags.pageSize ?? LARGEST_PAGE, flags.limit ?? LARGEST_PAGE, LARGEST_PAGE) }
      for (const { option, parameter } of filters) {
        const value = flags[option.attributeName()]
        if (typeof value === 'string') query[parameter] = value
      }
      const items: Array<ListItem<Path>> = []
      const params = { ...(definition.pathParameters ? { path: definition.pathParameters(args) } : {}), query }
      for await (const item of paginateQuery(api.client, definition.path, params)) {
        items.push(item)
        if (items.length === flags.limit) break
      }
      api.show(items, () => (items.length === 0 ? `${definition.none}\n` : renderTable(definition.columns, items)))
    }),
  )
}
