import test from 'ava';
import { mkdtempSync, readFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AgentMetrics } from '../metrics/metrics.js';
import { PackageCache, parseDigest, type BlobSource } from './cache.js';
import { sha256Digest } from '../test-support/tar.js';

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
  const dir = mkdtempSync(join(tmpdir(), 'agent-cache-'));
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
  const dir = mkdtempSync(join(tmpdir(), 'agent-cache-'));
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
