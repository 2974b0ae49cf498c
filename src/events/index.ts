export { eventPage } from './event-page.js'
export { firstEventStatements, recordEvent, recordFirstEvents, listEvents, type NewEvent } from './event.repo.js'
export { Event, SYSTEM_ORIGINATOR, type EventType } from './event.schemas.js'
