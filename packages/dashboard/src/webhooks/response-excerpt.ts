/** How much of an endpoint's answer a delivery attempt keeps (RESPONSE_EXCERPT_BYTES in src/webhooks/outbound-http.ts). */
export const RESPONSE_EXCERPT_BYTES = 1_024

/**
 * Whether an attempt's responseExcerpt may be cut short. The API keeps an answer's first 1,024 bytes as
 * UTF-8, with invalid bytes (a character cut at the limit too) and NUL replaced by U+FFFD: 3 bytes standing
 * for 1 to 3, so written as UTF-8 again an excerpt is never shorter than the bytes it came from. One under
 * 1,024 bytes is therefore the whole answer; one of 1,024 or more may have been cut (or was exactly that long).
 */
export function excerptMayBeCut(excerpt: string): boolean {
  return new TextEncoder().encode(excerpt).length >= RESPONSE_EXCERPT_BYTES
}
