/** Test support: builds (possibly malicious) gzip tar archives entry by entry. */
import { gzipSync } from 'node:zlib';
import { createHash } from 'node:crypto';
import { Header } from 'tar';

export interface TarEntry {
  path: string;
  type?: 'File' | 'Directory' | 'SymbolicLink' | 'Link' | 'CharacterDevice' | 'BlockDevice' | 'FIFO';
  body?: string | Buffer;
  linkpath?: string;
  mode?: number;
}

export function makeTarGz(entries: readonly TarEntry[]): Buffer {
  const blocks: Buffer[] = [];
  for (const e of entries) {
    const type = e.type ?? 'File';
    const body = e.body === undefined ? Buffer.alloc(0) : Buffer.from(e.body);
    const h = new Header({
      path: e.path,
      type,
      mode: e.mode ?? (type === 'Directory' ? 0o755 : 0o644),
      size: type === 'File' ? body.length : 0,
      mtime: new Date(0),
      uid: 0,
      gid: 0,
      ...(e.linkpath !== undefined ? { linkpath: e.linkpath } : {}),
    });
    const block = Buffer.alloc(512);
    h.encode(block, 0);
    blocks.push(block);
    if (type === 'File' && body.length) {
      blocks.push(body, Buffer.alloc((512 - (body.length % 512)) % 512));
    }
  }
  blocks.push(Buffer.alloc(1024));
  return gzipSync(Buffer.concat(blocks));
}

export function sha256Digest(data: Buffer): string {
  return `sha256:${createHash('sha256').update(data).digest('hex')}`;
}
