/**
 * Snapshots: the files of an instance root that changed since its process started (below a
 * directory when one is given), packed as a gzip tar with paths relative to the root. What a
 * stager's POST /snapshot adds to the package it stages.
 *
 * Only regular files and symbolic links are taken, found without following links; the
 * directory is resolved as for listings, so a snapshot never reads outside the root.
 */
import { lstat, readdir } from 'node:fs/promises';
import { join, relative } from 'node:path';
import type { Readable } from 'node:stream';
import { create } from 'tar';
import { listErrorOf, resolveInside, type ListError } from './list.js';

/** Root-relative paths of the files changed at or after `sinceMs` below `path`. */
export async function changedFiles(root: string, path: string, sinceMs: number): Promise<{ realRoot: string; files: string[] } | ListError> {
  const resolved = await resolveInside(root, path);
  if ('kind' in resolved) return resolved;
  const files: string[] = [];
  const walk = async (dir: string): Promise<void> => {
    for (const entry of await readdir(dir, { withFileTypes: true })) {
      const full = join(dir, entry.name);
      if (entry.isDirectory()) await walk(full);
      else if (entry.isFile() || entry.isSymbolicLink()) {
        const st = await lstat(full).catch(() => undefined);
        if (st && st.mtimeMs >= sinceMs) files.push(relative(resolved.realRoot, full));
      }
    }
  };
  try {
    await walk(resolved.dir);
  } catch (err) {
    return listErrorOf(err);
  }
  files.sort();
  return { realRoot: resolved.realRoot, files };
}

/** A gzip tar of `files` (root-relative), read from `root`. */
export function packFiles(root: string, files: readonly string[]): Readable {
  return create({ gzip: true, cwd: root, portable: true, follow: false, noDirRecurse: true }, [...files]) as unknown as Readable;
}
