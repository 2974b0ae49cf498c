import type { ListItem } from '@kassa/client'
import type { Command } from 'commander'
import { CONNECTION_HELP } from './api-command.js'
import { listCommand } from './list-command.js'
import type { Column } from './output.js'

type Delivery = ListItem<'/v1/webhooks/{id}/deliveries'>

/** The last attempt's outcome: the endpoint's status code, or why none came back. */
function lastAttempt(delivery: Delivery): string | undefined {
  const attempt = delivery.attempts.at(-1)
  return attempt && (attempt.statusCode === undefined ? attempt.error : `HTTP ${attempt.statusCode}`)
}

const COLUMNS: ReadonlyArray<Column<Delivery>> = [
  { header: 'ID', value: (delivery) => delivery.id },
  { header: 'EVENT', value: (delivery) => `${delivery.resource} ${delivery.event.type}` },
  { header: 'ENTITY', value: (delivery) => delivery.entityId },
  { header: 'STATUS', value: (delivery) => delivery.status },
  { header: 'ATTEMPTS', value: (delivery) => String(delivery.attempts.length) },
  { header: 'LAST ATTEMPT', value: lastAttempt },
  { header: 'CREATED', value: (delivery) => delivery.created },
]

/** `kassa webhooks deliveries WEBHOOK_ID` over /v1/webhooks/{id}/deliveries. */
export function registerWebhookCommands(program: Command): void {
  const webhooks = program.command('webhooks').description('Webhooks (v1), on a running server').addHelpText('after', CONNECTION_HELP)

  listCommand(webhooks, {
    nameAndArguments: 'deliveries <webhookId>',
    description: "List a webhook's deliveries, each with its attempts",
    filters: [{ flags: '--status <status>', parameter: 'status', description: 'PENDING, DELIVERED, FAILED or CANCELLED' }],
    columns: COLUMNS,
    none: 'No deliveries.',
    path: '/v1/webhooks/{id}/deliveries',
    pathParameters: ([webhookId]) => ({ id: webhookId! }),
  })
}
