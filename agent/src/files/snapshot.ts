/**
 * Snapshots: the files of an instance root that changed since its process started (below a
 * directory when one is given), packed as a gzip tar with paths relative to the root. What a
 * stager's POST /snapshot adds to the package it stages.
 *
 * Only regular files and symbolic links are taken, found without following links. The agent
 * reads them as root from a tree the instance keeps changing, so no path below the root is ever
 * resolved again: the directory is opened as for listings (list.ts), each directory below it is
 * opened from its parent's descriptor without following links, each file is opened the same way
 * (O_NOFOLLOW; anything but a regular file is passed over) and copied, links are read with
 * readlink, into a staging directory of the agent's (mode 0700, outside the root); the tar is
 * made from there. An instance that swaps a directory for a link to the host's /etc while the
 * snapshot runs gets a failed open, not the host's files.
 */
import { constants, createWriteStream } from 'node:fs';
import { lstat, mkdir, mkdtemp, open, readdir, readlink, rm, symlink, utimes, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { create } from 'tar';
import { entryPath, listErrorOf, openInside, openSubdir, type ListError } from './list.js';

/** The changed files below `path`, copied into a new directory under `stagingParent`; the caller removes `staging`. */
export async function stageChangedFiles(
  root: string,
  path: string,
  sinceMs: number,
  stagingParent: string,
): Promise<{ staging: string; files: string[] } | ListError> {
  const opened = await openInside(root, path);
  if ('kind' in opened) return opened;
  const staging = await mkdtemp(join(stagingParent, 'snapshot-'));
  const files: string[] = [];
  const walk = async (dir: FileHandle, rel: string): Promise<void> => {
    for (const entry of await readdir(entryPath(dir), { withFileTypes: true })) {
      const name = entry.name;
      const relPath = rel === '' ? name : `${rel}/${name}`;
      if (entry.isDirectory()) {
        let sub: FileHandle;
        try {
          sub = await openSubdir(dir, name);
        } catch {
          continue; // replaced or removed meanwhile
        }
        try {
          await walk(sub, relPath);
        } finally {
          await sub.close();
        }
      } else if (entry.isSymbolicLink()) {
        const st = await lstat(entryPath(dir, name)).catch(() => undefined);
        if (!st?.isSymbolicLink() || st.mtimeMs < sinceMs) continue;
        const target = await readlink(entryPath(dir, name)).catch(() => undefined);
        if (target === undefined) continue;
        await mkdir(join(staging, rel), { recursive: true, mode: 0o700 });
        await symlink(target, join(staging, relPath));
        files.push(relPath);
      } else if (entry.isFile()) {
        let file: FileHandle;
        try {
          file = await open(entryPath(dir, name), constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
        } catch {
          continue; // replaced by a link, or removed, meanwhile
        }
        try {
          const st = await file.stat();
          if (!st.isFile() || st.mtimeMs < sinceMs) continue;
          await mkdir(join(staging, rel), { recursive: true, mode: 0o700 });
          const copy = join(staging, relPath);
          await pipeline(file.createReadStream({ autoClose: false }), createWriteStream(copy, { mode: st.mode & 0o777 }));
          await utimes(copy, st.atime, st.mtime);
          files.push(relPath);
        } finally {
          await file.close();
        }
      }
    }
  };
  try {
    await walk(opened.dir, opened.rel);
  } catch (err) {
    await rm(staging, { recursive: true, force: true });
    return listErrorOf(err);
  } finally {
    await opened.dir.close();
  }
  files.sort();
  return { staging, files };
}

/** A gzip tar of `files` (relative to `dir`, the staging directory), read from `dir`. */
export function packFiles(dir: string, files: readonly string[]): Readable {
  return create({ gzip: true, cwd: dir, portable: true, follow: false, noDirRecurse: true }, [...files]) as unknown as Readable;
}
