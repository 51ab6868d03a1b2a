/**
 * Tar archives in the browser: the console packs an app directory the way `platform app
 * deploy` does (a gzip tar of the directory's files, paths relative to it), and lists the
 * files of an archive a user uploads as is (to detect its runtime).
 *
 * Written as POSIX ustar; a path too long for the header gets a pax extended header. Read:
 * ustar, pax (`path`) and GNU long names.
 */

export interface TarEntry {
  /** Relative, `/`-separated; directories without a trailing slash. */
  path: string;
  type: 'file' | 'dir';
  /** File contents (files only). */
  data?: Blob | Uint8Array;
  /** Permission bits; 0o644 for files and 0o755 for directories by default. */
  mode?: number;
  /** UNIX seconds. */
  mtime?: number;
}

const encoder = new TextEncoder();
const BLOCK = 512;

function octal(value: number, width: number): string {
  return `${value.toString(8).padStart(width - 1, '0')}\0`;
}

function header(name: string, prefix: string, o: { size: number; mode: number; mtime: number; type: string }): Uint8Array<ArrayBuffer> {
  const h = new Uint8Array(BLOCK);
  const put = (text: string, at: number, width: number) => h.set(encoder.encode(text).subarray(0, width), at);
  put(name, 0, 100);
  put(octal(o.mode, 8), 100, 8);
  put(octal(0, 8), 108, 8);
  put(octal(0, 8), 116, 8);
  put(octal(o.size, 12), 124, 12);
  put(octal(o.mtime, 12), 136, 12);
  put('        ', 148, 8);
  put(o.type, 156, 1);
  put('ustar\u000000', 257, 8);
  put('root', 265, 32);
  put('root', 297, 32);
  put(prefix, 345, 155);
  let sum = 0;
  for (const b of h) sum += b;
  put(`${sum.toString(8).padStart(6, '0')}\0 `, 148, 8);
  return h;
}

/** name and prefix fields for `path`, or undefined when it needs a pax header. */
function splitPath(path: string): { name: string; prefix: string } | undefined {
  const bytes = encoder.encode(path).length;
  if (bytes <= 100) return { name: path, prefix: '' };
  for (let i = path.indexOf('/'); i >= 0; i = path.indexOf('/', i + 1)) {
    const prefix = path.slice(0, i);
    const name = path.slice(i + 1);
    if (encoder.encode(prefix).length <= 155 && encoder.encode(name).length <= 100 && name !== '') return { name, prefix };
  }
  return undefined;
}

function paxRecord(key: string, value: string): string {
  const body = ` ${key}=${value}\n`;
  let length = encoder.encode(body).length;
  length += String(length).length;
  if (String(length).length !== String(length - String(length).length).length) length++;
  return `${length}${body}`;
}

function padding(size: number): Uint8Array<ArrayBuffer> {
  return new Uint8Array((BLOCK - (size % BLOCK)) % BLOCK);
}

/** The parts of a tar archive of `entries`, in their order, for a Blob. */
export function tarParts(entries: readonly TarEntry[]): BlobPart[] {
  const parts: BlobPart[] = [];
  for (const e of entries) {
    const path = e.type === 'dir' ? `${e.path.replace(/\/+$/, '')}/` : e.path;
    const size = e.type === 'file' ? (e.data instanceof Blob ? e.data.size : (e.data?.length ?? 0)) : 0;
    const mode = e.mode ?? (e.type === 'dir' ? 0o755 : 0o644);
    const mtime = Math.floor(e.mtime ?? 0);
    let split = splitPath(path);
    if (!split) {
      const pax = encoder.encode(paxRecord('path', path)) as Uint8Array<ArrayBuffer>;
      parts.push(header('PaxHeader', '', { size: pax.length, mode: 0o644, mtime, type: 'x' }), pax, padding(pax.length));
      split = { name: path.slice(-100).replace(/^[^/]*\//, ''), prefix: '' };
    }
    parts.push(header(split.name, split.prefix, { size, mode, mtime, type: e.type === 'dir' ? '5' : '0' }));
    if (e.type === 'file' && e.data) parts.push(e.data as BlobPart, padding(size));
  }
  parts.push(new Uint8Array(BLOCK * 2));
  return parts;
}

/** The gzip-compressed tar archive of `entries`. */
export async function tarGz(entries: readonly TarEntry[]): Promise<Uint8Array> {
  const stream = new Blob(tarParts(entries)).stream().pipeThrough(new CompressionStream('gzip'));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

/** The file paths of a tar archive (`./` removed), at most `limit` of them. */
export function tarPaths(tar: Uint8Array, limit = 100_000): { path: string; type: 'file' | 'dir' | 'other' }[] {
  const decoder = new TextDecoder();
  const text = (at: number, width: number) => {
    const bytes = tar.subarray(at, at + width);
    const end = bytes.indexOf(0);
    return decoder.decode(end >= 0 ? bytes.subarray(0, end) : bytes);
  };
  const paths: { path: string; type: 'file' | 'dir' | 'other' }[] = [];
  let longName: string | undefined;
  for (let at = 0; at + BLOCK <= tar.length && paths.length < limit; ) {
    const start = at;
    if (tar.subarray(start, start + BLOCK).every((b) => b === 0)) break;
    const size = parseInt(text(start + 124, 12).trim() || '0', 8);
    const type = text(start + 156, 1) || '0';
    const body = tar.subarray(start + BLOCK, start + BLOCK + size);
    at = start + BLOCK + Math.ceil(size / BLOCK) * BLOCK;
    if (type === 'x') {
      const m = /(?:^|\n)\d+ path=([^\n]*)\n/.exec(decoder.decode(body));
      if (m) longName = m[1];
      continue;
    }
    if (type === 'L') {
      longName = decoder.decode(body).replace(/\0+$/, '');
      continue;
    }
    if (type === 'g') continue;
    // POSIX ustar (magic "ustar\0") has a prefix field; old GNU headers ("ustar  ") use the space otherwise.
    const prefix = text(start + 257, 6) === 'ustar' ? text(start + 345, 155) : '';
    const name = longName ?? (prefix ? `${prefix}/${text(start, 100)}` : text(start, 100));
    longName = undefined;
    const path = name.replace(/^(\.\/)+/, '').replace(/\/+$/, '');
    if (path === '' || path === '.') continue;
    paths.push({ path, type: type === '0' ? 'file' : type === '5' ? 'dir' : 'other' });
  }
  return paths;
}

/** Unpacks a gzip archive's bytes. */
export async function gunzip(data: Blob | Uint8Array): Promise<Uint8Array> {
  const blob = data instanceof Blob ? data : new Blob([data as BlobPart]);
  return new Uint8Array(await new Response(blob.stream().pipeThrough(new DecompressionStream('gzip'))).arrayBuffer());
}
