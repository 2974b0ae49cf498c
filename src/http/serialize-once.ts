import type { FastifyReply } from 'fastify'

/**
 * For a route whose results may come from a read cache (db/read-cache.ts): a hit returns the same
 * object again, so its body is serialized once, by the route's own response schema, and reused.
 * Bodies live as long as their objects do. The handler returns what this returns: the result, at once
 * when it is at hand (a cache hit), so the request needs no promise.
 */
export function serializedOncePerResult(): <T extends object>(reply: FastifyReply, result: T | Promise<T>) => T | Promise<T> {
  const bodies = new WeakMap<object, string>()
  function serve<T extends object>(reply: FastifyReply, result: T): T {
    let body = bodies.get(result)
    if (body === undefined) {
      body = reply.serialize(result) as string
      bodies.set(result, body)
    }
    sendsSerialized(reply, result, body)
    return result
  }
  return (reply, result) => (result instanceof Promise ? result.then((value) => serve(reply, value)) : serve(reply, result))
}

/**
 * Makes `reply` send `body` — `result` as already serialized by the route's schema — when it sends `result`;
 * anything else sent on it (an error raised later) is serialized plainly. A custom serializer leaves the content
 * type unset: it is JSON either way.
 */
export function sendsSerialized(reply: FastifyReply, result: unknown, body: string): void {
  reply.type('application/json; charset=utf-8').serializer((payload: unknown) => (payload === result ? body : JSON.stringify(payload)))
}

/** Sends `json`, a body already serialized as the route's response schema describes it (pageJson), as it is. */
export function sendJson(reply: FastifyReply, json: string): FastifyReply {
  return reply.type('application/json; charset=utf-8').send(json)
}
