/**
 * The files the platform gives an instance (InstanceSpec.files: its secrets as files, its app
 * token), kept in `<instance dir>/platform`: a directory of the agent's, outside the instance
 * root, that the instance reads and cannot change. bwrap binds it read-only at /run/platform;
 * with the process driver the instance reads it at its host path. Either way the process finds
 * it in PLATFORM_FILES (and its token in PLATFORM_TOKEN_FILE when it has one).
 *
 * The directory and its subdirectories belong to the agent (0711: the instance's uid may open
 * the names it knows, not list them); each file belongs to the instance's uid, mode 0400. A file
 * is written to a fresh temporary name in the same directory (created exclusively: nobody else
 * can create names there) and renamed over the old one, so that a reader sees the old content
 * or the new one, never half of either, and the instance cannot steer the agent's write
 * anywhere (it can neither plant a link in the directory nor swap it).
 */
import { chmodSync, chownSync, closeSync, constants, fsyncSync, mkdirSync, openSync, renameSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';

/** The directory's path inside a bwrap sandbox. */
export const PLATFORM_FILES_MOUNT = '/run/platform';
/** The app token's name among the files. */
export const TOKEN_FILE = 'token';

const SEGMENT = /^[A-Za-z0-9_][A-Za-z0-9_.-]{0,254}$/;
const MAX_FILES = 256;
const MAX_BYTES = 4 * 1024 * 1024;

/** A file as the spec (and instance.json) holds it: content as base64. */
export interface PlatformFilePlan {
  name: string;
  content: string;
}

/** Checks the names and sizes of the files of a spec; throws with the reason. */
export function checkPlatformFiles(files: readonly { name: string; content: Uint8Array }[]): PlatformFilePlan[] {
  if (files.length > MAX_FILES) throw new Error(`${files.length} platform files, more than ${MAX_FILES}`);
  let bytes = 0;
  const seen = new Set<string>();
  return files.map((f) => {
    const parts = f.name.split('/');
    if (parts.length > 4 || parts.some((p) => !SEGMENT.test(p))) throw new Error(`platform file name "${f.name}" is not 1 to 4 segments of letters, digits, "_", "." and "-"`);
    if (seen.has(f.name)) throw new Error(`platform file "${f.name}" is given twice`);
    seen.add(f.name);
    bytes += f.content.length;
    if (bytes > MAX_BYTES) throw new Error(`platform files over ${MAX_BYTES} bytes`);
    return { name: f.name, content: Buffer.from(f.content).toString('base64') };
  });
}

/** `<instance dir>/platform`. */
export function platformFilesDir(instanceDir: string): string {
  return join(instanceDir, 'platform');
}

/**
 * Writes `files` into `dir` (made when missing), each replaced at once, owned by `owner` (the
 * instance's host uid and gid; undefined: the agent's own user).
 */
export function writePlatformFiles(dir: string, files: readonly PlatformFilePlan[], owner: { uid: number; gid: number } | undefined): void {
  mkdirSync(dir, { recursive: true, mode: 0o711 });
  chmodSync(dir, 0o711);
  for (const f of files) {
    const parts = f.name.split('/');
    let parent = dir;
    for (const p of parts.slice(0, -1)) {
      parent = join(parent, p);
      mkdirSync(parent, { mode: 0o711, recursive: true });
    }
    const target = join(parent, parts[parts.length - 1]!);
    const tmp = `${target}.${process.pid}.tmp`;
    rmSync(tmp, { force: true });
    const fd = openSync(tmp, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, 0o400);
    try {
      const data = Buffer.from(f.content, 'base64');
      let off = 0;
      while (off < data.length) off += writeSync(fd, data, off);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    if (owner) chownSync(tmp, owner.uid, owner.gid);
    chmodSync(tmp, 0o400);
    renameSync(tmp, target);
  }
}
