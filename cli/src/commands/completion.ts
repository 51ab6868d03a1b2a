/**
 * Shell completion for bash and zsh. The scripts ask the program itself (`platform
 * __complete <index> <words...>`), so completion always matches the commands and options
 * of the installed version, including those added later.
 */
import type { Command } from 'commander';
import { UsageError } from '../config.js';
import type { CommandModule } from './registry.js';

const BASH = `# bash completion for platform: source <(platform completion bash)
_platform_complete() {
  local IFS=$'\\n'
  COMPREPLY=( $(platform __complete "$COMP_CWORD" "\${COMP_WORDS[@]:1}" 2>/dev/null) )
}
complete -o default -F _platform_complete platform
`;

const ZSH = `#compdef platform
# zsh completion for platform: source <(platform completion zsh)
_platform() {
  local -a candidates
  candidates=("\${(@f)$(platform __complete $((CURRENT - 1)) "\${(@)words[2,-1]}" 2>/dev/null)}")
  compadd -a candidates
}
compdef _platform platform
`;

/** The words that may come at position `index` (1-based, after `platform`) of `words`. */
export function completions(program: Command, index: number, words: readonly string[]): string[] {
  let command = program;
  for (const word of words.slice(0, Math.max(0, index - 1))) {
    const sub = command.commands.find((c) => c.name() === word || c.aliases().includes(word));
    if (sub) command = sub;
  }
  const current = words[index - 1] ?? '';
  const options = [...command.options, ...program.options].flatMap((o) => [o.long, o.short]).filter((o): o is string => typeof o === 'string');
  const subcommands = command.commands.filter((c) => !c.name().startsWith('__')).map((c) => c.name());
  const candidates = current.startsWith('-') ? options : subcommands;
  return [...new Set(candidates)].filter((c) => c.startsWith(current)).sort();
}

export const completionCommands: CommandModule = {
  names: ['completion'],
  register(program, action) {
    program
      .command('completion')
      .description('print the shell completion script: source <(platform completion bash), or zsh')
      .argument('<shell>', 'bash or zsh')
      .action(
        action(async (s, shell: string) => {
          if (shell !== 'bash' && shell !== 'zsh') throw new UsageError(`no completion for "${shell}": bash or zsh`);
          s.io.stdout.write(shell === 'bash' ? BASH : ZSH);
        }),
      );
    program
      .command('__complete', { hidden: true })
      .argument('<index>')
      .argument('[words...]')
      .allowUnknownOption()
      .helpOption(false)
      .action(
        action(async (s, index: string, words: string[] = []) => {
          s.io.stdout.write(completions(program, Number(index), words).map((w) => `${w}\n`).join(''));
        }),
      );
  },
};
