import { Writable } from 'node:stream'
import { describe, expect, it } from 'vitest'
import { rowProgress } from './row-progress.js'

/** A stream that collects what is written to it, a terminal or not. */
function stderr(isTTY: boolean): { stream: NodeJS.WriteStream; written: () => string } {
  let written = ''
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      written += chunk.toString()
      done()
    },
  })
  return { stream: Object.assign(stream, { isTTY, columns: 120 }) as unknown as NodeJS.WriteStream, written: () => written }
}

const counts = (created: number, alreadyCreated: number, refused: number) => ({
  created: Array.from({ length: created }),
  alreadyCreated: Array.from({ length: alreadyCreated }),
  refused: Array.from({ length: refused }),
})

describe('rowProgress: the CSV import’s progress bar', () => {
  it('on a terminal, draws the rows sent of the total and what came of them, then clears its line', async () => {
    const { stream, written } = stderr(true)
    const progress = rowProgress(5, stream)
    expect(written()).toContain('0/5 rows | 0 created, 0 already created, 0 refused')
    progress.update(counts(1, 1, 0))
    // Redrawn at a bounded rate (cli-progress's throttle, 100 ms): the new counts are drawn by the next frame.
    await new Promise((resolve) => setTimeout(resolve, 250))
    expect(written()).toContain('2/5 rows | 1 created, 1 already created, 0 refused')
    progress.update(counts(3, 1, 1))
    progress.stop()
    const afterStop = written()
    // The last counts are drawn when it stops, then the line is cleared for the summary (ESC [2K).
    expect(afterStop).toContain('5/5 rows | 3 created, 1 already created, 1 refused')
    expect(afterStop.slice(afterStop.lastIndexOf('5/5 rows'))).toContain('\x1b[2K')
  })

  it('writes nothing when stderr is a pipe or a file', () => {
    const { stream, written } = stderr(false)
    const progress = rowProgress(3, stream)
    progress.update(counts(3, 0, 0))
    progress.stop()
    expect(written()).toBe('')
  })
})
