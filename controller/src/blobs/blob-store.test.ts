import { createHash, randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import test from 'ava';
import { InvalidRequestError } from '../errors.js';
import { BlobStore } from './blob-store.js';
import { parseDigest } from '../model/digest.js';

async function makeStore() {
  const root = await mkdtemp(join(tmpdir(), 'blobs-'));
  const store = new BlobStore(root, { sync: true });
  await store.init();
  return { store, root, cleanup: () => rm(root, { recursive: true, force: true }) };
}

/** A source that yields `data` in small chunks, as a network upload would. */
function chunked(data: Buffer, size = 1000): Readable {
  const parts: Buffer[] = [];
  for (let i = 0; i < data.length; i += size) parts.push(data.subarray(i, i + size));
  return Readable.from(parts);
}

const digestOf = (data: Buffer, algorithm: 'sha1' | 'sha256' | 'sha512' = 'sha256') =>
  parseDigest(`${algorithm}:${createHash(algorithm).update(data).digest('hex')}`, 'digest');

test('blob store: stores an archive under its digest, for each algorithm', async (t) => {
  const { store, cleanup } = await makeStore();
  for (const algorithm of ['sha1', 'sha256', 'sha512'] as const) {
    const data = randomBytes(10_000);
    const digest = digestOf(data, algorithm);
    await store.ingest(chunked(data), { length: data.length, digest });
    t.deepEqual(await readFile(store.pathOf(digest)), data);
  }
  await cleanup();
});

test('blob store: refuses too long, too short and wrong-digest archives and leaves nothing behind', async (t) => {
  const { store, root, cleanup } = await makeStore();
  const data = randomBytes(5000);
  const digest = digestOf(data);
  const tooLong = await t.throwsAsync(store.ingest(chunked(Buffer.concat([data, Buffer.from('x')])), { length: data.length, digest }), {
    instanceOf: InvalidRequestError,
  });
  t.regex(tooLong.message, /longer than the 5000 bytes/);
  const tooShort = await t.throwsAsync(store.ingest(chunked(data.subarray(1)), { length: data.length, digest }), {
    instanceOf: InvalidRequestError,
  });
  t.regex(tooShort.message, /4999 bytes, but 5000/);
  const other = randomBytes(5000);
  const wrong = await t.throwsAsync(store.ingest(chunked(other), { length: other.length, digest }), {
    instanceOf: InvalidRequestError,
  });
  t.regex(wrong.message, /digest mismatch/);
  t.deepEqual(await readdir(join(root, 'tmp')), []);
  t.deepEqual(await readdir(join(root, 'sha256')), []);
  t.is(await store.open(digest), undefined);
  await cleanup();
});

test('blob store: lists and removes blobs', async (t) => {
  const { store, cleanup } = await makeStore();
  const data = randomBytes(100);
  const digest = digestOf(data);
  await store.ingest(chunked(data), { length: data.length, digest });
  const listed = [];
  for await (const d of store.list()) listed.push(d);
  t.deepEqual(listed, [digest]);
  const opened = await store.open(digest);
  t.is(opened?.size, 100);
  opened?.stream.destroy();
  await store.remove(digest);
  t.is(await store.open(digest), undefined);
  await cleanup();
});

test('blob store: adopts a file the controller made by moving it, after checking its length', async (t) => {
  const { store, root, cleanup } = await makeStore();
  t.teardown(cleanup);
  const data = randomBytes(5_000);
  const file = join(root, 'made.tar.gz');
  await writeFile(file, data);
  await t.throwsAsync(store.adopt(file, { length: data.length + 1, digest: digestOf(data) }), { instanceOf: InvalidRequestError });
  await store.adopt(file, { length: data.length, digest: digestOf(data) });
  t.deepEqual(await readFile(store.pathOf(digestOf(data))), data);
  await t.throwsAsync(readFile(file), { code: 'ENOENT' });
});

/** Waits until `dir` is empty (a copy is removed in the background), failing after 10 s. */
async function emptied(dir: string): Promise<string[]> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const left = await readdir(dir);
    if (left.length === 0 || Date.now() > deadline) return left;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

test('blob store: an archive stored already is kept, and the new copy of it removed', async (t) => {
  const { store, root, cleanup } = await makeStore();
  t.teardown(cleanup);
  const data = randomBytes(5_000);
  const digest = digestOf(data);
  await store.ingest(chunked(data), { length: data.length, digest });
  const stored = await stat(store.pathOf(digest));
  t.true(await store.has({ length: data.length, digest }));
  t.false(await store.has({ length: data.length + 1, digest }));
  // An upload of the same bytes, then a file made by the controller with the same bytes.
  await store.ingest(chunked(data), { length: data.length, digest });
  const made = join(root, 'made');
  await mkdir(made);
  await writeFile(join(made, 'same.tar.gz'), data);
  await store.adopt(join(made, 'same.tar.gz'), { length: data.length, digest });
  const after = await stat(store.pathOf(digest));
  t.is(after.ino, stored.ino, 'the stored file is the one kept');
  t.deepEqual(await readFile(store.pathOf(digest)), data);
  t.deepEqual(await emptied(join(root, 'tmp')), []);
  t.deepEqual(await emptied(made), []);
  // A wrong copy of a stored digest is still refused.
  await t.throwsAsync(store.ingest(chunked(randomBytes(5_000)), { length: data.length, digest }), { instanceOf: InvalidRequestError, message: /digest mismatch/ });
  // Without sync, a file of the right length may hold other bytes after a crash: a new copy replaces it.
  const unsynced = new BlobStore(root, { sync: false });
  await writeFile(store.pathOf(digest), Buffer.alloc(data.length));
  await unsynced.ingest(chunked(data), { length: data.length, digest });
  t.deepEqual(await readFile(store.pathOf(digest)), data);
});
