import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import { MemoryStore } from './memory-store.js';
import { RocksStore } from './rocks-store.js';
import type { Store } from './store.js';

/** The same contract, checked against the real store and its in-memory twin. */
const implementations: [string, () => Promise<{ store: Store; cleanup: () => Promise<void> }>][] = [
  ['memory', async () => ({ store: new MemoryStore(), cleanup: async () => undefined })],
  [
    'rocksdb',
    async () => {
      const dir = await mkdtemp(join(tmpdir(), 'store-test-'));
      const store = await RocksStore.open(dir, { sync: false });
      return { store, cleanup: () => rm(dir, { recursive: true, force: true }) };
    },
  ],
];

async function collect(it: AsyncIterable<[string, string]>): Promise<string[]> {
  const out: string[] = [];
  for await (const [k] of it) out.push(k);
  return out;
}

for (const [name, make] of implementations) {
  test(`store (${name}): get, batch put and delete`, async (t) => {
    const { store, cleanup } = await make();
    t.is(await store.get('missing'), undefined);
    await store.batch([
      { type: 'put', key: 'a', value: '1' },
      { type: 'put', key: 'b', value: '2' },
    ]);
    t.is(await store.get('a'), '1');
    t.deepEqual(await store.getMany(['b', 'x', 'a']), ['2', undefined, '1']);
    await store.batch([
      { type: 'del', key: 'a' },
      { type: 'put', key: 'b', value: '3' },
    ]);
    t.deepEqual(await store.getMany(['a', 'b']), [undefined, '3']);
    await store.close();
    await cleanup();
  });

  test(`store (${name}): iterate by prefix in byte order, bounds, reverse and limit`, async (t) => {
    const { store, cleanup } = await make();
    const keys = ['job/b', 'job/a', 'job/c', 'jobx', 'idx/job-fqn/job::/a::x', 'pkg/a'];
    await store.batch(keys.map((key) => ({ type: 'put', key, value: key.toUpperCase() })));
    t.deepEqual(await collect(store.iterate({ prefix: 'job/' })), ['job/a', 'job/b', 'job/c']);
    t.deepEqual(await collect(store.iterate({ prefix: 'job/', reverse: true })), ['job/c', 'job/b', 'job/a']);
    t.deepEqual(await collect(store.iterate({ prefix: 'job/', limit: 2 })), ['job/a', 'job/b']);
    t.deepEqual(await collect(store.iterate({ prefix: 'job/', gt: 'job/a' })), ['job/b', 'job/c']);
    t.deepEqual(await collect(store.iterate({ gte: 'job/b', lt: 'jobx' })), ['job/b', 'job/c']);
    const values: string[] = [];
    for await (const [, v] of store.iterate({ prefix: 'pkg/' })) values.push(v);
    t.deepEqual(values, ['PKG/A']);
    t.deepEqual((await store.scan({ prefix: 'job/' })).map(([k]) => k), ['job/a', 'job/b', 'job/c'], 'scan: the same range at once');
    t.deepEqual(await store.scan({ prefix: 'job/', reverse: true, limit: 2 }), [['job/c', 'JOB/C'], ['job/b', 'JOB/B']]);
    await store.close();
    await cleanup();
  });
}

test('store (rocksdb): a second open of one directory is refused with a clear message', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'store-lock-'));
  const first = await RocksStore.open(dir, { sync: false });
  const error = await t.throwsAsync(RocksStore.open(dir, { sync: false }));
  t.regex(error.message, /another controller holds its lock|cannot open the store/);
  await first.close();
  await rm(dir, { recursive: true, force: true });
});

test('store (rocksdb): what a batch wrote is there after reopening', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'store-reopen-'));
  const store = await RocksStore.open(dir, { sync: true });
  await store.batch([{ type: 'put', key: 'k', value: 'v' }]);
  await store.close();
  const again = await RocksStore.open(dir, { sync: true });
  t.is(await again.get('k'), 'v');
  await again.close();
  await rm(dir, { recursive: true, force: true });
});

test('store (rocksdb): concurrent batches are committed in groups, each one atomic and in order', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'store-group-'));
  const store = await RocksStore.open(dir, { sync: true });
  await Promise.all(
    Array.from({ length: 200 }, (_, i) =>
      store.batch([
        { type: 'put', key: `k/${String(i).padStart(3, '0')}`, value: String(i) },
        { type: 'put', key: 'last', value: String(i) },
      ]),
    ),
  );
  t.is((await collect(store.iterate({ prefix: 'k/' }))).length, 200);
  t.is((await store.scan({ prefix: 'k/' })).length, 200);
  t.is(await store.get('last'), '199');
  const stats = await store.writerStats();
  t.is(stats.batches, 200);
  t.true(stats.groups < stats.batches, `${stats.groups} groups for ${stats.batches} batches`);
  await store.close();
  await rm(dir, { recursive: true, force: true });
});

for (const sync of [false, true]) {
  test(`store (rocksdb${sync ? ', writer thread' : ''}): a batch that cannot be written is refused whole, and the next one is written`, async (t) => {
    const dir = await mkdtemp(join(tmpdir(), 'store-refused-'));
    const store = await RocksStore.open(dir, { sync });
    await store.batch([{ type: 'put', key: 'before', value: '1' }]);
    const bad = [{ type: 'put', key: 'half', value: 'x' }, { type: 'put', key: undefined as unknown as string, value: 'y' }] as const;
    await t.throwsAsync(store.batch(bad));
    t.is(await store.get('half'), undefined, 'nothing of the refused batch');
    await store.batch([{ type: 'put', key: 'after', value: '2' }]);
    t.deepEqual(await store.getMany(['before', 'half', 'after']), ['1', undefined, '2']);
    await store.close();
    await rm(dir, { recursive: true, force: true });
  });
}

test('store (rocksdb): writes hold no memory after they are done (one native batch, used again)', async (t) => {
  // @nxtedition/rocksdb's _batch attaches a ChainedBatch to the database for every write and
  // never detaches it: each write's keys and values stayed in memory until the store closed.
  const dir = await mkdtemp(join(tmpdir(), 'store-leak-'));
  const store = await RocksStore.open(dir, { sync: false });
  for (let i = 0; i < 300; i++) await store.batch([{ type: 'put', key: `k/${i}`, value: 'v'.repeat(100) }]);
  const db = (store as unknown as { db: object }).db;
  const resources = Object.getOwnPropertySymbols(db).find((s) => s.description === 'resources');
  t.truthy(resources, "abstract-level keeps a database's open resources under Symbol(resources)");
  const attached = (db as Record<symbol, Set<unknown>>)[resources!]!;
  t.true(attached.size <= 1, `${attached.size} resources attached after 300 writes`);
  await store.close();
  await rm(dir, { recursive: true, force: true });
});
