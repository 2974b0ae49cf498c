export { creditTransferBatchRoutes } from './credit-transfer-batch.routes.js'
