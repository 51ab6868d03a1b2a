/**
 * Listing a directory of an instance root (ListFiles -> FilesReply), never outside the root.
 *
 * The path is taken relative to the root ("" and "/" are the root; a leading "/" is dropped).
 * A `..` component is refused (`invalid`). The directory is resolved with realpath and must stay
 * inside the root's own realpath: a symlink leading out (or an absolute one, which would name a
 * host path) is answered `invalid`, the same as `..`. Entries are listed without following
 * links: directories end with "/" and have size -1; other entries carry their own size.
 *
 * The directory is then opened from the root one component at a time, each with O_NOFOLLOW and
 * relative to the one before (through /proc/self/fd), and listed through that descriptor: an
 * instance that swaps a directory of the path for a link after the check (to /etc, say) makes the
 * open fail, instead of making the agent, as root, list the host's directory.
 *
 * Errors are words (`invalid_path`, `name_too_long`, `not_a_directory`, `permission_denied`,
 * `io_error`...), never the message of a system error: those name host paths, which the
 * controller would pass on to the API client.
 */
import { constants } from 'node:fs';
import { lstat, open, readdir, realpath, type FileHandle } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import type { FileEntry } from '@platform/proto';

export type ListError = { kind: 'not_found' | 'invalid' | 'internal'; error: string };

/** A system error as a ListError that names no path: its errno code decides the kind. */
export function listErrorOf(err: unknown): ListError {
  const code = (err as NodeJS.ErrnoException).code ?? '';
  switch (code) {
    case 'ENOENT':
    case 'ENOTDIR':
      return { kind: 'not_found', error: 'not_found' };
    case 'ENAMETOOLONG':
      return { kind: 'invalid', error: 'name_too_long' };
    case 'ELOOP':
      return { kind: 'invalid', error: 'too_many_links' };
    case 'ERR_INVALID_ARG_VALUE':
    case 'ERR_INVALID_ARG_TYPE':
      return { kind: 'invalid', error: 'invalid_path' };
    case 'EACCES':
    case 'EPERM':
      return { kind: 'internal', error: 'permission_denied' };
    default:
      return { kind: 'internal', error: /^E[A-Z]+$/.test(code) ? `io_error ${code}` : 'io_error' };
  }
}

/** The real path of `path` below `root`, or why it is refused (the rules above). */
export async function resolveInside(root: string, path: string): Promise<{ realRoot: string; dir: string } | ListError> {
  const parts = path.split('/').filter((p) => p !== '' && p !== '.');
  if (parts.includes('..') || path.includes('\0')) return { kind: 'invalid', error: 'invalid_path' };
  let realRoot: string;
  let dir: string;
  try {
    realRoot = await realpath(root);
    dir = await realpath(join(root, ...parts));
  } catch (err) {
    return listErrorOf(err);
  }
  if (dir !== realRoot && !dir.startsWith(realRoot + sep)) return { kind: 'invalid', error: 'invalid_path' };
  return { realRoot, dir };
}

const DIR_FLAGS = constants.O_RDONLY | constants.O_DIRECTORY | constants.O_NOFOLLOW;

/** The path through which an entry of the directory held open as `dir` is reached without resolving its parents again. */
export function entryPath(dir: FileHandle, name = ''): string {
  return name === '' ? `/proc/self/fd/${dir.fd}` : `/proc/self/fd/${dir.fd}/${name}`;
}

/** Opens the directory `name` of `dir` without following a link (ELOOP, ENOTDIR otherwise). */
export function openSubdir(dir: FileHandle, name: string): Promise<FileHandle> {
  return open(entryPath(dir, name), DIR_FLAGS);
}

/**
 * The directory at `path` below `root`, held open (the caller closes it): resolved by the rules
 * above, then opened from the root's real path component by component without following links.
 */
export async function openInside(root: string, path: string): Promise<{ realRoot: string; dir: FileHandle; rel: string } | ListError> {
  const resolved = await resolveInside(root, path);
  if ('kind' in resolved) return resolved;
  const rel = relative(resolved.realRoot, resolved.dir);
  let dir: FileHandle | undefined;
  try {
    dir = await open(resolved.realRoot, DIR_FLAGS);
    for (const name of rel.split(sep).filter((p) => p !== '')) {
      const next = await openSubdir(dir, name);
      await dir.close();
      dir = next;
    }
    return { realRoot: resolved.realRoot, dir, rel };
  } catch (err) {
    await dir?.close();
    // A link or a file where the check saw a directory: changed meanwhile, refused as a link out is.
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ELOOP') return { kind: 'invalid', error: 'invalid_path' };
    if (code === 'ENOTDIR') return { kind: 'invalid', error: 'not_a_directory' };
    return listErrorOf(err);
  }
}

export async function listDirectory(root: string, path: string): Promise<{ entries: FileEntry[] } | ListError> {
  const opened = await openInside(root, path);
  if ('kind' in opened) return opened;
  const { dir } = opened;
  try {
    const names = await readdir(entryPath(dir), { withFileTypes: true });
    const entries: FileEntry[] = [];
    for (const d of names) {
      if (d.isDirectory()) {
        entries.push({ name: `${d.name}/`, size: -1 });
      } else {
        let size = 0;
        try {
          size = (await lstat(entryPath(dir, d.name))).size;
        } catch {
          continue; // removed meanwhile
        }
        entries.push({ name: d.name, size });
      }
    }
    entries.sort((a, b) => ((a.name ?? '') < (b.name ?? '') ? -1 : 1));
    return { entries };
  } catch (err) {
    return listErrorOf(err);
  } finally {
    await dir.close();
  }
}
