/** camt.053 statements out: an account's bookings and balances as an ERP imports a bank's statement. */
export { statementExportRoutes } from './statement-export.routes.js'
