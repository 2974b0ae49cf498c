import net from 'node:net'

/** What came back on a raw connection: the answer as text, and whether and when the server closed. */
export interface RawExchange {
  status: number | undefined
  headers: Record<string, string>
  body: string
  /** Milliseconds from the first byte sent to the server closing the connection. */
  closedAfter: number | undefined
}

export interface RawExchangeOptions {
  /** Sent at once on connect. */
  head: string
  /** Then sent one item at a time, `dripMilliseconds` apart, while the connection is open. */
  drip?: string[]
  dripMilliseconds?: number
  /** Give up (and report the connection as still open) after this long. */
  waitMilliseconds: number
}

/** An HTTP/1.1 answer as it came over the wire. */
export interface WireAnswer {
  status: number
  headers: Record<string, string>
  body: string
}

/** One answer's status line, headers (names lower-cased) and body; undefined when its head is not complete. */
export function parseAnswer(raw: string): WireAnswer | undefined {
  const end = raw.indexOf('\r\n\r\n')
  if (end < 0) return undefined
  const [statusLine = '', ...lines] = raw.slice(0, end).split('\r\n')
  const headers: Record<string, string> = {}
  for (const line of lines) {
    const colon = line.indexOf(':')
    headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim()
  }
  return { status: Number(statusLine.split(' ')[1]), headers, body: raw.slice(end + 4) }
}

/** The answers read off one keep-alive connection, in order (their bodies must not hold "HTTP/1.1 nnn "). */
export function answersIn(raw: string): WireAnswer[] {
  return raw
    .split(/(?=HTTP\/1\.1 \d{3} )/)
    .filter((part) => part !== '')
    .map((part) => parseAnswer(part) ?? { status: Number(part.split(' ')[1]), headers: {}, body: '' })
}

function parse(raw: string): Pick<RawExchange, 'status' | 'headers' | 'body'> {
  return parseAnswer(raw) ?? { status: undefined, headers: {}, body: raw }
}

/**
 * One HTTP/1.1 exchange over a plain socket, byte by byte as a slow or hostile client would send it:
 * what fetch cannot do (dribble a body, send a header line without end, oversize headers).
 */
export function rawExchange(port: number, options: RawExchangeOptions): Promise<RawExchange> {
  return new Promise((resolve) => {
    const started = Date.now()
    const socket = net.connect(port, '127.0.0.1')
    const chunks: Buffer[] = []
    let dripTimer: NodeJS.Timeout | undefined
    const finish = (closedAfter: number | undefined) => {
      clearInterval(dripTimer)
      clearTimeout(giveUp)
      socket.destroy()
      resolve({ ...parse(Buffer.concat(chunks).toString('utf8')), closedAfter })
    }
    const giveUp = setTimeout(() => finish(undefined), options.waitMilliseconds)
    socket.on('data', (chunk) => chunks.push(chunk))
    socket.on('close', () => finish(Date.now() - started))
    socket.on('error', () => undefined)
    socket.on('connect', () => {
      socket.write(options.head)
      const drip = [...(options.drip ?? [])]
      dripTimer = setInterval(() => {
        const next = drip.shift()
        if (next === undefined) clearInterval(dripTimer)
        else if (!socket.destroyed) socket.write(next)
      }, options.dripMilliseconds ?? 1_000)
    })
  })
}
