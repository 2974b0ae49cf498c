import type { Readable } from 'node:stream'

/**
 * An uploaded file's body as a reader takes it, chunk by chunk (the statements' and the bank files' XML
 * routes). When the reader stops early — a 400 for a DOCTYPE, a 413 past a limit — what the client still
 * sends is read and discarded, up to `limit` bytes in all, before the answer goes out: a connection closed
 * on unread data is reset, and the client, still sending, would lose the answer with it. The stream is
 * never destroyed (that would close the socket before the answer); what it fails with once abandoned (the
 * slow-body watch's 408) is of no interest.
 */
export async function* drainedWhenRefused(payload: Readable, limit: number): AsyncGenerator<Uint8Array | string> {
  payload.on('error', () => undefined)
  let received = 0
  let read = false
  try {
    for await (const chunk of payload.iterator({ destroyOnReturn: false })) {
      received += chunk.length
      yield chunk
    }
    read = true
  } finally {
    if (!read && !payload.destroyed) {
      for await (const chunk of payload.iterator({ destroyOnReturn: false })) {
        received += chunk.length
        if (received > limit) break
      }
    }
  }
}
