import type { FastifyReply } from 'fastify'

/**
 * For a route whose results may come from a read cache (db/read-cache.ts): a hit returns the same
 * object again, so its body is serialized once, by the route's own response schema, and reused.
 * Bodies live as long as their objects do. Call in the handler, then return the result as usual.
 */
export function serializedOncePerResult(): (reply: FastifyReply, result: object) => void {
  const bodies = new WeakMap<object, string>()
  return (reply, result) => {
    let body = bodies.get(result)
    if (body === undefined) {
      body = reply.serialize(result) as string
      bodies.set(result, body)
    }
    const cached = body
    // Anything else sent on this reply (an error raised after the handler) is serialized plainly.
    reply.serializer((payload: unknown) => (payload === result ? cached : JSON.stringify(payload)))
  }
}
