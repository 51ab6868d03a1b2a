/**
 * Archives as stagers handle them: a gzip tar whose paths are full paths of
 * the instance (`/app/index.js`), extracted under a working root directory
 * (`<root>/app/index.js`) and packed back from it.
 */
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir, readdir, stat } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import * as tar from 'tar';

/** Extracts a gzip tar stream under `root`. Leading `/` is stripped; entries with `..` or links out of `root` are skipped by tar. */
export async function extractArchive(source: Readable, root: string): Promise<void> {
  await mkdir(root, { recursive: true });
  await pipeline(source, tar.x({ cwd: root, preserveOwner: false, onwarn: () => undefined }));
}

/** Packs everything under `root` into gzip tar `file`, with full paths (`/app/...`). */
export async function packDirectory(root: string, file: string): Promise<void> {
  const entries = (await readdir(root)).sort();
  await tar.c({ gzip: true, cwd: root, file, prefix: '/', portable: true }, entries);
}

/** SHA-256 (hex) and length of a file. */
export async function hashFile(file: string): Promise<{ sha256: string; length: number }> {
  const hash = createHash('sha256');
  await pipeline(createReadStream(file), hash);
  return { sha256: hash.digest('hex'), length: (await stat(file)).size };
}
