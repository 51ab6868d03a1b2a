/**
 * Packs an app directory into a gzip tar archive in a temporary file, honouring the
 * directory's `.platformignore` (gitignore syntax, through the `ignore` package), and
 * computes the archive's length and sha256 while it is written: one pass, nothing held in
 * memory. `.git/` and the ignore file itself never go in.
 */
import { createHash } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative, sep } from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import ignore from 'ignore';
import { create as createTar } from 'tar';
import { CommandError } from '../config.js';

export const IGNORE_FILE = '.platformignore';
const ALWAYS_IGNORED = ['.git/', IGNORE_FILE];

export interface PackedArchive {
  path: string;
  length: number;
  /** `sha256:<hex>` */
  digest: string;
  files: number;
  /** Removes the temporary file. */
  dispose(): Promise<void>;
}

/** The filter of `dir`: true for a path (relative, `/`-separated) that goes into the archive. */
export async function ignoreFilter(dir: string): Promise<(rel: string, isDir: boolean) => boolean> {
  const ig = ignore().add(ALWAYS_IGNORED);
  try {
    ig.add(await readFile(join(dir, IGNORE_FILE), 'utf8'));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
  return (rel, isDir) => rel === '' || !ig.ignores(isDir ? `${rel}/` : rel);
}

/** `prefix` puts every entry under a directory (`app`: `/app/...` in the instance, for packages nobody stages). */
export async function packDirectory(dir: string, prefix?: string): Promise<PackedArchive> {
  const info = await stat(dir).catch(() => undefined);
  if (!info?.isDirectory()) throw new CommandError(`${dir} is not a directory`);
  const keep = await ignoreFilter(dir);
  const work = await mkdtemp(join(tmpdir(), 'platform-deploy-'));
  const path = join(work, 'app.tar.gz');
  const hash = createHash('sha256');
  let length = 0;
  let files = 0;
  const count = new Transform({
    transform(chunk: Buffer, _enc, done) {
      hash.update(chunk);
      length += chunk.length;
      done(null, chunk);
    },
  });
  try {
    const tar = createTar(
      {
        gzip: true,
        cwd: dir,
        portable: true,
        ...(prefix ? { prefix } : {}),
        filter: (p, st) => {
          const rel = relative('.', p).split(sep).join('/');
          const ok = keep(rel, 'isDirectory' in st && st.isDirectory());
          if (ok && 'isFile' in st && st.isFile()) files++;
          return ok;
        },
      },
      ['.'],
    );
    await pipeline(tar, count, createWriteStream(path, { mode: 0o600 }));
  } catch (err) {
    await rm(work, { recursive: true, force: true });
    throw err;
  }
  return { path, length, digest: `sha256:${hash.digest('hex')}`, files, dispose: () => rm(work, { recursive: true, force: true }) };
}
