import type { Command } from 'commander'

/**
 * `kassa help COMMAND [SUBCOMMAND…]` prints that command's own usage, however deep (issue 10: `kassa help
 * credit-transfers create` showed the group's). Commander's built-in help command reads one name only.
 * @throws via program.error: an unknown command name, with the usage of the deepest one found.
 */
export function registerHelpCommand(program: Command): void {
  program.helpCommand(false)
  program
    .command('help [command...]')
    .description('display help for a command')
    .action((path: string[]) => {
      let command = program
      for (const name of path) {
        const sub = command.commands.find((candidate) => candidate.name() === name || candidate.aliases().includes(name))
        if (sub === undefined) command.error(`error: unknown command '${name}'`)
        else command = sub
      }
      command.outputHelp()
    })
}
