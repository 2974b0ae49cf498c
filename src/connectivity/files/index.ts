export { bankFileRoutes } from './bank-file.routes.js'
