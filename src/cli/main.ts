import { Command } from 'commander'
import { VERSION } from '../version.js'
import { registerApiCommands } from './api/index.js'
import { registerHelpCommand } from './help-command.js'

const program = new Command('kassa')
  .description('Kassa: self-hosted financial data and payments API')
  .version(VERSION, '-V, --version', 'print the version')
  .showHelpAfterError()

registerApiCommands(program)
// The API commands are clients of a running server: run as one of them, the CLI loads none of the server's
// code (the database drivers, the domains, their compiled schemas) and starts in a third of the time.
const apiCommand = program.commands.some((command) => command.name() === process.argv[2])
if (!apiCommand) {
  const { registerManagementCommands } = await import('./management-commands.js')
  registerManagementCommands(program)
}
registerHelpCommand(program)

program.parseAsync(process.argv).catch((error: unknown) => {
  process.stderr.write(`kassa: ${error instanceof Error ? error.message : String(error)}\n`)
  process.exit(1)
})
