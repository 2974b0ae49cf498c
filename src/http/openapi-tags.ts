/**
 * The tags operations are grouped by, in the order a reader meets them (spec: What the service does):
 * own accounts and their data, then payments, then settings. Every tag a route uses must be here.
 */
export const TAGS = [
  {
    name: 'Entities',
    description:
      "The organization's legal entities, possibly a group of them under parents: every own account belongs to one, " +
      'and counterparties may be scoped to some. An organization starts with one, named as the organization.',
  },
  {
    name: 'Accounts',
    description:
      "The organization's own bank accounts: those of the sandbox bank, which a sandbox organization starts with, and " +
      'accounts at real banks registered here, whose transactions and balances come from imported statements.',
  },
  {
    name: 'Transactions',
    description:
      'Entries booked on own accounts, as their bank reported them. Read-only but for metadata; payments are ' +
      'reconciled to the transactions that settle them.',
  },
  {
    name: 'Pending transactions',
    description:
      'Entries a bank shows on own accounts before booking them — a credit transfer the sandbox bank holds, a PDNG ' +
      'entry of an imported report — until the booked transaction with the same entry reference ends them (BOOKED), ' +
      'or the bank drops them (WITHDRAWN). Read-only; their date is provisional.',
  },
  {
    name: 'Balances',
    description: 'The balances of own accounts as their bank reported them, per day: BOOKED or AVAILABLE; OPEN, CLOSE or INTERIM.',
  },
  {
    name: 'Statements',
    description: 'Import of ISO 20022 bank statements (camt.053, camt.052, camt.054) for accounts held at real banks.',
  },
  {
    name: 'Sandbox',
    description:
      "The controls of a sandbox organization's simulated bank: its clock (the business date it books and executes on) " +
      'and transactions injected as if the bank had booked them.',
  },
  {
    name: 'Connections',
    description:
      "How the organization reaches its banks: FILES connections exchange ISO 20022 files (pain.001 and pain.008 out, " +
      'status reports and statements in), optionally through directories on the server that a separate tool syncs ' +
      "with the bank's channel; SANDBOX connections reach the simulated bank.",
  },
  {
    name: 'Counterparties',
    description:
      'The people and companies payments go to or come from, each holding external accounts. A counterparty exists ' +
      'before any payment to or from it (spec: Approval rules).',
  },
  {
    name: 'External accounts',
    description:
      "Counterparties' bank accounts, created with their counterparty: the destination of credit transfers and the " +
      'source of direct debits.',
  },
  {
    name: 'Credit transfers',
    description:
      'Payments from an own account to an external account (or another own account). Each is approved — by the steps ' +
      'of the approval chains it matches, else by the Owner — then sent to the bank; follow it by its status, its ' +
      'events, or webhooks.',
  },
  {
    name: 'Credit transfer batches',
    description:
      'Many credit transfers at once, as JSON or a CSV file: each record validated as one credit transfer is, with a ' +
      'result per record. Treatment INDIVIDUAL_PAYMENTS makes payments approved one by one; BATCH makes payments ' +
      'approved or rejected together, by the steps of the batch (create, list, get and results under /payments/v2beta; ' +
      'approve and reject under /payments/v2, as the reference has them).',
  },
  {
    name: 'Mandates',
    description: "SEPA direct debit mandates (SDD_CORE, SDD_B2B): a debtor's authorization to collect from their external account.",
  },
  {
    name: 'Direct debits',
    description:
      "Collections from a counterparty's external account into an own account under a mandate; approved and processed " +
      'as credit transfers are.',
  },
  {
    name: 'Approval chains',
    description:
      'Who approves which payments: a chain has a trigger (payment types, accounts, creator roles, amounts) and steps, ' +
      'each approved by a user of the roles or names it lists. A payment gets the steps of every chain it matches; ' +
      'when none matches, the Owner approves it.',
  },
  {
    name: 'Roles',
    description:
      'Named sets of permissions (resource:action). Every organization has the built-in owner, admin and read-only ' +
      'roles; custom roles can be added.',
  },
  {
    name: 'Users',
    description:
      'The people (HUMAN) and integrations (PROGRAMMATIC) of the organization, each holding one role, and their access ' +
      'keys: the credentials every API request authenticates with, by HTTP Basic or by the bearer tokens the OAuth2 ' +
      'token endpoint issues for them.',
  },
  {
    name: 'Audit log',
    description:
      'Who changed what, append-only: every settings change, approval and rejection, sign-in (and failed one), access ' +
      "key made and first used, with the actor, time, request id and the resource before and after, secrets redacted.",
  },
  {
    name: 'Webhooks',
    description:
      'Subscriptions to the events of resources, delivered as HTTP POSTs signed with HMAC-SHA256 (Webhook-Signature) ' +
      'and retried with backoff until acknowledged by a 2xx; their signing keys and delivery logs.',
  },
  {
    name: 'Idempotency test',
    description: "An endpoint for exercising a client's Idempotency-Key and retry handling (spec: Idempotency rules).",
  },
  {
    name: 'Health',
    description: 'Unauthenticated probes for load balancers and orchestrators.',
  },
] as const satisfies ReadonlyArray<{ name: string; description: string }>
