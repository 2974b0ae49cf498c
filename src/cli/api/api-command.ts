import type { KassaClient } from '@kassa/client'
import { InvalidArgumentError, type Command } from 'commander'
import { clientFor, DEFAULT_URL, resolveConnection, type ConnectionOptions } from './connection.js'
import { describeFailure } from './failure.js'

/** What a command against a running server is handed. */
export interface Api {
  client: KassaClient
  /** --json: the output is one JSON document. */
  json: boolean
  /** Writes to stdout. */
  write(text: string): void
  /** The JSON document with --json, else the readable view. */
  show(document: unknown, view: () => string): void
}

export interface CommonFlags extends ConnectionOptions {
  json?: boolean
}

/** Shown under every group's help: where the server and the credentials come from. */
export const CONNECTION_HELP = `
Connection (commands against a running server):
  --url URL          the server (else KASSA_URL, else the profile's url, else ${DEFAULT_URL})
  credentials        KASSA_ACCESS_KEY and KASSA_SECRET, else a profile of
                     $XDG_CONFIG_HOME/kassa/profiles.json (default ~/.config/kassa/profiles.json):
                     {"profiles": {"default": {"url": "...", "accessKey": "...", "secret": "..."}}}
  --profile NAME     use that profile instead of "default"; its values beat the environment
  --json             print one JSON document instead of a table
`

/** A subcommand of `parent` that talks to a running server: it takes --json, --url and --profile. */
export function apiCommand(parent: Command, nameAndArguments: string, description: string): Command {
  return parent
    .command(nameAndArguments)
    .description(description)
    .option('--json', 'print one JSON document instead of a table')
    .option('--url <url>', `the server's address (default: KASSA_URL, else the profile's url, else ${DEFAULT_URL})`)
    .option('--profile <name>', 'the profile of the profiles file to use (default: "default")')
}

/**
 * The action of an apiCommand: resolves the connection, runs `run` and turns its failures into the
 * message main.ts prints (`kassa: …`, exit code 1).
 */
export function apiAction<Flags>(run: (api: Api, flags: Flags & CommonFlags, args: string[]) => Promise<void>) {
  return async (...received: unknown[]): Promise<void> => {
    const command = received[received.length - 1] as Command
    const flags = command.opts<Flags & CommonFlags>()
    const connection = resolveConnection(flags, process.env)
    const json = Boolean(flags.json)
    const write = (text: string) => void process.stdout.write(text)
    const api: Api = {
      client: clientFor(connection),
      json,
      write,
      show: (document, view) => write(json ? `${JSON.stringify(document)}\n` : view()),
    }
    await run(api, flags, command.processedArgs as string[]).catch((error: unknown) => {
      throw describeFailure(error, connection.url)
    })
  }
}

/** `--limit N`: a whole number ≥ 1. */
export function positiveInteger(value: string): number {
  if (!/^\d+$/.test(value) || Number(value) < 1) throw new InvalidArgumentError('must be a whole number ≥ 1')
  return Number(value)
}
