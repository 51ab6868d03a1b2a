/** Helpers shared by the built-in stagers. */
import { execFile } from 'node:child_process';
import { access, constants, readdir, readFile, stat } from 'node:fs/promises';
import { delimiter, join } from 'node:path';
import { promisify } from 'node:util';
import type { StagerContext } from '../context.js';
import { StagingError } from '../errors.js';

export const run = promisify(execFile);

export async function exists(path: string): Promise<boolean> {
  try {
    await access(path, constants.F_OK);
    return true;
  } catch {
    return false;
  }
}

export async function isExecutable(path: string): Promise<boolean> {
  try {
    await access(path, constants.X_OK);
    return (await stat(path)).isFile();
  } catch {
    return false;
  }
}

/** The first of `names` present in `dir`. */
export async function firstPresent(dir: string, names: readonly string[]): Promise<string | undefined> {
  for (const n of names) if (await exists(join(dir, n))) return n;
  return undefined;
}

/** Top-level file names of `dir` ending with `ext`, sorted. */
export async function filesWith(dir: string, ext: string): Promise<string[]> {
  return (await readdir(dir, { withFileTypes: true })).filter((e) => e.isFile() && e.name.endsWith(ext)).map((e) => e.name).sort();
}

export async function readText(path: string): Promise<string | undefined> {
  try {
    return await readFile(path, 'utf8');
  } catch {
    return undefined;
  }
}

/** The path of `command` on PATH, or undefined. */
export async function which(command: string): Promise<string | undefined> {
  for (const dir of (process.env['PATH'] ?? '').split(delimiter)) {
    if (dir && (await isExecutable(join(dir, command)))) return join(dir, command);
  }
  return undefined;
}

/** A shell-quoted word. */
export function quote(word: string): string {
  return /^[A-Za-z0-9_./=:-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

/** The web process command of a Procfile (`web: <command>`), if there is one. */
export async function procfileWeb(app: string): Promise<string | undefined> {
  const text = await readText(join(app, 'Procfile'));
  return text ? /^web:\s*(.+)$/m.exec(text)?.[1]?.trim() : undefined;
}

/** Downloads the package, places the app under /app and returns its directory. */
export async function prepare(ctx: StagerContext): Promise<string> {
  await ctx.download();
  return ctx.placeApp('/app');
}

/** Fails staging with a message for the user. */
export function unstageable(message: string): never {
  throw new StagingError(message);
}
