import { useId } from 'preact/hooks'
import { formatCalendarDate } from '../format/dates'
import { Amount, CalendarDate, LOCALE } from '../format/format'
import { formatMoney } from '../format/money'
import { DataTable } from '../ui/data-table'
import { chartShape, type DailyBalance } from './balance-history'

/** The drawing's own units; the SVG stretches to the width it is given (styles/app.css sets the height). */
const WIDTH = 1000
const HEIGHT = 200

const said = (day: DailyBalance) => `${formatMoney(day.amount, LOCALE)} on ${formatCalendarDate(day.date, LOCALE)}`

/**
 * The booked balance day by day as a line, drawn as inline SVG (no chart library: one line and its
 * area are a few path commands, and nothing else is shipped or allowed by the page's CSP). Its accessible
 * name is its caption; its description says in words what it shows (first and last day, lowest and
 * highest); "Balances by day" opens every figure as a table. Amounts and dates are written in HTML beside
 * the drawing, so they keep their size at any width.
 */
export function BalanceChart({ days, title }: { days: DailyBalance[]; title: string }) {
  const captionId = useId()
  const summaryId = useId()
  const shape = chartShape(days, WIDTH, HEIGHT)
  if (!shape) return <p class="section-note">No booked balances were reported in this period.</p>
  const first = days[0]!
  const last = days[days.length - 1]!
  return (
    <figure class="balance-chart">
      <figcaption id={captionId}>{title}</figcaption>
      <div class="chart-frame">
        <div class="chart-scale" aria-hidden="true">
          <span>{formatMoney(shape.highest.amount, LOCALE)}</span>
          {shape.lowest.amount.value !== shape.highest.amount.value && <span>{formatMoney(shape.lowest.amount, LOCALE)}</span>}
        </div>
        <svg class="chart" viewBox={`0 0 ${WIDTH} ${HEIGHT}`} preserveAspectRatio="none" role="img" aria-labelledby={captionId} aria-describedby={summaryId}>
          <path class="chart-area" d={shape.area} />
          <path class="chart-line" d={shape.line} vector-effect="non-scaling-stroke" />
        </svg>
        <div class="chart-dates" aria-hidden="true">
          <span>{formatCalendarDate(first.date, LOCALE)}</span>
          <span>{formatCalendarDate(last.date, LOCALE)}</span>
        </div>
      </div>
      <p id={summaryId} class="chart-summary">
        {days.length === 1
          ? `${said(first)}, the only day reported.`
          : `From ${said(first)} to ${said(last)}. Lowest ${said(shape.lowest)}; highest ${said(shape.highest)}.`}
      </p>
      <details class="chart-table">
        <summary>Balances by day</summary>
        <DataTable
          caption={`${title}, by day`}
          columns={[
            { header: 'Day', rowHeader: true, cell: (day) => <CalendarDate date={day.date} /> },
            { header: 'Booked balance', align: 'end', cell: (day) => <Amount amount={day.amount} /> },
          ]}
          rows={[...days].reverse()}
          rowKey={(day) => day.date}
        />
      </details>
    </figure>
  )
}
