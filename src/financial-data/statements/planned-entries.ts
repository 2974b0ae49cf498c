import type { BookedEntry } from '../bookings/booking.service.js'

/**
 * The booked entries of a plan, kept as lines of JSON in buffers until they are booked. A plan is what
 * an import holds for the whole file, and V8 lets its collected heap grow to about four times what is
 * live before a full collection (its growing factor while collecting is cheap): a plan of objects cost
 * four times its size in resident memory. Buffers lie outside that heap, and their size is exact.
 */

/** Characters gathered before they become a buffer. */
const CHUNK_CHARACTERS = 1024 * 1024

export class PlannedEntries {
  private readonly chunks: Buffer[] = []
  private pending: string[] = []
  private pendingCharacters = 0
  count = 0

  /** Keeps an entry; returns the bytes it takes. */
  push(entry: BookedEntry): number {
    const line = JSON.stringify(entry)
    this.pending.push(line)
    this.pendingCharacters += line.length
    this.count += 1
    if (this.pendingCharacters >= CHUNK_CHARACTERS) this.flush()
    return Buffer.byteLength(line) + 1
  }

  /**
   * The entries in the order they came, `size` at a time, or fewer when they hold more than `characters`
   * of JSON (at least one): a batch is decoded and copied several times while it is booked (rows, events),
   * and 250 transactions of long texts would be hundreds of MiB at once (issue 9).
   */
  *batches(size: number, characters = Infinity): Generator<BookedEntry[]> {
    this.flush()
    let batch: BookedEntry[] = []
    let batchCharacters = 0
    for (const chunk of this.chunks) {
      for (const line of chunk.toString('utf8').split('\n')) {
        if (batch.length > 0 && batchCharacters + line.length > characters) {
          yield batch
          batch = []
          batchCharacters = 0
        }
        batch.push(JSON.parse(line) as BookedEntry)
        batchCharacters += line.length
        if (batch.length === size) {
          yield batch
          batch = []
          batchCharacters = 0
        }
      }
    }
    if (batch.length > 0) yield batch
  }

  /** Every entry at once: for plans known to be small. */
  all(): BookedEntry[] {
    return [...this.batches(this.count)].flat()
  }

  private flush(): void {
    if (this.pending.length === 0) return
    this.chunks.push(Buffer.from(this.pending.join('\n'), 'utf8'))
    this.pending = []
    this.pendingCharacters = 0
  }
}
