import type { ComponentChildren } from 'preact'

export type Tone = 'neutral' | 'waiting' | 'good' | 'bad' | 'info'

/** A short status word in a coloured pill; the word carries the meaning, the colour only repeats it. */
export function Badge({ tone = 'neutral', children }: { tone?: Tone; children: ComponentChildren }) {
  return <span class={`badge badge-${tone}`}>{children}</span>
}
