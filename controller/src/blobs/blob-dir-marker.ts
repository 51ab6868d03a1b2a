/**
 * Whether this controller's blob directory is the one the cluster's other controllers use.
 * Controllers on one etcd must share their blob directory (PLATFORM_BLOB_DIR, a mount all of
 * them reach): an archive one of them took is read by whichever leads later. Nothing in a
 * directory says which mount it is, so the cluster keeps a random marker in etcd
 * (`meta/blob-dir-marker`) and the same marker in a file of the blob directory (MARKER_FILE):
 *
 * - The first controller to check makes the marker (or takes the file's, when the directory
 *   has one already) and records it in etcd if no other did meanwhile (put if absent).
 * - A controller whose directory holds the recorded marker shares it; one whose directory has
 *   another marker, or none while etcd has one, does not.
 *
 * An operator who moves the blobs to another mount copies the file with them.
 */
import { randomBytes } from 'node:crypto';
import { link, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

export const MARKER_FILE = 'cluster-marker';

/** Where the cluster keeps its marker (etcd's `meta/blob-dir-marker`). */
export interface MarkerRecord {
  get(): Promise<string | undefined>;
  /** Records `marker` unless one is recorded already; resolves with the one recorded now. */
  claim(marker: string): Promise<string>;
}

export interface BlobDirCheck {
  /** The directory holds the cluster's marker. */
  shared: boolean;
  /** The marker the cluster records. */
  expected: string;
  /** What the directory holds (none: no marker file). */
  found: string | undefined;
  /** The marker file's path. */
  file: string;
}

export async function checkBlobDir(dir: string, record: MarkerRecord, newMarker: () => string = () => randomBytes(16).toString('hex')): Promise<BlobDirCheck> {
  const file = join(dir, MARKER_FILE);
  let expected = await record.get();
  let found = await readMarker(file);
  if (expected === undefined) {
    // No controller checked yet: this directory's marker (made now if it has none) becomes the cluster's.
    found ??= await createMarker(dir, file, newMarker());
    expected = await record.claim(found);
  }
  return { shared: found === expected, expected, found, file };
}

async function readMarker(file: string): Promise<string | undefined> {
  try {
    const text = (await readFile(file, 'utf8')).trim();
    return text === '' ? undefined : text;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
}

/**
 * Writes `marker` to `file` unless the file exists: then its marker (another controller on the
 * same mount made it meanwhile). Written whole to a file of its own, then linked into place
 * (link fails if the name exists): a reader never sees half a marker.
 */
async function createMarker(dir: string, file: string, marker: string): Promise<string> {
  await mkdir(dir, { recursive: true });
  const tmp = `${file}.${randomBytes(6).toString('hex')}.tmp`;
  await writeFile(tmp, `${marker}\n`, { mode: 0o644 });
  try {
    await link(tmp, file);
    return marker;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    const theirs = await readMarker(file);
    if (theirs === undefined) throw new Error(`${file} is empty: remove it, or copy the cluster's marker into it`, { cause: err });
    return theirs;
  } finally {
    await rm(tmp, { force: true });
  }
}
