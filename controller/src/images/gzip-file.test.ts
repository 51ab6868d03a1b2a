import test from 'ava';
import { execFileSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { GzipFileWriter } from './gzip-file.js';

function tempDir(t: { teardown: (f: () => void) => void }): string {
  const dir = mkdtempSync(join(tmpdir(), 'gzip-file-test-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** Writes `data` in pieces of the given sizes, round robin, until it is all written. */
async function writeInPieces(w: GzipFileWriter, data: Buffer, sizes: number[]): Promise<void> {
  for (let at = 0, i = 0; at < data.length; i++) {
    const n = Math.min(sizes[i % sizes.length]!, data.length - at);
    await w.write(data.subarray(at, at + n));
    at += n;
  }
}

test('gzip file: stored and Huffman sections in any order make one gzip member that gunzip and gzip -t read back byte for byte', async (t) => {
  const dir = tempDir(t);
  const file = join(dir, 'out.gz');
  const random = randomBytes(3 * 1024 * 1024 + 11);
  const text = Buffer.from('the quick brown fox jumps over the lazy dog\n'.repeat(60_000));
  const tail = randomBytes(70_000);
  const handle = await open(file, 'w');
  const w = new GzipFileWriter(handle);
  // Pieces crossing stored-block (65535) and batch (1 MiB) boundaries, tiny ones among them.
  await writeInPieces(w, random, [512, 65_535, 1, 300_000, 1024 * 1024 + 3]);
  await w.section('huffman');
  await writeInPieces(w, text, [512, 200_000, 7]);
  await w.section('stored');
  await writeInPieces(w, tail, [65_536]);
  await w.section('huffman'); // a section with nothing in it
  await w.section('stored');
  const { length, digest } = await w.finish();
  await handle.close();
  const bytes = readFileSync(file);
  t.is(length, bytes.length);
  t.is(digest, `sha256:${createHash('sha256').update(bytes).digest('hex')}`);
  t.true(gunzipSync(bytes).equals(Buffer.concat([random, text, tail])));
  execFileSync('gzip', ['-t', file]); // an independent decoder; throws on a bad CRC or stream
  // Stored sections cost their framing only; the text was compressed.
  const storedMax = random.length + tail.length + 5 * Math.ceil((random.length + tail.length) / 65_535) + 64;
  t.true(length < storedMax + text.length * 0.75, `${length} bytes`);
  t.true(length > random.length + tail.length, `${length} bytes`);
});

test('gzip file: nothing written is a valid empty gzip file', async (t) => {
  const file = join(tempDir(t), 'empty.gz');
  const handle = await open(file, 'w');
  const { length } = await new GzipFileWriter(handle).finish();
  await handle.close();
  t.is(length, readFileSync(file).length);
  t.is(gunzipSync(readFileSync(file)).length, 0);
});

test('gzip file: a write the file refuses fails the writer', async (t) => {
  const file = join(tempDir(t), 'ro.gz');
  await (await open(file, 'w')).close();
  const handle = await open(file, 'r'); // not writable: every write fails with EBADF
  t.teardown(() => handle.close());
  const w = new GzipFileWriter(handle);
  const error = await t.throwsAsync(async () => {
    await writeInPieces(w, randomBytes(6 * 1024 * 1024), [256 * 1024]);
    await w.finish();
  });
  t.is((error as NodeJS.ErrnoException).code, 'EBADF');
});

test('gzip file: a durable file, written back to disk as it is made, has the same bytes', async (t) => {
  const dir = tempDir(t);
  const data = randomBytes(40 * 1024 * 1024 + 5); // past the write-back interval twice
  const written: Buffer[] = [];
  for (const [name, durable] of [['plain.gz', false], ['durable.gz', true]] as const) {
    const handle = await open(join(dir, name), 'w');
    const w = new GzipFileWriter(handle, { durable });
    await writeInPieces(w, data, [1024 * 1024 + 1]);
    await w.finish();
    await handle.close();
    written.push(readFileSync(join(dir, name)));
  }
  t.true(written[0]!.equals(written[1]!));
  t.true(gunzipSync(written[1]!).equals(data));
});

test('gzip file: hashed on the hashing thread (given its path), the digest is the same; the caller may reuse a chunk once written', async (t) => {
  const dir = tempDir(t);
  const random = randomBytes(9 * 1024 * 1024 + 3); // past the hashing thread's interval twice
  const text = Buffer.from('the quick brown fox jumps over the lazy dog\n'.repeat(60_000));
  const file = join(dir, 'followed.gz');
  const handle = await open(file, 'w');
  const w = new GzipFileWriter(handle, { path: file });
  // One buffer for every piece, overwritten as soon as each write resolved.
  const piece = Buffer.alloc(300_000);
  for (const data of [random, text]) {
    for (let at = 0; at < data.length; at += piece.length) {
      const n = data.copy(piece, 0, at, at + piece.length);
      await w.write(piece.subarray(0, n));
      piece.fill(0xee);
    }
    await w.section('huffman');
  }
  const { length, digest } = await w.finish();
  await handle.close();
  const bytes = readFileSync(file);
  t.is(length, bytes.length);
  t.is(digest, `sha256:${createHash('sha256').update(bytes).digest('hex')}`);
  t.true(gunzipSync(bytes).equals(Buffer.concat([random, text])));
});
