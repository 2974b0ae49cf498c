import type { ComponentChildren } from 'preact'

export interface Column<Row> {
  /** The column's heading; on a phone, where rows become cards, also each cell's label. */
  header: string
  cell: (row: Row) => ComponentChildren
  /** Numbers and amounts align at the end, so their digits line up. */
  align?: 'end'
  /** The cell that names the row (a row header, which screen readers announce with every other cell). */
  rowHeader?: boolean
}

/**
 * A dense table of resources. `caption` names it for screen readers (hidden on screen: the page heading
 * says it). Below 720 px each row becomes a card of labelled cells (styles/app.css), so nothing needs a
 * horizontal scroll on a phone.
 */
export function DataTable<Row>({
  caption,
  columns,
  rows,
  rowKey,
}: {
  caption: string
  columns: Column<Row>[]
  rows: Row[]
  rowKey: (row: Row) => string
}) {
  return (
    <div class="table-wrap">
      <table class="data-table">
        <caption class="visually-hidden">{caption}</caption>
        <thead>
          <tr>
            {columns.map((column) => (
              <th key={column.header} scope="col" class={column.align === 'end' ? 'align-end' : undefined}>
                {column.header}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={rowKey(row)}>
              {columns.map((column) => {
                const props = { key: column.header, 'data-label': column.header, class: column.align === 'end' ? 'align-end' : undefined }
                return column.rowHeader ? (
                  <th scope="row" {...props}>
                    {column.cell(row)}
                  </th>
                ) : (
                  <td {...props}>{column.cell(row)}</td>
                )
              })}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  )
}
