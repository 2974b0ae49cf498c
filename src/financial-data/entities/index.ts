export { entityRoutes } from './entity.routes.js'
export { createFirstEntity, lockDefaultEntity, lockEntity } from './entity.service.js'
export { Entity } from './entity.schemas.js'
