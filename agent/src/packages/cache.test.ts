import test from 'ava';
import { existsSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { AgentMetrics } from '../metrics/metrics.js';
import { PackageCache, parseDigest, type BlobSource } from './cache.js';
import { sha256Digest } from '../test-support/tar.js';
import { tempDir } from '../test-support/temp.js';

function source(blobs: Map<string, Buffer>, calls: string[]): BlobSource {
  return {
    async *fetch(digest: string) {
      calls.push(digest);
      const data = blobs.get(digest);
      if (!data) throw new Error('NOT_FOUND');
      for (let i = 0; i < data.length; i += 7) {
        await new Promise((r) => setImmediate(r));
        yield data.subarray(i, i + 7);
      }
    },
  };
}

test('cache: one download for concurrent requests, a hit afterwards, stored by digest', async (t) => {
  const dir = tempDir(t, 'agent-cache-');
  const data = Buffer.from('an archive, pretend');
  const digest = sha256Digest(data);
  const calls: string[] = [];
  const metrics = new AgentMetrics();
  const cache = new PackageCache(dir, source(new Map([[digest, data]]), calls), metrics);
  const signal = new AbortController().signal;
  const [a, b] = await Promise.all([cache.get(digest, data.length, signal), cache.get(digest, data.length, signal)]);
  t.is(a, b);
  t.is(a, join(dir, 'sha256', digest.slice(7)));
  t.deepEqual(readFileSync(a), data);
  t.is(calls.length, 1);
  await cache.get(digest, data.length, signal);
  t.is(calls.length, 1);
  const text = await metrics.registry.metrics();
  t.regex(text, /platform_agent_package_cache_misses_total 1/);
  t.regex(text, /platform_agent_package_cache_hits_total 1/);
  t.regex(text, new RegExp(`platform_agent_package_bytes_fetched_total ${data.length}`));
});

test('cache: wrong length or digest never enters the cache', async (t) => {
  const dir = tempDir(t, 'agent-cache-');
  const data = Buffer.from('the real bytes');
  const digest = sha256Digest(data);
  const cache = new PackageCache(dir, source(new Map([[digest, Buffer.from('other bytes!!!')]]), []));
  const signal = new AbortController().signal;
  await t.throwsAsync(cache.get(digest, data.length, signal), { message: /does not match its digest/ });
  await t.throwsAsync(cache.get(digest, data.length - 1, signal), { message: /longer than its declared/ });
  await t.throwsAsync(cache.get(digest, 100, signal), { message: /has 14 bytes, 100 declared/ });
  await t.throwsAsync(cache.get('sha256:zz', 1, signal), { message: /invalid package digest/ });
  await t.throwsAsync(cache.get(sha256Digest(Buffer.from('x')), 1, signal), { message: /cannot fetch package archive .*NOT_FOUND/ });
  t.deepEqual(readdirSync(join(dir, 'sha256')), []);
  t.deepEqual(readdirSync(join(dir, 'tmp')), []);
  t.deepEqual(parseDigest('SHA1:' + 'a'.repeat(40)), { alg: 'sha1', hex: 'a'.repeat(40) });
});

test('cache: a fetch that fails at once leaves no temporary file (the file is created before the fetch starts)', async (t) => {
  const dir = tempDir(t, 'agent-cache-');
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const failing: BlobSource = {
    // eslint-disable-next-line require-yield
    async *fetch() {
      throw new Error('NOT_FOUND');
    },
  };
  const cache = new PackageCache(dir, failing);
  const signal = new AbortController().signal;
  for (let i = 0; i < 20; i++) {
    await t.throwsAsync(cache.get(sha256Digest(Buffer.from(`x${i}`)), 2, signal), { message: /NOT_FOUND/ });
    t.deepEqual(readdirSync(join(dir, 'tmp')), []);
  }
});

test('cache: bounded; archives not in use are evicted least recently used first, one in use never', async (t) => {
  const dir = tempDir(t, 'agent-cache-');
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const blobs = new Map<string, Buffer>();
  const digests = ['a', 'b', 'c', 'd'].map((c) => {
    const data = Buffer.alloc(40, c);
    const d = sha256Digest(data);
    blobs.set(d, data);
    return d;
  });
  const [a, b, c, d] = digests as [string, string, string, string];
  let now = 1000;
  const metrics = new AgentMetrics();
  const cache = new PackageCache(dir, source(blobs, []), metrics, { maxBytes: 100, now: () => now++ });
  const signal = new AbortController().signal;
  const fileA = await cache.get(a, 40, signal);
  await cache.get(b, 40, signal);
  await cache.get(a, 40, signal); // a used after b
  t.is(cache.size, 80);
  await cache.get(c, 40, signal); // past 100: b goes (least recently used)
  t.is(cache.size, 80);
  t.deepEqual(readdirSync(join(dir, 'sha256')).sort(), [a, c].map((x) => x.slice(7)).sort());
  // While a is in use, fetching d and b must not remove it: c goes, then d (b fits only alone).
  await cache.use(a, 40, signal, async (file) => {
    t.is(file, fileA);
    await cache.get(d, 40, signal);
    await cache.get(b, 40, signal);
    t.true(existsSync(fileA));
  });
  t.true(cache.size <= 100);
  t.regex(await metrics.registry.metrics(), /platform_agent_package_cache_evictions_total [2-9]/);

  // A restarted agent finds what is there and keeps to the bound.
  const again = new PackageCache(dir, source(blobs, []), undefined, { maxBytes: 40 });
  await again.load();
  t.is(again.size, 40);
  t.is(readdirSync(join(dir, 'sha256')).length, 1);
});

test('cache: a download needs its length free on the file system', async (t) => {
  const dir = tempDir(t, 'agent-cache-');
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const data = Buffer.alloc(64, 1);
  const digest = sha256Digest(data);
  const cache = new PackageCache(dir, source(new Map([[digest, data]]), []), undefined, { freeBytes: () => 10 });
  await t.throwsAsync(cache.get(digest, 64, new AbortController().signal), { message: /no room on the agent's disk for package archive .*: 64 bytes needed, 10 free/ });
});
