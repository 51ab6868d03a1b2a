/**
 * POST /snapshot: the files a stager changed (a gzip tar from its launcher)
 * are laid over the run's current archive, and the result becomes the run's
 * output. Done on disk in a temporary directory, never whole in memory; tar
 * refuses entries that would land outside the directory.
 */
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir, mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import * as tar from 'tar';

export class EmptySnapshotError extends Error {
  override readonly name = 'EmptySnapshotError';
}

export interface MergedArchive {
  file: string;
  length: number;
  sha256: string;
  /** Removes the temporary files. */
  dispose: () => Promise<void>;
}

/**
 * `base` (absent: nothing) with `changes` laid over it, as a gzip tar with full paths
 * (`/app/...`). Rejects with EmptySnapshotError when the result holds no file.
 */
export async function mergeSnapshot(base: Readable | undefined, changes: Readable, tmpRoot: string): Promise<MergedArchive> {
  await mkdir(tmpRoot, { recursive: true });
  const dir = await mkdtemp(join(tmpRoot, 'snapshot-'));
  const dispose = () => rm(dir, { recursive: true, force: true });
  try {
    const root = join(dir, 'root');
    await mkdir(root);
    const extract = () => tar.x({ cwd: root, preserveOwner: false, onwarn: () => undefined });
    if (base) await pipeline(base, extract());
    await pipeline(changes, extract());
    const file = join(dir, 'merged.tgz');
    const entries = (await readdir(root)).sort();
    if (entries.length === 0) throw new EmptySnapshotError('the snapshot holds no file');
    await tar.c({ gzip: true, cwd: root, file, prefix: '/', portable: true }, entries);
    const hash = createHash('sha256');
    await pipeline(createReadStream(file), hash);
    return { file, length: (await stat(file)).size, sha256: hash.digest('hex'), dispose };
  } catch (err) {
    await dispose();
    throw err;
  }
}
