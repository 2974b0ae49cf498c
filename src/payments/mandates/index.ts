export { mandateRoutes } from './mandate.routes.js'
export { mandateRepo, toMandate } from './mandate.repo.js'
export { setMandateStatus } from './mandate.service.js'
