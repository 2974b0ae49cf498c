import type { ComponentChildren } from 'preact'
import { useState } from 'preact/hooks'

/**
 * A secret the API shows in one answer only (an access key's secret, a webhook signing key, a one-time
 * password, a TOTP secret): Kassa keeps only its hash, so the page says so, shows it in full in a
 * selectable field named `label`, offers to copy it, and forgets it when `onDone` is pressed.
 */
export function ShownOnce({
  title,
  secrets,
  onDone,
  children,
}: {
  title: string
  secrets: { label: string; value: string }[]
  onDone: () => void
  children?: ComponentChildren
}) {
  return (
    <section class="notice success shown-once" aria-label={title}>
      <p class="notice-title">{title}</p>
      <p>Copy it now: Kassa keeps only a hash of it and will not show it again.</p>
      {children}
      {secrets.map((secret) => (
        <SecretValue key={secret.label} {...secret} />
      ))}
      <button type="button" class="button" onClick={onDone}>
        Done
      </button>
    </section>
  )
}

/** One secret in a selectable field named `label`, with "Copy" where the browser allows it. */
export function SecretValue({ label, value }: { label: string; value: string }) {
  const [copied, setCopied] = useState(false)
  async function copy() {
    await navigator.clipboard.writeText(value)
    setCopied(true)
  }
  return (
    <div class="secret-value">
      <label>
        <span class="secret-label">{label}</span>
        <input class="mono" type="text" readOnly value={value} onFocus={(event) => event.currentTarget.select()} />
      </label>
      {/* The Clipboard API exists only in secure contexts (https, or loopback). */}
      {window.isSecureContext && (
        <button type="button" class="button" onClick={() => void copy()} aria-label={`Copy ${label.toLowerCase()}`}>
          {copied ? 'Copied' : 'Copy'}
        </button>
      )}
    </div>
  )
}
