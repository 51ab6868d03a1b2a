import { isLogLevel, type LogLevel } from './logger.js';

/** The flags every binary has, as `node:util` parseArgs gives them. */
export interface CommonFlags {
  help?: boolean | undefined;
  version?: boolean | undefined;
  'log-level'?: string | undefined;
}

/**
 * Handles the flags every binary has: `--help` and `--version` print to stdout and answer
 * undefined (the binary then ends); otherwise the log level from `--log-level`, else
 * PLATFORM_LOG_LEVEL, else info. A level that is not one is a usage error (`fail`).
 */
export function commonFlags(
  args: CommonFlags,
  o: { usage: string; version: string; fail: (message: string) => never; env?: NodeJS.ProcessEnv },
): LogLevel | undefined {
  if (args.help) {
    process.stdout.write(o.usage);
    return undefined;
  }
  if (args.version) {
    process.stdout.write(`${o.version}\n`);
    return undefined;
  }
  const level = args['log-level'] ?? (o.env ?? process.env)['PLATFORM_LOG_LEVEL'] ?? 'info';
  if (!isLogLevel(level)) o.fail(`log level "${level}" is not one of debug, info, warn, error, silent`);
  return level;
}
