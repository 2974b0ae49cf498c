import { setPaymentStatusListener } from '../../financial-data/sandbox/index.js'
import { bankReportListener } from './bank-report-listener.js'

// Every bank step — in the server, the worker or the CLI — reports payment statuses to the payments domain.
setPaymentStatusListener(bankReportListener)

export { startPaymentWorker, type PaymentWorker } from './payment-worker.js'
