/**
 * The command registry: each area of the API is one module that adds its commands to the
 * program. A capability the controller does not serve yet gets its module when it lands: add
 * it to COMMAND_MODULES in main.ts, and docs/cli.md; nothing here answers for a missing one.
 */
import type { Command } from 'commander';
import { InvalidArgumentError } from 'commander';
import { UsageError } from '../config.js';
import type { Session } from '../session.js';

/** Wraps a command's action: builds the Session from the global options and runs `fn`. */
export type Action = <A extends unknown[]>(fn: (s: Session, ...args: A) => Promise<void>) => (...args: unknown[]) => Promise<void>;

export interface CommandModule {
  /** The top-level command(s) the module adds, for the documentation test. */
  readonly names: readonly string[];
  register(program: Command, action: Action): void;
}

/** Collects a repeated option (`--env A=1 --env B=2`). */
export const collect = (value: string, previous: string[] = []): string[] => [...previous, value];

/** Parses a positive or zero integer option. */
export function intOption(name: string, min = 0) {
  return (raw: string): number => {
    if (!/^\d{1,9}$/.test(raw) || Number(raw) < min) throw new InvalidArgumentError(`"${raw}" is not an integer of at least ${min}`);
    return Number(raw);
  };
}

/** `KEY=VALUE` pairs to a map; refuses a pair without `=`. */
export function envPairs(pairs: readonly string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const p of pairs) {
    const eq = p.indexOf('=');
    if (eq <= 0) throw new UsageError(`"${p}" is not KEY=VALUE`);
    out[p.slice(0, eq)] = p.slice(eq + 1);
  }
  return out;
}
