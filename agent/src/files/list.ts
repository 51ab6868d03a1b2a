/**
 * Listing a directory of an instance root (ListFiles -> FilesReply), never outside the root.
 *
 * The path is taken relative to the root ("" and "/" are the root; a leading "/" is dropped).
 * A `..` component is refused (`invalid`). The directory is resolved with realpath and must stay
 * inside the root's own realpath: a symlink leading out (or an absolute one, which would name a
 * host path) is answered `invalid`, the same as `..`. Entries are listed without following
 * links: directories end with "/" and have size -1; other entries carry their own size.
 */
import { lstat, readdir, realpath, stat } from 'node:fs/promises';
import { join, sep } from 'node:path';
import type { FileEntry } from '@platform/proto';

export type ListError = { kind: 'not_found' | 'invalid' | 'internal'; error: string };

/** The real path of `path` below `root`, or why it is refused (the rules above). */
export async function resolveInside(root: string, path: string): Promise<{ realRoot: string; dir: string } | ListError> {
  const parts = path.split('/').filter((p) => p !== '' && p !== '.');
  if (parts.includes('..')) return { kind: 'invalid', error: 'invalid_path' };
  let realRoot: string;
  let dir: string;
  try {
    realRoot = await realpath(root);
    dir = await realpath(join(root, ...parts));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT' || (err as NodeJS.ErrnoException).code === 'ENOTDIR') {
      return { kind: 'not_found', error: 'not_found' };
    }
    return { kind: 'internal', error: (err as Error).message };
  }
  if (dir !== realRoot && !dir.startsWith(realRoot + sep)) return { kind: 'invalid', error: 'invalid_path' };
  return { realRoot, dir };
}

export async function listDirectory(root: string, path: string): Promise<{ entries: FileEntry[] } | ListError> {
  const resolved = await resolveInside(root, path);
  if ('kind' in resolved) return resolved;
  const { dir } = resolved;
  try {
    if (!(await stat(dir)).isDirectory()) return { kind: 'invalid', error: 'not_a_directory' };
    const names = await readdir(dir, { withFileTypes: true });
    const entries: FileEntry[] = [];
    for (const d of names) {
      if (d.isDirectory()) {
        entries.push({ name: `${d.name}/`, size: -1 });
      } else {
        let size = 0;
        try {
          size = (await lstat(join(dir, d.name))).size;
        } catch {
          continue; // removed meanwhile
        }
        entries.push({ name: d.name, size });
      }
    }
    entries.sort((a, b) => ((a.name ?? '') < (b.name ?? '') ? -1 : 1));
    return { entries };
  } catch (err) {
    return { kind: 'internal', error: (err as Error).message };
  }
}
