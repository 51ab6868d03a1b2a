import test from 'ava';
import { DestinationPolicy, parseAllowList } from '@platform/proto/common';
import { createHash, randomBytes } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { ImageError } from './flatten.js';
import { parseImageRef } from './image-ref.js';
import { LayerCache } from './layer-cache.js';
import { RegistryClient, type Descriptor } from './registry-client.js';

/** The rule of these tests' pulls: their registries and storage on loopback are listed. */
const destinations = new DestinationPolicy({ purpose: 'image pulls', setting: '--allowed-registries', allow: parseAllowList('127.0.0.1 localhost') });

const sha256 = (b: Buffer) => `sha256:${createHash('sha256').update(b).digest('hex')}`;

/** A tar of `files` (paths under a directory), made by the system's tar from files on disk. */
function tar(files: Record<string, Buffer>, ...args: string[]): Buffer {
  const dir = mkdtempSync(join(tmpdir(), 'layer-cache-tar-'));
  try {
    for (const [path, body] of Object.entries(files)) {
      mkdirSync(join(dir, dirname(path)), { recursive: true });
      writeFileSync(join(dir, path), body);
    }
    return execFileSync('tar', ['-c', '-C', dir, '--sort=name', '--owner=0', '--group=0', ...args, '.'], { maxBuffer: 1 << 30 });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** An HTTP server answering GET /v2/<name>/blobs/<digest> from `blobs`, counting requests. */
async function blobServer(t: { teardown: (f: () => Promise<void> | void) => void }, blobs: Map<string, Buffer>) {
  const requests: string[] = [];
  const server = createServer((req, res) => {
    requests.push(req.url ?? '');
    const digest = /\/blobs\/(sha256:[a-f0-9]+)$/.exec(req.url ?? '')?.[1];
    const body = digest ? blobs.get(digest) : undefined;
    if (!body) return res.writeHead(404).end();
    res.writeHead(200, { 'Content-Length': body.length });
    // In pieces, as a network delivers them.
    for (let at = 0; at < body.length; at += 40_000) res.write(body.subarray(at, at + 40_000));
    res.end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => new Promise<void>((resolve) => server.close(() => resolve())));
  const client = new RegistryClient(parseImageRef(`http://127.0.0.1:${(server.address() as AddressInfo).port}/team/app:v1`), { destinations });
  return { client, requests };
}

function cacheDir(t: { teardown: (f: () => void) => void }): string {
  const dir = mkdtempSync(join(tmpdir(), 'layer-cache-test-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

const descriptor = (blob: Buffer, size = blob.length): Descriptor => ({ mediaType: 'application/vnd.oci.image.layer.v1.tar+gzip', digest: sha256(blob), size });

test('layer cache: a gzip layer is kept as its tar, indexed while it downloads, and not downloaded again', async (t) => {
  const big = randomBytes(3 * 1024 * 1024);
  const layerTar = tar({ 'app/big': big, 'etc/.wh.gone': Buffer.alloc(0), 'var/.wh..wh..opq': Buffer.alloc(0) });
  const blob = gzipSync(layerTar);
  const { client, requests } = await blobServer(t, new Map([[sha256(blob), blob]]));
  const cache = new LayerCache(cacheDir(t), 1 << 30);
  await cache.clean();
  const d = descriptor(blob);
  let heard = 0;
  const got = await cache.get(client, d, async () => undefined, (n) => (heard += n));
  t.false(got.cached);
  t.is(heard, blob.length);
  t.true(readFileSync(got.layer.file).equals(layerTar));
  t.is(got.layer.blobSize, blob.length);
  t.deepEqual([...got.index!.defined.keys()].sort(), ['app', 'app/big', 'etc', 'var']);
  t.deepEqual(got.index!.whiteouts, ['etc/gone']);
  t.deepEqual(got.index!.opaques, ['var']);
  const again = await cache.get(client, d, async () => t.fail('downloaded again'), () => undefined);
  t.true(again.cached);
  t.is(again.layer.file, got.layer.file);
  t.is(requests.length, 1);
});

test('layer cache: a plain tar layer is kept as it is', async (t) => {
  const layerTar = tar({ 'a.txt': Buffer.from('a\n') });
  const { client } = await blobServer(t, new Map([[sha256(layerTar), layerTar]]));
  const cache = new LayerCache(cacheDir(t), 1 << 30);
  await cache.clean();
  const got = await cache.get(client, { ...descriptor(layerTar), mediaType: 'application/vnd.oci.image.layer.v1.tar' }, async () => undefined, () => undefined);
  t.true(readFileSync(got.layer.file).equals(layerTar));
  t.deepEqual([...got.index!.defined.keys()], ['a.txt']);
});

test('layer cache: a layer whose digest, size or content is wrong, or that decompresses past the limit, is refused and leaves nothing', async (t) => {
  const good = gzipSync(tar({ 'a.txt': Buffer.from('a\n') }));
  const other = gzipSync(tar({ 'b.txt': Buffer.from('b\n') }));
  const dotdot = gzipSync(tar({ evil: Buffer.from('x') }, '--transform', 's,^\\./evil$,app/../../etc/evil,'));
  const bomb = gzipSync(tar({ zeros: Buffer.alloc(8 * 1024 * 1024) }));
  const blobs = new Map([
    [sha256(good), other], // served bytes differ from the digest
    [sha256(dotdot), dotdot],
    [sha256(bomb), bomb],
    [sha256(other), other],
  ]);
  const { client } = await blobServer(t, blobs);
  const dir = cacheDir(t);
  const cache = new LayerCache(dir, 1024 * 1024);
  await cache.clean();
  const cases: [Descriptor, RegExp][] = [
    [descriptor(good, other.length), /does not match its digest/],
    [descriptor(other, other.length - 1), /longer than the/],
    [descriptor(other, other.length + 1), /has \d+ bytes, its manifest gives/],
    [descriptor(dotdot), /has a "\.\." component/],
    [descriptor(bomb), /over 1048576 bytes decompressed/],
  ];
  for (const [d, message] of cases) {
    const error = await t.throwsAsync(cache.get(client, d, async () => undefined, () => undefined), { instanceOf: ImageError });
    t.regex(error!.message, message);
  }
  t.deepEqual(readdirSync(dir), []);
});

test('layer cache: a blob redirected to storage elsewhere is followed, without the registry credentials', async (t) => {
  const layerTar = tar({ 'a.txt': Buffer.from('a\n') });
  const blob = gzipSync(layerTar);
  const seen: { url: string; authorization?: string }[] = [];
  const storage = createServer((req, res) => {
    seen.push({ url: req.url ?? '', ...(req.headers.authorization ? { authorization: req.headers.authorization } : {}) });
    res.writeHead(200, { 'Content-Length': blob.length }).end(blob);
  });
  await new Promise<void>((resolve) => storage.listen(0, '127.0.0.1', resolve));
  t.teardown(() => new Promise<void>((resolve) => storage.close(() => resolve())));
  const basic = `Basic ${Buffer.from('user:secret').toString('base64')}`;
  const registry = createServer((req, res) => {
    if (req.headers.authorization !== basic) return res.writeHead(401, { 'WWW-Authenticate': 'Basic realm="test"' }).end();
    res.writeHead(307, { Location: `http://localhost:${(storage.address() as AddressInfo).port}/store/blob?sig=1` }).end();
  });
  await new Promise<void>((resolve) => registry.listen(0, '127.0.0.1', resolve));
  t.teardown(() => new Promise<void>((resolve) => registry.close(() => resolve())));
  const client = new RegistryClient(parseImageRef(`http://user:secret@127.0.0.1:${(registry.address() as AddressInfo).port}/team/app:v1`), { destinations });
  const cache = new LayerCache(cacheDir(t), 1 << 30);
  await cache.clean();
  const got = await cache.get(client, descriptor(blob), async () => undefined, () => undefined);
  t.true(readFileSync(got.layer.file).equals(layerTar));
  t.deepEqual(seen, [{ url: '/store/blob?sig=1' }]);
});

test('layer cache: trim removes the layers used least recently past the budget, never a pinned one; a hit renews a layer', async (t) => {
  const dir = cacheDir(t);
  mkdirSync(dir, { recursive: true });
  const digest = (c: string) => `sha256:${c.repeat(64)}`;
  const cache = new LayerCache(dir, 1 << 30, 250);
  // Four layers of 100 bytes, used in the order a, b, c, d (a longest ago).
  ['a', 'b', 'c', 'd'].forEach((c, i) => {
    const file = cache.fileOf(digest(c));
    writeFileSync(file, Buffer.alloc(100, c));
    const when = new Date(Date.now() - (10 - i) * 60_000);
    utimesSync(file, when, when);
  });
  writeFileSync(join(dir, '.tmp-1-1'), Buffer.alloc(1000)); // a download under way is not the cache's to trim
  const unpin = cache.pin([digest('a')]);
  const first = await cache.trim();
  t.deepEqual(first, { removed: 2, bytes: 200, kept: 200 }, 'b and c went (a is pinned), down to the budget');
  t.deepEqual(readdirSync(dir).sort(), ['.tmp-1-1', cache.fileOf(digest('a')).split('/').pop()!, cache.fileOf(digest('d')).split('/').pop()!].sort());
  unpin();
  unpin(); // a second call changes nothing
  t.deepEqual(await cache.trim(), { removed: 0, bytes: 0, kept: 200 }, 'within the budget: nothing goes');
  const small = new LayerCache(dir, 1 << 30, 150);
  t.like(await small.trim(), { removed: 1, kept: 100 });
  t.true(existsSync(cache.fileOf(digest('d'))), 'the older of the two (a) went first once unpinned');

  // A hit through get() renews the layer: it outlives one used after it was written but before the hit.
  const layerA = tar({ 'x/one': Buffer.from('one') });
  const layerB = tar({ 'x/two': Buffer.from('two') });
  const blobs = new Map([[sha256(layerA), layerA], [sha256(layerB), layerB]]);
  const { client, requests } = await blobServer(t, blobs);
  const other = cacheDir(t);
  const lru = new LayerCache(other, 1 << 30, layerA.length + layerB.length - 1);
  const noop = async () => undefined;
  const dA = descriptor(layerA);
  const dB = descriptor(layerB);
  await lru.get(client, dA, noop, () => undefined);
  await lru.get(client, dB, noop, () => undefined);
  const past = new Date(Date.now() - 60_000);
  utimesSync(lru.fileOf(dA.digest), past, past);
  utimesSync(lru.fileOf(dB.digest), new Date(Date.now() - 30_000), new Date(Date.now() - 30_000));
  t.true((await lru.get(client, dA, noop, () => undefined)).cached);
  t.like(await lru.trim(), { removed: 1 });
  t.true(existsSync(lru.fileOf(dA.digest)), 'the layer just used stays');
  t.false(existsSync(lru.fileOf(dB.digest)));
  t.is(requests.length, 2, 'the hit fetched nothing');
});

test('layer cache: discard removes a layer no pull uses, and keeps one a pull has pinned', async (t) => {
  const dir = cacheDir(t);
  mkdirSync(dir, { recursive: true });
  const digest = (c: string) => `sha256:${c.repeat(64)}`;
  const cache = new LayerCache(dir, 1 << 30);
  for (const c of ['a', 'b']) writeFileSync(cache.fileOf(digest(c)), Buffer.alloc(10, c));
  const unpin = cache.pin([digest('a')]);
  await cache.discard(digest('a'));
  await cache.discard(digest('b'));
  t.true(existsSync(cache.fileOf(digest('a'))), 'pinned by a pull: kept');
  t.false(existsSync(cache.fileOf(digest('b'))));
  unpin();
  await cache.discard(digest('a'));
  t.false(existsSync(cache.fileOf(digest('a'))));
});
