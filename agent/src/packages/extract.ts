/**
 * Safe extraction of a package archive (gzip tar) into an instance root.
 *
 * Extraction never writes outside the root. The whole archive is refused (the instance fails
 * with the reason) when an entry
 * - has a `..` component (an absolute path is taken as relative to the install path:
 *   archives carry full paths such as /app/index.html),
 * - is a symlink whose target is absolute or resolves outside the root (links must be relative
 *   and stay inside: an absolute target would point at the host under the `process` driver),
 * - is a hard link whose target is outside the root or not a regular file extracted before,
 * - is a device, FIFO or any type other than file, directory, symlink and hard link,
 * - would be written through a symlink (a directory component that is a link: an earlier entry
 *   cannot redirect a later one), or the tar stream itself is corrupt.
 * setuid/setgid bits are dropped; ownership is not restored (files belong to the agent's user).
 *
 * Entries are written with synchronous file calls inside the parser's callbacks: the order of
 * entries is then the order of effects (a link and the file it names), at the cost of short
 * event-loop stalls per chunk.
 */
import { createReadStream, closeSync, linkSync, lstatSync, mkdirSync, openSync, symlinkSync, unlinkSync, writeSync, type Stats } from 'node:fs';
import { posix, join } from 'node:path';
import { Parser, type ReadEntry } from 'tar';
import { PackageError } from './cache.js';

export class UnsafeArchiveError extends PackageError {
  override readonly name = 'UnsafeArchiveError';
}

/** Splits an archive or API path into safe components; throws on `..`. Leading `/` and `.` are dropped. */
export function safeComponents(path: string, what: string): string[] {
  const parts = path.split('/').filter((p) => p !== '' && p !== '.');
  if (parts.includes('..')) throw new UnsafeArchiveError(`${what} "${path}" has a ".." component`);
  for (const p of parts) if (p.includes('\0')) throw new UnsafeArchiveError(`${what} "${path}" has a NUL byte`);
  return parts;
}

function lstatOrUndefined(path: string): Stats | undefined {
  try {
    return lstatSync(path);
  } catch {
    return undefined;
  }
}

/**
 * Creates `root/parts...` as real directories, refusing to pass through a symlink or a file.
 * `root` itself must exist.
 */
export function ensureDirInside(root: string, parts: readonly string[], label: string): string {
  let dir = root;
  for (const p of parts) {
    dir = join(dir, p);
    const st = lstatOrUndefined(dir);
    if (!st) {
      mkdirSync(dir, { mode: 0o755 });
    } else if (st.isSymbolicLink()) {
      throw new UnsafeArchiveError(`${label}: "${dir.slice(root.length) || '/'}" is a symlink; refusing to write through it`);
    } else if (!st.isDirectory()) {
      throw new UnsafeArchiveError(`${label}: "${dir.slice(root.length)}" is not a directory`);
    }
  }
  return dir;
}

export interface ExtractResult {
  entries: number;
  bytes: number;
}

/**
 * Extracts `archive` under `root` + `installPath`. `root` must exist. Rejects with
 * UnsafeArchiveError (or PackageError for a corrupt archive) and leaves what was written so far
 * (the caller removes the instance directory).
 */
export function extractArchive(archive: string, root: string, installPath: string, label = 'archive'): Promise<ExtractResult> {
  return new Promise((resolve, reject) => {
    let base: string;
    let baseParts: string[];
    try {
      baseParts = safeComponents(installPath, 'install path');
      base = ensureDirInside(root, baseParts, label);
    } catch (err) {
      reject(err as Error);
      return;
    }
    let failure: Error | undefined;
    let entries = 0;
    let bytes = 0;
    const input = createReadStream(archive);
    const parser = new Parser({ strict: true });

    const fail = (err: Error): void => {
      if (failure) return;
      failure = err instanceof PackageError ? err : new UnsafeArchiveError(`${label}: ${err.message}`);
      input.destroy();
      reject(failure);
    };

    const onEntry = (entry: ReadEntry): void => {
      if (failure) {
        entry.resume();
        return;
      }
      try {
        handleEntry(entry);
      } catch (err) {
        entry.resume();
        fail(err as Error);
      }
    };

    const handleEntry = (entry: ReadEntry): void => {
      entries++;
      const parts = safeComponents(entry.path, `${label}: entry`);
      const shown = '/' + parts.join('/');
      if (parts.length === 0) {
        if (entry.type !== 'Directory') throw new UnsafeArchiveError(`${label}: entry "${entry.path}" has no name`);
        entry.resume();
        return;
      }
      const parent = ensureDirInside(base, parts.slice(0, -1), label);
      const target = join(parent, parts[parts.length - 1] as string);
      const existing = lstatOrUndefined(target);
      const replace = (): void => {
        if (existing && !existing.isDirectory()) unlinkSync(target);
        else if (existing) throw new UnsafeArchiveError(`${label}: entry ${shown} would replace a directory`);
      };
      switch (entry.type) {
        case 'Directory': {
          if (existing?.isSymbolicLink()) throw new UnsafeArchiveError(`${label}: directory ${shown} is a symlink already`);
          if (!existing) mkdirSync(target, { mode: ((entry.mode ?? 0o755) & 0o1777) | 0o700 });
          else if (!existing.isDirectory()) throw new UnsafeArchiveError(`${label}: directory ${shown} is a file already`);
          entry.resume();
          return;
        }
        case 'File':
        case 'OldFile':
        case 'ContiguousFile': {
          replace();
          const fd = openSync(target, 'wx', (entry.mode ?? 0o644) & 0o1777);
          let closed = false;
          const close = (): void => {
            if (!closed) {
              closed = true;
              closeSync(fd);
            }
          };
          entry.on('data', (chunk: Buffer) => {
            if (failure) return;
            try {
              writeSync(fd, chunk);
              bytes += chunk.length;
            } catch (err) {
              close();
              fail(err as Error);
            }
          });
          entry.on('end', () => {
            try {
              close();
            } catch (err) {
              fail(err as Error);
            }
          });
          return;
        }
        case 'SymbolicLink': {
          const link = entry.linkpath ?? '';
          if (link === '' || link.startsWith('/')) {
            throw new UnsafeArchiveError(`${label}: symlink ${shown} -> ${link} is absolute; links must be relative and stay inside the root`);
          }
          // Resolved against the link's directory, relative to the instance root: a result that
          // starts with ".." leaves the root.
          const resolved = posix.normalize(posix.join('.', ...baseParts, ...parts.slice(0, -1), link));
          if (resolved === '..' || resolved.startsWith('../')) {
            throw new UnsafeArchiveError(`${label}: symlink ${shown} -> ${link} points outside the root`);
          }
          replace();
          symlinkSync(link, target);
          entry.resume();
          return;
        }
        case 'Link': {
          const linkParts = safeComponents(entry.linkpath ?? '', `${label}: hard link ${shown} target`);
          if (linkParts.length === 0) throw new UnsafeArchiveError(`${label}: hard link ${shown} has no target`);
          const srcParent = ensureDirInside(base, linkParts.slice(0, -1), label);
          const src = join(srcParent, linkParts[linkParts.length - 1] as string);
          const st = lstatOrUndefined(src);
          if (!st?.isFile()) {
            throw new UnsafeArchiveError(`${label}: hard link ${shown} -> ${entry.linkpath} does not name a file extracted before it`);
          }
          replace();
          linkSync(src, target);
          entry.resume();
          return;
        }
        case 'CharacterDevice':
        case 'BlockDevice':
        case 'FIFO':
          throw new UnsafeArchiveError(`${label}: entry ${shown} is a ${entry.type === 'FIFO' ? 'FIFO' : 'device file'}; refused`);
        default:
          throw new UnsafeArchiveError(`${label}: entry ${shown} has unsupported type ${entry.type}`);
      }
    };

    parser.on('entry', onEntry);
    parser.on('ignoredEntry', (entry: ReadEntry) => fail(new UnsafeArchiveError(`${label}: entry "${entry.path}" has unsupported type ${entry.type}`)));
    parser.on('error', (err: Error) => fail(new PackageError(`${label}: not a valid tar archive: ${err.message}`)));
    parser.on('end', () => {
      if (!failure) resolve({ entries, bytes });
    });
    input.on('error', (err) => fail(new PackageError(`${label}: cannot read the archive: ${err.message}`)));
    input.on('data', (chunk) => {
      if (!failure) parser.write(chunk as Buffer);
    });
    input.on('end', () => {
      if (!failure) parser.end();
    });
  });
}
