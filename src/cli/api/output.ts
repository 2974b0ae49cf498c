import Table from 'cli-table3'

/** One column of a list's table: its heading and the text of a cell. */
export interface Column<Item> {
  header: string
  value(item: Item): string | undefined
  /** Amounts line up on their decimal point when right-aligned. */
  align?: 'right'
}

/** One line of a resource's detail view; lines without a value are left out. */
export type Field = [label: string, value: string | undefined]

/** Aligned columns without borders or colours, so the output reads well in a terminal and greps well in a pipe. */
const BORDERLESS = {
  chars: {
    top: '', 'top-mid': '', 'top-left': '', 'top-right': '',
    bottom: '', 'bottom-mid': '', 'bottom-left': '', 'bottom-right': '',
    left: '', 'left-mid': '', mid: '', 'mid-mid': '', right: '', 'right-mid': '', middle: '  ',
  },
  style: { head: [], border: [], 'padding-left': 0, 'padding-right': 0 },
}

/** A cell is one line: the bank's texts may carry line breaks, which would break the row apart. */
function cell(value: string | undefined): string {
  return (value ?? '').replace(/\s+/g, ' ').trim()
}

function render(table: Table.Table): string {
  return `${table.toString().replace(/ +$/gm, '')}\n`
}

export function renderTable<Item>(columns: ReadonlyArray<Column<Item>>, items: readonly Item[]): string {
  const table = new Table({ ...BORDERLESS, head: columns.map((column) => column.header), colAligns: columns.map((column) => column.align ?? 'left') })
  for (const item of items) table.push(columns.map((column) => cell(column.value(item))))
  return render(table)
}

export function renderFields(fields: readonly Field[]): string {
  const table = new Table(BORDERLESS)
  for (const [label, value] of fields) if (value !== undefined && value !== '') table.push([`${label}:`, cell(value)])
  return render(table)
}

/** An amount as people write it: `1250.00 EUR`. */
export function money(amount: { stringValue: string; currency: string }): string {
  return `${amount.stringValue} ${amount.currency}`
}
