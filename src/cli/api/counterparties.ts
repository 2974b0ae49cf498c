import type { ListItem, paths } from '@kassa/client'
import type { Command } from 'commander'
import { apiAction, apiCommand, CONNECTION_HELP } from './api-command.js'
import { listCommand } from './list-command.js'
import { renderFields, type Column } from './output.js'
import { given, readJsonBody } from './request-body.js'

type Counterparty = ListItem<'/payments/v2/counterparties'>
type CreateCounterparty = paths['/payments/v2/counterparties']['post']['requestBody']['content']['application/json']

/** An account as the table shows it: its first identifier, e.g. `IBAN DE89370400440532013000`. */
function accountNumber(account: Counterparty['accounts'][number]): string | undefined {
  const identifier = account.identifiers[0]
  return identifier && `${identifier.type} ${identifier.number}`
}

const COLUMNS: ReadonlyArray<Column<Counterparty>> = [
  { header: 'ID', value: (counterparty) => counterparty.id },
  { header: 'LEGAL NAME', value: (counterparty) => counterparty.legalName },
  { header: 'ALIAS', value: (counterparty) => counterparty.alias },
  { header: 'ACCOUNT', value: (counterparty) => counterparty.accounts[0] && accountNumber(counterparty.accounts[0]) },
  { header: 'ACCOUNTS', value: (counterparty) => String(counterparty.accounts.length) },
  { header: 'EXTERNAL ID', value: (counterparty) => counterparty.externalId },
]

function details(counterparty: Counterparty): string {
  const { address } = counterparty
  return renderFields([
    ['id', counterparty.id],
    ['externalId', counterparty.externalId],
    ['legalName', counterparty.legalName],
    ['alias', counterparty.alias],
    ['partyType', counterparty.partyType],
    ['email', counterparty.email],
    ['phone', counterparty.phone],
    ['address', address && [[address.streetName, address.streetNumber].filter(Boolean).join(' '), [address.postalCode, address.city].filter(Boolean).join(' '), address.country].filter(Boolean).join(', ')],
    ...counterparty.accounts.map((account): [string, string] => ['account', [account.id, accountNumber(account), account.alias && `(${account.alias})`].filter(Boolean).join('  ')]),
    ['created', counterparty.created],
    ['updated', counterparty.updated],
  ])
}

/** `--iban X`, repeatable: an account each, in the IBAN's own market (its country code). */
function collectIban(value: string, previous: string[]): string[] {
  return [...previous, value.replace(/\s+/g, '').toUpperCase()]
}

interface CreateFlags {
  body?: string
  legalName?: string
  alias?: string
  partyType?: string
  email?: string
  phone?: string
  iban: string[]
  externalId?: string
}

/** `kassa counterparties list|get|create` over /payments/v2/counterparties. */
export function registerCounterpartyCommands(program: Command): void {
  const counterparties = program.command('counterparties').description('Counterparties (payments/v2), on a running server').addHelpText('after', CONNECTION_HELP)

  listCommand(counterparties, {
    nameAndArguments: 'list',
    description: 'List counterparties',
    filters: [{ flags: '--query <text>', parameter: 'query', description: 'free text in legal name, alias and account numbers, 3+ characters' }],
    columns: COLUMNS,
    none: 'No counterparties.',
    path: '/payments/v2/counterparties',
  })

  apiCommand(counterparties, 'get <id>', 'Show one counterparty (its id, or external:EXTERNAL_ID)').action(
    apiAction(async (api, _flags, [id]) => {
      const { data } = await api.client.GET('/payments/v2/counterparties/{id}', { params: { path: { id: id! } } })
      api.show(data, () => details(data))
    }),
  )

  apiCommand(counterparties, 'create', 'Create a counterparty from options, a JSON body (--body), or both (options win)')
    .option('--body <file>', 'the request body as JSON, from a file or - for standard input')
    .option('--legal-name <name>', 'legalName')
    .option('--alias <alias>', 'alias')
    .option('--party-type <type>', 'partyType: COMPANY or INDIVIDUAL')
    .option('--email <email>', 'email')
    .option('--phone <phone>', 'phone')
    .option('--iban <iban>', 'an account with this IBAN (repeatable)', collectIban, [])
    .option('--external-id <id>', 'externalId: your own unique reference')
    .action(
      apiAction<CreateFlags>(async (api, flags) => {
        const body = await readJsonBody(flags.body)
        const accounts = flags.iban.map((iban) => ({ market: iban.slice(0, 2), identifiers: [{ market: iban.slice(0, 2), type: 'IBAN', number: iban }] }))
        const request = {
          ...body,
          ...given({ legalName: flags.legalName, alias: flags.alias, partyType: flags.partyType, email: flags.email, phone: flags.phone, externalId: flags.externalId }),
          ...(accounts.length > 0 ? { accounts: [...((body.accounts as unknown[] | undefined) ?? []), ...accounts] } : {}),
        }
        // The server validates the body (its 400 names the field); the CLI does not keep a second copy of the schema.
        const { data } = await api.client.POST('/payments/v2/counterparties', { body: request as CreateCounterparty })
        api.show(data, () => details(data))
      }),
    )
}
