/**
 * Which runtime an app directory is: the controller's GET /runtimes lists each runtime with
 * file patterns, in the order a client tests them; the first with a match among the
 * directory's top-level files names the pipeline `stagpipe::/platform::<runtime>`.
 */
import { readdir } from 'node:fs/promises';
import type { Runtime } from '../client/types.js';

/** `*.js` style patterns: `*` and `?` only, matched against a whole file name. */
export function matchesPattern(name: string, pattern: string): boolean {
  const re = new RegExp(`^${pattern.replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*').replace(/\?/g, '.')}$`);
  return re.test(name);
}

export function detectRuntime(files: readonly string[], runtimes: readonly Runtime[]): Runtime | undefined {
  return runtimes.find((r) => r.patterns.some((p) => files.some((f) => matchesPattern(f, p))));
}

/** The top-level file names of `dir` that `keep` lets into the archive. */
export async function topLevelFiles(dir: string, keep: (rel: string, isDir: boolean) => boolean): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true });
  return entries.filter((e) => !e.isDirectory() && keep(e.name, false)).map((e) => e.name);
}
