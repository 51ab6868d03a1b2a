/**
 * Safe extraction of a package archive (gzip tar) into an instance root.
 *
 * Extraction never writes outside the root. The whole archive is refused (the instance fails
 * with the reason) when an entry
 * - has a `..` component (an absolute path is taken as relative to the install path:
 *   archives carry full paths such as /app/index.html),
 * - is a symlink whose target is absolute, or whose target leaves the root at any step when
 *   resolved through the links already on disk (see `checkLinkTarget`: chains of links are
 *   followed as the kernel would, so `a/b/s -> ../../..` then `l -> a/b/s/../../../..` is
 *   refused although `l`'s text alone looks harmless),
 * - would replace a symlink or a directory (a link, once checked, keeps its meaning: links
 *   checked before it may resolve through it),
 * - is a hard link whose target is not a regular file extracted before it, reached through
 *   real directories only,
 * - is a device, FIFO or any type other than file, directory, symlink and hard link,
 * - would be written through a symlink (a directory component that is a link: an earlier entry
 *   cannot redirect a later one), or the tar stream itself is corrupt,
 * - takes the bytes extracted past the disk budget (`DiskBudget`, the job's disk resource):
 *   an entry's declared size is charged before any of it is written, so a compression bomb
 *   stops at the budget (DiskLimitError); the decompressed tar stream itself may be at most
 *   4 times the budget left plus 1 MiB (every entry is charged at least 4 KiB for at most about
 *   as many tar bytes; only large metadata headers come near that bound), so data that writes
 *   nothing cannot make the agent decompress for long either,
 * - is compressed twice, or with zstd (packages are gzip tar, or plain tar).
 * setuid/setgid bits are dropped; ownership is not restored (files belong to the agent's user).
 *
 * Entries are written with synchronous file calls inside the parser's callbacks: the order of
 * entries is then the order of effects (a link and the file it names), at the cost of short
 * event-loop stalls per chunk.
 */
import { createReadStream, closeSync, linkSync, lstatSync, mkdirSync, openSync, readSync, readlinkSync, symlinkSync, unlinkSync, writeSync, type Stats } from 'node:fs';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { createGunzip } from 'node:zlib';
import { Parser, type ReadEntry } from 'tar';
import { PackageError } from './cache.js';
import { chargedBytes, DiskBudget, DiskLimitError, formatBytes } from './disk-budget.js';

export { DiskBudget, DiskLimitError };

const MiB = 1024 * 1024;
const GZIP_MAGIC = [0x1f, 0x8b];
const ZSTD_MAGIC = [0x28, 0xb5, 0x2f, 0xfd];

function startsWith(buf: Buffer, magic: readonly number[]): boolean {
  return buf.length >= magic.length && magic.every((b, i) => buf[i] === b);
}

/** The first bytes of a file (fewer when it is shorter). */
function readHead(file: string): Buffer {
  const fd = openSync(file, 'r');
  try {
    const buf = Buffer.alloc(4);
    return buf.subarray(0, readSync(fd, buf, 0, 4, 0));
  } finally {
    closeSync(fd);
  }
}

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

/** Most symlinks followed in one resolution (the kernel's own limit is 40). */
const MAX_LINK_HOPS = 40;

/**
 * Checks a symlink's target as the kernel would resolve it, from the directory `dirParts`
 * (real directories, relative to `root`), through the links already on disk under `root`.
 * Throws UnsafeArchiveError when the target is absolute, when any step (the final one or an
 * intermediate one, inside a chain of links) would go above `root`, or when the chain loops.
 *
 * A component that does not exist yet (or is not a directory) may be created later, possibly as
 * a link: after such a component the rest of the path must not climb (`..`), so that what comes
 * later cannot change the answer. Together with "a symlink or a directory is never replaced"
 * (extractArchive), a link that passes this check stays inside whatever is
 * extracted after it.
 */
export function checkLinkTarget(root: string, dirParts: readonly string[], target: string, what: string): void {
  if (target === '' || target.startsWith('/')) {
    throw new UnsafeArchiveError(`${what} -> ${target} is absolute; links must be relative and stay inside the root`);
  }
  if (target.includes('\0')) throw new UnsafeArchiveError(`${what} has a NUL byte in its target`);
  const stack = [...dirParts];
  const followed: string[] = []; // the links passed so far, for the message
  const via = (): string => (followed.length ? ` (resolved through ${followed.join(', ')})` : '');
  let pending = false; // a component that does not exist (yet) was passed
  const walk = (text: string): void => {
    for (const c of text.split('/')) {
      if (c === '' || c === '.') continue;
      if (c === '..') {
        if (pending) throw new UnsafeArchiveError(`${what} -> ${target} climbs ("..") out of a path that is not extracted yet${via()}; refused`);
        if (stack.length === 0) throw new UnsafeArchiveError(`${what} -> ${target} points outside the root${via()}`);
        stack.pop();
        continue;
      }
      if (pending) {
        stack.push(c);
        continue;
      }
      const here = join(root, ...stack, c);
      const st = lstatOrUndefined(here);
      if (st?.isSymbolicLink()) {
        if (followed.length >= MAX_LINK_HOPS) throw new UnsafeArchiveError(`${what} -> ${target}: too many levels of symbolic links`);
        const next = readlinkSync(here);
        followed.push(`/${[...stack, c].join('/')} -> ${next}`);
        if (next.startsWith('/')) throw new UnsafeArchiveError(`${what} -> ${target} goes through an absolute link${via()}; refused`);
        walk(next);
        continue;
      }
      stack.push(c);
      if (!st?.isDirectory()) pending = true;
    }
  };
  walk(target);
}

export interface ExtractResult {
  entries: number;
  /** Content bytes written. */
  bytes: number;
}

export interface ExtractOptions {
  /** Names the package in messages ("package job::/a::b"). */
  label?: string;
  /** The instance's disk budget, shared by all its packages (default: none). */
  budget?: DiskBudget;
}

/**
 * Extracts `archive` under `root` + `installPath`. `root` must exist. Rejects with
 * UnsafeArchiveError, DiskLimitError (or PackageError for a corrupt archive) and leaves what
 * was written so far (the caller removes the instance directory).
 */
export function extractArchive(archive: string, root: string, installPath: string, opts: ExtractOptions = {}): Promise<ExtractResult> {
  const label = opts.label ?? 'archive';
  const budget = opts.budget ?? new DiskBudget(0);
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
    // Decompressed here, not by the parser, so that the tar stream is counted: an archive that
    // expands far beyond what it may write (data in entries that write nothing, junk after the
    // end) stops there instead of costing the agent CPU for up to 1000 times its size.
    let head: Buffer;
    try {
      head = readHead(archive);
    } catch (err) {
      reject(new PackageError(`${label}: cannot read the archive: ${(err as Error).message}`));
      return;
    }
    const file = createReadStream(archive);
    const gunzip = startsWith(head, GZIP_MAGIC) ? createGunzip() : undefined;
    const input: Readable = gunzip ? file.pipe(gunzip) : file;
    const maxTarBytes = budget.limit > 0 ? (budget.limit - budget.used) * 4 + MiB : Number.POSITIVE_INFINITY;
    let tarBytes = 0;
    // gzip and zstd are recognised by us; the parser must not find another layer inside.
    const parser = new Parser({ strict: true, zstd: false, brotli: false });

    const fail = (err: Error): void => {
      if (failure) return;
      failure = err instanceof PackageError ? err : new UnsafeArchiveError(`${label}: ${err.message}`);
      file.destroy();
      gunzip?.destroy();
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

    /** Creates the directories above an entry, each charged once. */
    const parentOf = (parts: readonly string[]): string => {
      let dir = base;
      for (const p of parts) {
        const next = join(dir, p);
        if (!lstatOrUndefined(next)) budget.charge(chargedBytes(0), `${label}: directory ${next.slice(root.length)}`);
        dir = ensureDirInside(dir, [p], label);
      }
      return dir;
    };

    const handleEntry = (entry: ReadEntry): void => {
      entries++;
      const parts = safeComponents(entry.path, `${label}: entry`);
      const shown = '/' + [...baseParts, ...parts].join('/');
      if (parts.length === 0) {
        if (entry.type !== 'Directory') throw new UnsafeArchiveError(`${label}: entry "${entry.path}" has no name`);
        entry.resume();
        return;
      }
      const parent = parentOf(parts.slice(0, -1));
      const target = join(parent, parts[parts.length - 1] as string);
      const existing = lstatOrUndefined(target);
      // A directory or a symlink, once there, stays: links checked before may resolve through it
      // (a link replaced by a file, then the file by another link, would change their meaning).
      const replace = (): void => {
        if (existing?.isDirectory()) throw new UnsafeArchiveError(`${label}: entry ${shown} would replace a directory`);
        if (existing?.isSymbolicLink()) {
          throw new UnsafeArchiveError(`${label}: entry ${shown} would replace a symlink extracted before it; links are never replaced`);
        }
        if (existing) unlinkSync(target);
      };
      switch (entry.type) {
        case 'Directory': {
          if (existing?.isSymbolicLink()) throw new UnsafeArchiveError(`${label}: directory ${shown} is a symlink already`);
          if (!existing) {
            budget.charge(chargedBytes(0), `${label}: directory ${shown}`);
            mkdirSync(target, { mode: ((entry.mode ?? 0o755) & 0o1777) | 0o700 });
          } else if (!existing.isDirectory()) throw new UnsafeArchiveError(`${label}: directory ${shown} is a file already`);
          entry.resume();
          return;
        }
        case 'File':
        case 'OldFile':
        case 'ContiguousFile': {
          // Charged in full before a byte is written: the declared size bounds the data that
          // the parser hands over for this entry.
          budget.charge(chargedBytes(entry.size ?? 0), `${label}: file ${shown}`);
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
            if (failure) return close();
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
          const what = `${label}: symlink ${shown}`;
          checkLinkTarget(root, [...baseParts, ...parts.slice(0, -1)], link, what);
          budget.charge(chargedBytes(0), what);
          replace();
          symlinkSync(link, target);
          entry.resume();
          return;
        }
        case 'Link': {
          const linkParts = safeComponents(entry.linkpath ?? '', `${label}: hard link ${shown} target`);
          const bad = `${label}: hard link ${shown} -> ${entry.linkpath}`;
          if (linkParts.length === 0) throw new UnsafeArchiveError(`${label}: hard link ${shown} has no target`);
          // Looked up without creating or following anything: real directories only, then a file.
          let src = base;
          for (const [i, p] of linkParts.entries()) {
            src = join(src, p);
            const st = lstatOrUndefined(src);
            const last = i === linkParts.length - 1;
            if (!last && st?.isSymbolicLink()) throw new UnsafeArchiveError(`${bad} goes through a symlink; refused`);
            if (last ? !st?.isFile() : !st?.isDirectory()) {
              throw new UnsafeArchiveError(`${bad} does not name a file extracted before it`);
            }
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
    if (startsWith(head, ZSTD_MAGIC)) {
      fail(new PackageError(`${label}: zstd archives are not supported; packages are gzip tar`));
      return;
    }
    file.on('error', (err) => fail(new PackageError(`${label}: cannot read the archive: ${err.message}`)));
    gunzip?.on('error', (err) => fail(new PackageError(`${label}: not a valid gzip stream: ${err.message}`)));
    input.on('data', (chunk: Buffer) => {
      if (failure) return;
      if (gunzip && tarBytes === 0 && (startsWith(chunk, GZIP_MAGIC) || startsWith(chunk, ZSTD_MAGIC))) {
        fail(new UnsafeArchiveError(`${label}: the archive is compressed twice; refused`));
        return;
      }
      tarBytes += chunk.length;
      if (tarBytes > maxTarBytes) {
        fail(new DiskLimitError(`${label}: the archive expands to more than ${formatBytes(maxTarBytes)} of tar data, ` +
          `far more than the job's disk resource of ${formatBytes(budget.limit)} allows; extraction stopped`));
        return;
      }
      parser.write(chunk);
    });
    input.on('end', () => {
      if (!failure) parser.end();
    });
  });
}
