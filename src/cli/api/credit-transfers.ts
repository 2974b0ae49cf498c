import type { ListItem, paths } from '@kassa/client'
import type { Command } from 'commander'
import { apiAction, apiCommand, CONNECTION_HELP, type Api } from './api-command.js'
import { DEFAULT_SCHEME, TRANSFER_FIELDS, transferBody, type TransferFields } from '../../shared/credit-transfer-csv/credit-transfer-fields.js'
import { importTransferCsv, renderImportSummary } from './credit-transfer-import.js'
import { listCommand } from './list-command.js'
import { money, renderFields, type Column } from './output.js'
import { readJsonBody } from './request-body.js'

type CreditTransfer = ListItem<'/payments/v2/credit-transfers'>
type CreateCreditTransfer = paths['/payments/v2/credit-transfers']['post']['requestBody']['content']['application/json']

const COLUMNS: ReadonlyArray<Column<CreditTransfer>> = [
  { header: 'ID', value: (transfer) => transfer.id },
  { header: 'STATUS', value: (transfer) => transfer.status },
  { header: 'AMOUNT', value: (transfer) => money(transfer.amount), align: 'right' },
  { header: 'DATE', value: (transfer) => transfer.date },
  { header: 'TO', value: (transfer) => transfer.destinationHolder.legalName },
  { header: 'REFERENCE', value: (transfer) => transfer.reference },
  { header: 'EXTERNAL ID', value: (transfer) => transfer.externalId },
]

function party(account: CreditTransfer['source'], holder: CreditTransfer['sourceHolder']): string {
  const identifier = account.identifiers[0]
  return [holder.legalName, identifier && `${identifier.type} ${identifier.number}`, `(${account.type} ${account.id})`].filter(Boolean).join(' ')
}

function details(transfer: CreditTransfer): string {
  return renderFields([
    ['id', transfer.id],
    ['externalId', transfer.externalId],
    ['status', transfer.status],
    ['statusReason', transfer.statusReason && [transfer.statusReason.code, transfer.statusReason.message].filter(Boolean).join(' ')],
    ['amount', money(transfer.amount)],
    ['scheme', transfer.scheme],
    ['date', transfer.date],
    ['reference', transfer.reference],
    ['source', party(transfer.source, transfer.sourceHolder)],
    ['destination', party(transfer.destination, transfer.destinationHolder)],
    ...transfer.approvalSteps.map((step): [string, string] => ['approvalStep', `${step.id} ${step.status}${step.autoApproved ? ' (auto-approved)' : ''}`]),
    ['created', transfer.created],
    ['updated', transfer.updated],
  ])
}

/** The step `approve` decides when none is named: the first one still pending. */
async function firstPendingStep(api: Api, id: string): Promise<string> {
  const { data } = await api.client.GET('/payments/v2/credit-transfers/{id}', { params: { path: { id } } })
  const step = data.approvalSteps.find((candidate) => candidate.status === 'PENDING')
  if (!step) throw new Error(`Credit transfer ${data.id} has no pending approval step (status ${data.status})`)
  return step.id
}

type CreateFlags = TransferFields & { body?: string; csv?: string; idempotencyKey?: string }

async function create(api: Api, flags: CreateFlags): Promise<void> {
  const fields = Object.fromEntries(TRANSFER_FIELDS.map((name) => [name, flags[name]]).filter(([, value]) => value !== undefined))
  if (flags.csv !== undefined) {
    if (Object.keys(fields).length > 0 || flags.body !== undefined || flags.idempotencyKey !== undefined) {
      throw new Error('--csv takes every field from the file: leave out --body, --idempotency-key and the field options')
    }
    const summary = await importTransferCsv(api.client, flags.csv)
    api.show(summary, () => renderImportSummary(summary))
    if (summary.refused.length > 0) process.exitCode = 1
    return
  }
  const body = { scheme: DEFAULT_SCHEME, ...(await readJsonBody(flags.body)), ...transferBody(fields) } as CreateCreditTransfer
  const { data } = await api.client.POST('/payments/v2/credit-transfers', {
    body,
    ...(flags.idempotencyKey === undefined ? {} : { headers: { 'Idempotency-Key': flags.idempotencyKey } }),
  })
  api.show(data, () => details(data))
}

/** `kassa credit-transfers list|get|create|approve|reject` over /payments/v2/credit-transfers. */
export function registerCreditTransferCommands(program: Command): void {
  const transfers = program.command('credit-transfers').description('Credit transfers (payments/v2), on a running server').addHelpText('after', CONNECTION_HELP)

  listCommand(transfers, {
    nameAndArguments: 'list',
    description: 'List credit transfers, newest first',
    filters: [
      { flags: '--account-id <id>', parameter: 'accountId', description: 'paid from this own account' },
      { flags: '--counterparty-id <id>', parameter: 'counterpartyId', description: 'paid to this counterparty' },
      { flags: '--status <status>', parameter: 'status', description: 'in this status, e.g. CREATED, APPROVED, EXECUTED' },
      { flags: '--external-id <id>', parameter: 'externalId', description: 'with this externalId' },
      { flags: '--date-gte <yyyy-mm-dd>', parameter: 'date[gte]', description: 'requested on or after' },
      { flags: '--date-lte <yyyy-mm-dd>', parameter: 'date[lte]', description: 'requested on or before' },
    ],
    columns: COLUMNS,
    none: 'No credit transfers.',
    path: '/payments/v2/credit-transfers',
  })

  apiCommand(transfers, 'get <id>', 'Show one credit transfer (its id, or external:EXTERNAL_ID)').action(
    apiAction(async (api, _flags, [id]) => {
      const { data } = await api.client.GET('/payments/v2/credit-transfers/{id}', { params: { path: { id: id! } } })
      api.show(data, () => details(data))
    }),
  )

  apiCommand(transfers, 'create', 'Create a credit transfer from options and/or a JSON body (options win), or one per row of a CSV file')
    .option('--csv <file>', 'one credit transfer per row; columns: sourceAccountId, destinationAccountId or destinationExternalAccountId, amount, currency, date, reference[, externalId, scheme]')
    .option('--body <file>', 'the request body as JSON, from a file or - for standard input')
    .option('--source-account-id <id>', 'source: the own account paying')
    .option('--destination-external-account-id <id>', "destination: a counterparty's external account")
    .option('--destination-account-id <id>', 'destination: an own account')
    .option('--amount <decimal>', 'amount, e.g. 1250.00 (with --currency; sent in minor units)')
    .option('--currency <code>', 'currency, e.g. EUR')
    .option('--date <yyyy-mm-dd>', 'requested execution date')
    .option('--reference <text>', 'remittance information')
    .option('--external-id <id>', 'externalId: your own unique reference')
    .option('--scheme <scheme>', 'SCT (default) or SCT_INST')
    .option('--idempotency-key <key>', 'the Idempotency-Key to send (default: a new one); the same key never creates twice')
    .addHelpText(
      'after',
      "\nA CSV run gives each row an Idempotency-Key derived from the file's content and the row number:\n" +
        'running the same file again within 24 hours creates nothing new (edit the file and every row gets a\n' +
        'new key: put a fixed row in a file of its own, or give rows an externalId, which the API refuses twice).\n' +
        "Rows go one after another, as fast as the key's rate limit allows. Exit code 1 when a row is refused.\n",
    )
    .action(apiAction<CreateFlags>(create))

  apiCommand(transfers, 'approve <id>', 'Approve a step of a credit transfer awaiting approval')
    .option('--step <approvalStepId>', 'the approval step (default: the first pending one)')
    .action(
      apiAction<{ step?: string }>(async (api, flags, [id]) => {
        const approvalStepId = flags.step ?? (await firstPendingStep(api, id!))
        const { data } = await api.client.POST('/payments/v2/credit-transfers/{id}:approve', { params: { path: { id: id! } }, body: { approvalStepId } })
        api.show(data, () => details(data))
      }),
    )

  apiCommand(transfers, 'reject <id>', 'Reject a credit transfer awaiting approval; final')
    .option('--reason <text>', 'why, up to 255 characters (kept in its REJECTED event)')
    .action(
      apiAction<{ reason?: string }>(async (api, flags, [id]) => {
        const { data } = await api.client.POST('/payments/v2/credit-transfers/{id}:reject', {
          params: { path: { id: id! } },
          body: flags.reason === undefined ? {} : { reason: flags.reason },
        })
        api.show(data, () => details(data))
      }),
    )
}
