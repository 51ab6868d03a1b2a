/**
 * The `platform` command: the program, its global options, and the one place where an
 * outcome becomes an exit code.
 *
 *   0  the command did what it was asked
 *   1  it failed: the API refused (its message and request id are shown), the cluster
 *      could not be reached, the token expired, a deploy did not come up
 *   2  usage: an unknown command or option, a missing argument, a malformed value
 */
import { Command, CommanderError, Option } from 'commander';
import { ApiError, ConnectionError } from './client/errors.js';
import { CommandError, UsageError } from './config.js';
import { appCommands, jobCommands } from './commands/app.js';
import { authCommands } from './commands/auth.js';
import { completionCommands } from './commands/completion.js';
import { clusterCommands } from './commands/cluster.js';
import { packageCommands } from './commands/package.js';
import { adminCommands } from './commands/admin.js';
import { manifestCommands } from './commands/manifest.js';
import { serviceCommands } from './commands/services.js';
import { networkCommands } from './commands/networks.js';
import { drainCommands } from './commands/drains.js';
import type { Action, CommandModule } from './commands/registry.js';
import { isExpiredTokenError, Session, type GlobalOptions, type SessionIo } from './session.js';
import { CLI_VERSION } from './version.js';

export const EXIT_OK = 0;
export const EXIT_FAILURE = 1;
export const EXIT_USAGE = 2;

/** Every command area. */
export const COMMAND_MODULES: readonly CommandModule[] = [
  authCommands,
  appCommands,
  jobCommands,
  packageCommands,
  clusterCommands,
  adminCommands,
  manifestCommands,
  serviceCommands,
  networkCommands,
  drainCommands,
  completionCommands,
];

export function buildProgram(io: SessionIo): Command {
  const program = new Command('platform')
    .description('The command-line client of the platform: deploy and manage apps, jobs and packages.')
    .version(CLI_VERSION, '-V, --version')
    .addOption(new Option('--json', 'print the result as JSON (for scripts)'))
    .addOption(new Option('-t, --target <url>', 'the API to talk to (default: the current target)').env('PLATFORM_TARGET'))
    .addOption(new Option('-n, --namespace <namespace>', 'the namespace short names resolve in (default: the user\'s)'))
    .showHelpAfterError('(add --help for usage)')
    .configureOutput({
      writeOut: (text) => io.stdout.write(text),
      writeErr: (text) => io.stderr.write(text),
    })
    .exitOverride();

  // commander calls an action with the arguments, the options, and the command last.
  const action: Action = (fn) => async (...args: unknown[]) => {
    const command = args[args.length - 1] as Command;
    const s = new Session(command.optsWithGlobals<GlobalOptions>(), io);
    await (fn as (s: Session, ...rest: unknown[]) => Promise<void>)(s, ...args.slice(0, -1));
  };
  for (const m of COMMAND_MODULES) m.register(program, action);
  // Every subcommand reports usage errors the same way (exit 2) instead of exiting itself.
  const configure = (c: Command) => {
    c.exitOverride().configureOutput({ writeOut: (t) => io.stdout.write(t), writeErr: (t) => io.stderr.write(t) }).showHelpAfterError('(add --help for usage)');
    c.commands.forEach(configure);
  };
  program.commands.forEach(configure);
  return program;
}

/** Runs the command line `argv` (without node and the script); answers the exit code. */
export async function main(argv: readonly string[], io: SessionIo = defaultIo()): Promise<number> {
  const program = buildProgram(io);
  const json = argv.includes('--json');
  const fail = (code: number, message: string, data: Record<string, unknown>) => {
    if (json) io.stderr.write(`${JSON.stringify({ error: { message, ...data } })}\n`);
    else io.stderr.write(`error: ${message}\n`);
    return code;
  };
  try {
    await program.parseAsync([...argv], { from: 'user' });
    return EXIT_OK;
  } catch (err) {
    if (err instanceof CommanderError) {
      if (err.code === 'commander.helpDisplayed' || err.code === 'commander.version' || err.code === 'commander.help') return EXIT_OK;
      // commander printed its message already
      return err.exitCode === 0 ? EXIT_OK : EXIT_USAGE;
    }
    if (err instanceof UsageError) return fail(EXIT_USAGE, err.message, { usage: true });
    if (isExpiredTokenError(err)) {
      return fail(EXIT_FAILURE, `${err.message} (request id ${err.requestId}): run \`platform login\` again`, { status: err.status, request_id: err.requestId, token_expired: true });
    }
    if (err instanceof ApiError) {
      const where = `${err.method} ${err.path}: HTTP ${err.status}`;
      return fail(EXIT_FAILURE, `${err.message} (${where}, request id ${err.requestId || 'none'})`, { ...err.body, status: err.status, request_id: err.requestId });
    }
    if (err instanceof CommandError) return fail(EXIT_FAILURE, err.message, err.details ?? {});
    if (err instanceof ConnectionError) return fail(EXIT_FAILURE, err.message, { url: err.url });
    return fail(EXIT_FAILURE, (err as Error).message ?? String(err), {});
  }
}

function defaultIo(): SessionIo {
  return { env: process.env, stdin: process.stdin, stdout: process.stdout, stderr: process.stderr, now: () => Date.now() };
}
