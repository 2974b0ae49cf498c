import { Presets, SingleBar } from 'cli-progress'

export interface ProgressBar<Payload extends object> {
  update(value: number, payload: Payload): void
  stop(): void
}

/**
 * A progress bar on `stream` (stderr) while a command works, only when the stream is a terminal (a
 * pipe or a file gets nothing, so stdout and stderr stay clean for scripts). cli-progress rather than a
 * hand-written `\r` line: it keeps the line within the terminal's width (a wrapped line cannot be
 * redrawn in place), redraws at a bounded rate however fast the work goes, and hides the cursor and
 * gives it back. `format` is cli-progress's, its `{name}` tokens filled from the payload; the bar is
 * drawn at once and cleared when stopped.
 */
export function progressBar<Payload extends object>(format: string, total: number, payload: Payload, stream: NodeJS.WriteStream = process.stderr): ProgressBar<Payload> {
  if (!stream.isTTY) return { update() {}, stop() {} }
  const bar = new SingleBar({ stream, format, hideCursor: true, clearOnComplete: true }, Presets.shades_classic)
  bar.start(total, 0, payload)
  return {
    update: (value, updated) => bar.update(value, updated),
    stop: () => bar.stop(),
  }
}
