import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import test, { type ExecutionContext } from 'ava';
import { MemoryStore } from './memory-store.js';
import { RocksStore, WRITER_STAY_MS } from './rocks-store.js';
import type { Store } from './store.js';
import { BatchTooLargeError, EtcdStore, EtcdUnavailableError, FencedError } from './etcd-store.js';
import { toApiError } from '../api/api-error.js';
import { EtcdElection } from './leadership.js';
import { ETCD_BINARY, etcdAvailable, startEtcd, type EtcdTestServer } from './etcd-test-server.js';

/** A temporary directory, removed when the test ends, whether it passed or failed. */
async function tempDir(t: ExecutionContext, prefix: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), prefix));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

/** One real etcd for the file's etcd cases (each in a prefix of its own), started on first use. */
let etcd: Promise<EtcdTestServer> | undefined;
let etcdCases = 0;
test.after.always(async () => {
  if (etcd) await (await etcd).stop();
});

/** The same contract, checked against the real stores (RocksDB, etcd) and the in-memory twin. */
const implementations: [string, (t: ExecutionContext) => Promise<{ store: Store; cleanup: () => Promise<void> }>][] = [
  ['memory', async () => ({ store: new MemoryStore(), cleanup: async () => undefined })],
  [
    'rocksdb',
    async (t) => {
      const store = await RocksStore.open(await tempDir(t, 'store-test-'), { sync: false });
      return { store, cleanup: () => (store as RocksStore).close() };
    },
  ],
];
if (etcdAvailable()) {
  implementations.push([
    'etcd',
    async () => {
      const server = await (etcd ??= startEtcd());
      const store = new EtcdStore({ endpoints: [server.endpoint], auth: server.auth, prefix: `/contract-${++etcdCases}/` });
      return { store, cleanup: () => store.close() };
    },
  ]);
} else if (process.env['PLATFORM_REQUIRE_SYSTEM_TOOLS'] === '1') {
  test('store (etcd): etcd is installed', (t) => t.fail(`${ETCD_BINARY} is required (PLATFORM_REQUIRE_SYSTEM_TOOLS=1): apt-get install etcd-server`));
} else {
  test('store (etcd): skipped', (t) => {
    t.log(`SKIPPED: ${ETCD_BINARY} is not installed (apt-get install etcd-server); the store contract ran on memory and RocksDB only`);
    t.pass();
  });
}

async function collect(it: AsyncIterable<[string, string]>): Promise<string[]> {
  const out: string[] = [];
  for await (const [k] of it) out.push(k);
  return out;
}

for (const [name, make] of implementations) {
  test(`store (${name}): get, batch put and delete`, async (t) => {
    const { store, cleanup } = await make(t);
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
    const { store, cleanup } = await make(t);
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

  test(`store (${name}): an iteration over more entries than one read gives each once, in order, forwards and in reverse; one stopped early leaves the store as it was`, async (t) => {
    const { store, cleanup } = await make(t);
    // More than a RocksDB store's first two reads (16, then 1,000 read ahead) and an etcd page.
    const keys = Array.from({ length: 2_500 }, (_, i) => `many/${String(i).padStart(5, '0')}`);
    for (let i = 0; i < keys.length; i += 100) await store.batch(keys.slice(i, i + 100).map((key) => ({ type: 'put', key, value: `v${key}` })));
    const seen: [string, string][] = [];
    for await (const entry of store.iterate({ prefix: 'many/' })) seen.push(entry);
    t.deepEqual(seen.map(([k]) => k), keys);
    t.true(seen.every(([k, v]) => v === `v${k}`));
    t.deepEqual(await collect(store.iterate({ prefix: 'many/', reverse: true })), [...keys].reverse());
    t.deepEqual(await collect(store.iterate({ prefix: 'many/', limit: 1_200 })), keys.slice(0, 1_200));
    // Stopped in the second read (the third being read ahead): the store reads and writes on.
    let n = 0;
    for await (const [k] of store.iterate({ prefix: 'many/' })) {
      t.is(k, keys[n]!);
      if (++n === 20) break;
    }
    await store.batch([{ type: 'put', key: 'many/after', value: 'x' }]);
    t.is(await store.get('many/after'), 'x');
    t.is((await collect(store.iterate({ prefix: 'many/' }))).length, keys.length + 1);
    await store.close();
    await cleanup();
  });

  test(`store (${name}): every bound, alone and together, and empty ranges`, async (t) => {
    const { store, cleanup } = await make(t);
    const all = Array.from({ length: 9 }, (_, i) => `k/${i}`);
    await store.batch([...all, 'j', 'l', 'k'].map((key) => ({ type: 'put', key, value: key })));
    const keysOf = async (range: Parameters<Store['scan']>[0]) => (await store.scan(range)).map(([k]) => k);
    t.deepEqual(await keysOf({ prefix: 'k/' }), all);
    t.deepEqual(await keysOf({ prefix: 'k/', reverse: true }), [...all].reverse());
    t.deepEqual(await keysOf({ prefix: 'k/', reverse: true, limit: 5 }), all.slice(4).reverse());
    t.deepEqual(await keysOf({ prefix: 'k/', gt: 'k/2', lte: 'k/6' }), ['k/3', 'k/4', 'k/5', 'k/6']);
    t.deepEqual(await keysOf({ gt: 'j', lt: 'l' }), ['k', ...all]);
    t.deepEqual(await keysOf({ gte: 'k', lte: 'k' }), ['k']);
    t.deepEqual(await keysOf({ gt: 'k/8' }), ['l']);
    t.deepEqual(await keysOf({ lt: 'k' }), ['j']);
    t.deepEqual(await keysOf({ prefix: 'k/', gt: 'k/5', lt: 'k/5' }), [], 'an empty range');
    t.deepEqual(await keysOf({ prefix: 'k/', gt: 'k/6', lt: 'k/2' }), [], 'bounds the wrong way round');
    t.deepEqual(await keysOf({ prefix: 'k/', gte: 'x' }), [], 'a lower bound past the prefix');
    t.deepEqual(await keysOf({ prefix: 'nothing/' }), []);
    await store.close();
    await cleanup();
  });

  test(`store (${name}): keys and values are UTF-8 text, in byte order`, async (t) => {
    const { store, cleanup } = await make(t);
    // Multi-byte characters sort after every ASCII key, as their UTF-8 bytes do.
    const keys = ['u/a', 'u/\u00e9', 'u/\u4e2d', 'u/z'];
    await store.batch(keys.map((key) => ({ type: 'put', key, value: `${key} \u00fcber` })));
    t.deepEqual((await store.scan({ prefix: 'u/' })).map(([k]) => k), ['u/a', 'u/z', 'u/\u00e9', 'u/\u4e2d']);
    t.is(await store.get('u/\u00e9'), 'u/\u00e9 \u00fcber');
    await store.close();
    await cleanup();
  });

  test(`store (${name}): a prefix holds its keys with characters past U+FFFF, and bounds outside the prefix give way to it`, async (t) => {
    const { store, cleanup } = await make(t);
    // U+1F600 is 4 bytes in UTF-8 (F0 9F 98 80): after U+FFFF (EF BF BF) in byte order.
    const keys = ['u/a', 'u/\uffff', 'u/\u{1F600}', 'u/\u{10FFFF}x', 'v/a', 't/z', 'e/\u{1F600}', 'e/\u{1F600}z', 'e/\u{1F601}', 'e/\u{1F5FF}'];
    await store.batch(keys.map((key) => ({ type: 'put', key, value: key })));
    const keysOf = async (range: Parameters<Store['scan']>[0]) => (await store.scan(range)).map(([k]) => k);
    t.deepEqual(await keysOf({ prefix: 'u/' }), ['u/a', 'u/\uffff', 'u/\u{1F600}', 'u/\u{10FFFF}x']);
    t.deepEqual(await keysOf({ prefix: 'u/', reverse: true, limit: 2 }), ['u/\u{10FFFF}x', 'u/\u{1F600}']);
    t.deepEqual(await keysOf({ prefix: 'e/\u{1F600}' }), ['e/\u{1F600}', 'e/\u{1F600}z'], 'a prefix that ends past U+FFFF');
    t.deepEqual(await keysOf({ prefix: 'u/\u{10FFFF}' }), ['u/\u{10FFFF}x'], 'a prefix that ends with the last code point');
    t.deepEqual(await keysOf({ prefix: 'u/', gt: 'a', lte: 'zz' }), ['u/a', 'u/\uffff', 'u/\u{1F600}', 'u/\u{10FFFF}x'], 'bounds outside the prefix');
    t.deepEqual(await keysOf({ prefix: 'u/', gt: 'u/\uffff', lte: 'u/\u{1F600}' }), ['u/\u{1F600}']);
    await store.close();
    await cleanup();
  });

  test(`store (${name}): a batch that names a key twice keeps its last operation`, async (t) => {
    const { store, cleanup } = await make(t);
    await store.batch([{ type: 'put', key: 'gone', value: 'x' }]);
    await store.batch([
      { type: 'put', key: 'a', value: '1' },
      { type: 'put', key: 'a', value: '2' },
      { type: 'put', key: 'b', value: '1' },
      { type: 'del', key: 'b' },
      { type: 'del', key: 'c' },
      { type: 'put', key: 'c', value: '3' },
      { type: 'put', key: 'gone', value: 'y' },
      { type: 'del', key: 'gone' },
    ]);
    t.deepEqual(await store.getMany(['a', 'b', 'c', 'gone']), ['2', undefined, '3', undefined]);
    await store.close();
    await cleanup();
  });

  test(`store (${name}): close() lets the batches already made finish`, async (t) => {
    const { store, cleanup } = await make(t);
    const pending = Array.from({ length: 20 }, (_, i) => store.batch([{ type: 'put', key: `p/${String(i).padStart(2, '0')}`, value: String(i) }]));
    await store.close();
    await Promise.all(pending);
    await cleanup();
    t.pass();
  });
}

test('store (rocksdb): a second open of one directory is refused with a clear message', async (t) => {
  const dir = await tempDir(t, 'store-lock-');
  const first = await RocksStore.open(dir, { sync: false });
  const error = await t.throwsAsync(RocksStore.open(dir, { sync: false }));
  t.regex(error.message, /another controller holds its lock|cannot open the store/);
  await first.close();
});

test('store (rocksdb): what a batch wrote is there after reopening', async (t) => {
  const dir = await tempDir(t, 'store-reopen-');
  const store = await RocksStore.open(dir, { sync: true });
  await store.batch([{ type: 'put', key: 'k', value: 'v' }]);
  await store.close();
  const again = await RocksStore.open(dir, { sync: true });
  t.is(await again.get('k'), 'v');
  await again.close();
});

for (const [path, inlineCommitMs] of [['main thread', undefined], ['writer thread', 0]] as const) {
  test(`store (rocksdb, ${path}): concurrent batches are committed in groups, each one atomic and in order`, async (t) => {
    const dir = await tempDir(t, 'store-group-');
    const store = await RocksStore.open(dir, { sync: true, ...(inlineCommitMs === undefined ? {} : { inlineCommitMs }) });
    t.is(store.commitPath, inlineCommitMs === 0 ? 'writer' : 'inline');
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
    t.is(stats.inline.batches, inlineCommitMs === 0 ? 0 : 200, 'the thread that committed them');
    await store.close();
    const again = await RocksStore.open(dir, { sync: true });
    t.is(await again.get('last'), '199');
    t.is((await again.scan({ prefix: 'k/' })).length, 200);
    await again.close();
  });
}

test('store (rocksdb): commits move to the writer thread when slow and back when fast, and batches stay in call order', async (t) => {
  const dir = await tempDir(t, 'store-path-');
  // A clock that makes every inline commit look 1.5 s long while `slow` (the disk seen as slow),
  // with a limit of 1 s that the writer thread's real commits stay far below.
  let now = 0;
  let slow = true;
  const paths: string[] = [];
  const store = await RocksStore.open(dir, {
    sync: true,
    inlineCommitMs: 1_000,
    now: () => (now += slow ? 1_500 : 0),
    onCommitPath: (path) => {
      paths.push(path);
      // On the writer thread the disk is fast again, and the least stay is over at once.
      slow = path === 'inline';
      if (path === 'writer') now += WRITER_STAY_MS;
    },
  });
  let newest = -1;
  const errors: string[] = [];
  const done: Promise<void>[] = [];
  for (let i = 0; i < 400; i++) {
    done.push(
      store.batch([
        { type: 'put', key: `k/${String(i).padStart(3, '0')}`, value: String(i) },
        { type: 'put', key: 'last', value: String(i) },
      ]).then(async () => {
        newest = Math.max(newest, i);
        // A batch answered after a later one must not have overwritten it.
        const last = Number(await store.get('last'));
        if (last < newest) errors.push(`batch ${i} answered: last is ${last}, batch ${newest} was answered before`);
      }),
    );
    if (i % 7 === 6) await new Promise((resolve) => setImmediate(resolve));
    if (i % 25 === 24) await Promise.all(done);
  }
  await Promise.all(done);
  t.deepEqual(errors, []);
  t.is(await store.get('last'), '399');
  t.true(paths.length >= 3, `moved ${paths.length} times: ${paths.join(', ')}`);
  t.deepEqual(paths.slice(0, 3), ['writer', 'inline', 'writer']);
  const stats = await store.writerStats();
  t.is(stats.batches, 400);
  t.true(stats.inline.batches > 0 && stats.inline.batches < 400, `${stats.inline.batches} of 400 batches committed inline`);
  await store.close();
  const again = await RocksStore.open(dir, { sync: true });
  t.is((await again.scan({ prefix: 'k/' })).length, 400);
  t.is(await again.get('last'), '399');
  await again.close();
});

test('store (rocksdb): no batch is committed on the main thread while the writer thread still has earlier ones', async (t) => {
  const put = (key: string, value: string) => ({ type: 'put', key, value }) as const;
  // The case needs a batch (B) still on the writer when the one before it (A) is answered. A is
  // large; once its last key can be read (the writer has written it and answers next), B is sent
  // at once, before this thread can take A's answer. If A was answered before that was seen, the
  // case is set up again.
  for (let attempt = 1; ; attempt++) {
    const dir = await tempDir(t, 'store-handover-');
    let now = 0;
    let step = 1_500;
    const store = await RocksStore.open(dir, { sync: true, inlineCommitMs: 1_000, now: () => (now += step) });
    await store.batch([put('last', 'first')]); // seen taking 1.5 s: commits move to the writer thread
    t.is(store.commitPath, 'writer');
    step = 0;
    // The writer's fast commits bring the average down; the clock holds the least stay unfinished.
    for (let i = 0; i < 40; i++) await store.batch([put('warm', String(i))]);
    t.is(store.commitPath, 'writer');
    const inlineBefore = (await store.writerStats()).inline.batches;
    now += WRITER_STAY_MS; // the stay is over: the writer's next answer moves commits back to the main thread
    let bSent = false;
    let bDone = false;
    let bWaiting = false;
    const a = store.batch([...Array.from({ length: 5_000 }, (_, i) => put(`big/${i}`, 'x'.repeat(2_000))), put('last', 'a'), put('a-written', 'yes')]);
    let aDone = false;
    const c = a.then(() => {
      aDone = true;
      bWaiting = bSent && !bDone;
      t.is(store.commitPath, 'inline');
      return store.batch([put('last', 'c')]);
    });
    // Reads are synchronous on this thread: no message from the writer is taken between them.
    while (!aDone && (await store.get('a-written')) === undefined) await new Promise((resolve) => setImmediate(resolve));
    bSent = !aDone;
    const b = store.batch([put('last', 'b')]).then(() => {
      bDone = true;
    });
    await Promise.all([a, b, c]);
    const inlineAfter = (await store.writerStats()).inline.batches;
    const last = await store.get('last');
    await store.close();
    if (!bWaiting) {
      if (attempt === 10) t.fail('ten times, the first batch was answered before it could be read');
      else continue;
    }
    t.is(inlineAfter, inlineBefore, 'the batch made while the writer had one went to the writer');
    t.is(last, 'c', 'the batch made last is written last');
    const again = await RocksStore.open(dir, { sync: true });
    t.is(await again.get('last'), 'c');
    t.is((await again.scan({ prefix: 'big/' })).length, 5_000);
    await again.close();
    t.log(`attempts: ${attempt}`);
    return;
  }
});

test('store (rocksdb): a slow commit alone does not move commits off the main thread; a stall does', async (t) => {
  const dir = await tempDir(t, 'store-spike-');
  let step = 0;
  let now = 0;
  const paths: string[] = [];
  const store = await RocksStore.open(dir, { sync: true, now: () => (now += step), onCommitPath: (path) => paths.push(path) });
  await store.batch([{ type: 'put', key: 'a', value: '1' }]);
  step = 20; // one commit of 20 ms among fast ones
  await store.batch([{ type: 'put', key: 'a', value: '2' }]);
  step = 0;
  for (let i = 0; i < 5; i++) await store.batch([{ type: 'put', key: 'a', value: String(i) }]);
  t.deepEqual(paths, []);
  t.is(store.commitPath, 'inline');
  step = 1_000; // a stall of a second
  await store.batch([{ type: 'put', key: 'a', value: 'stalled' }]);
  t.deepEqual(paths, ['writer']);
  t.is(store.commitPath, 'writer');
  step = 0;
  await store.batch([{ type: 'put', key: 'a', value: 'on the writer' }]);
  t.is(await store.get('a'), 'on the writer');
  t.is(store.commitPath, 'writer', 'stays on the writer thread for a while');
  await store.close();
});

test('store (rocksdb): closing commits the open group, and a refused batch leaves the others of its turn', async (t) => {
  const dir = await tempDir(t, 'store-close-');
  const store = await RocksStore.open(dir, { sync: true });
  const good = store.batch([{ type: 'put', key: 'a', value: '1' }]);
  const bad = store.batch([{ type: 'put', key: 'b', value: 2 as unknown as string }]);
  const after = store.batch([{ type: 'put', key: 'c', value: '3' }]);
  await store.close();
  await good;
  await after;
  await t.throwsAsync(bad, { message: /not a string/ });
  const again = await RocksStore.open(dir, { sync: true });
  t.deepEqual(await again.getMany(['a', 'b', 'c']), ['1', undefined, '3']);
  await again.close();
});

/**
 * Runs `open` and returns the writer thread's Worker it made, caught on its first message (the
 * store keeps it private). Serial tests only: the catch patches Worker for the whole process.
 */
async function withWriterCaught<T>(open: () => Promise<T>): Promise<{ value: T; worker: Worker }> {
  const seen: Worker[] = [];
  const original = Worker.prototype.postMessage;
  Worker.prototype.postMessage = function (this: Worker, ...args: Parameters<Worker['postMessage']>) {
    if (!seen.includes(this)) seen.push(this);
    return original.apply(this, args);
  };
  try {
    const value = await open();
    if (value instanceof RocksStore) await value.writerStats(); // one message to the writer
    if (seen.length !== 1) throw new Error(`expected one writer thread, caught ${seen.length}`);
    return { value, worker: seen[0]! };
  } finally {
    Worker.prototype.postMessage = original;
  }
}

test.serial('store (rocksdb): once the writer thread has died, commits stay on the main thread, however slow the disk', async (t) => {
  const dir = await tempDir(t, 'store-dead-writer-');
  let now = 0;
  let step = 0;
  const failures: string[] = [];
  const paths: string[] = [];
  const { value: store, worker } = await withWriterCaught(() =>
    RocksStore.open(dir, { sync: true, inlineCommitMs: 1_000, now: () => (now += step), onWriterFailure: (err) => failures.push(err.message), onCommitPath: (p) => paths.push(p) }),
  );
  t.teardown(() => store.close());
  await worker.terminate(); // the writer thread dies (an error of its own)
  await new Promise((resolve) => setImmediate(resolve));
  t.deepEqual(failures, ['the store writer thread exited (code 1)']);
  await store.batch([{ type: 'put', key: 'k', value: 'writer dead' }]);
  step = 20_000; // a stall that would move commits to the writer thread
  await store.batch([{ type: 'put', key: 'k', value: 'slow' }]);
  step = 0;
  t.is(store.commitPath, 'inline');
  for (let i = 0; i < 3; i++) await store.batch([{ type: 'put', key: 'k', value: `after ${i}` }]);
  t.is(await store.get('k'), 'after 2');
  t.deepEqual(paths, []);
  await store.close();
  const again = await RocksStore.open(dir, { sync: true });
  t.is(await again.get('k'), 'after 2');
  await again.close();
});

test.serial('store (rocksdb): when the writer thread dies with batches, they are refused as of unknown outcome and commits go on the main thread', async (t) => {
  const dir = await tempDir(t, 'store-writer-dies-');
  const failures: string[] = [];
  const paths: string[] = [];
  const { value: store, worker } = await withWriterCaught(() =>
    RocksStore.open(dir, { sync: true, inlineCommitMs: 0, onWriterFailure: (err) => failures.push(err.message), onCommitPath: (p) => paths.push(p) }),
  );
  t.teardown(() => store.close());
  t.is(store.commitPath, 'writer');
  const sent = store.batch([{ type: 'put', key: 'big', value: 'x'.repeat(4_000_000) }]);
  await worker.terminate();
  const err = await t.throwsAsync(sent);
  t.regex(err.message, /writer thread exited.*may or may not have been made/);
  t.deepEqual(failures.length, 1);
  t.deepEqual(paths, ['inline']);
  t.is(store.commitPath, 'inline');
  await store.batch([{ type: 'put', key: 'after', value: 'on the main thread' }]);
  t.is(await store.get('after'), 'on the main thread');
  await store.close();
  const again = await RocksStore.open(dir, { sync: true });
  t.is(await again.get('after'), 'on the main thread');
  await again.close();
});

test('store (rocksdb): close() answers every caller once all is written, and writerStats() after it is refused', async (t) => {
  const dir = await tempDir(t, 'store-close-twice-');
  const store = await RocksStore.open(dir, { sync: true, inlineCommitMs: 0 });
  let answered = false;
  const pending = store.batch([{ type: 'put', key: 'a', value: 'x'.repeat(1_000_000) }]).then(() => (answered = true));
  const first = store.close();
  const stats = store.writerStats();
  await store.close(); // a second close (a signal handler and the normal stop) waits as the first does
  t.true(answered, 'the batch sent before the close was answered');
  await first;
  await pending;
  await t.throwsAsync(stats, { message: /closed/ });
  await t.throwsAsync(store.writerStats(), { message: /closed/ });
  const again = await RocksStore.open(dir, { sync: true });
  t.is((await again.get('a'))?.length, 1_000_000);
  await again.close();
});

for (const sync of [false, true]) {
  test(`store (rocksdb${sync ? ', writer thread' : ''}): a batch that cannot be written is refused whole, and the next one is written`, async (t) => {
    const dir = await tempDir(t, 'store-refused-');
    const store = await RocksStore.open(dir, { sync });
    await store.batch([{ type: 'put', key: 'before', value: '1' }]);
    const bad = [{ type: 'put', key: 'half', value: 'x' }, { type: 'put', key: undefined as unknown as string, value: 'y' }] as const;
    await t.throwsAsync(store.batch(bad));
    t.is(await store.get('half'), undefined, 'nothing of the refused batch');
    await store.batch([{ type: 'put', key: 'after', value: '2' }]);
    t.deepEqual(await store.getMany(['before', 'half', 'after']), ['1', undefined, '2']);
    await store.close();
  });
}

test('store (rocksdb): writes hold no memory after they are done (one native batch, used again)', async (t) => {
  // @nxtedition/rocksdb's _batch attaches a ChainedBatch to the database for every write and
  // never detaches it: each write's keys and values stayed in memory until the store closed.
  const dir = await tempDir(t, 'store-leak-');
  const store = await RocksStore.open(dir, { sync: false });
  for (let i = 0; i < 300; i++) await store.batch([{ type: 'put', key: `k/${i}`, value: 'v'.repeat(100) }]);
  const db = (store as unknown as { db: object }).db;
  const resources = Object.getOwnPropertySymbols(db).find((s) => s.description === 'resources');
  t.truthy(resources, "abstract-level keeps a database's open resources under Symbol(resources)");
  const attached = (db as Record<symbol, Set<unknown>>)[resources!]!;
  t.true(attached.size <= 1, `${attached.size} resources attached after 300 writes`);
  await store.close();
});

/** A store on the file's etcd in a prefix of its own; skipped (with the reason) where etcd is not installed. */
async function etcdStore(t: ExecutionContext, o: { pageSize?: number; pageBytes?: number; maxTxnOps?: number } = {}): Promise<EtcdStore | undefined> {
  if (!etcdAvailable()) {
    if (process.env['PLATFORM_REQUIRE_SYSTEM_TOOLS'] === '1') t.fail(`${ETCD_BINARY} is required (PLATFORM_REQUIRE_SYSTEM_TOOLS=1)`);
    else t.pass();
    return undefined;
  }
  const server = await (etcd ??= startEtcd());
  const store = new EtcdStore({ endpoints: [server.endpoint], auth: server.auth, prefix: `/case-${++etcdCases}/`, ...o });
  t.teardown(() => store.close());
  return store;
}

test('store (etcd): an iteration reads in pages from one snapshot, forwards and in reverse, however the keys change meanwhile', async (t) => {
  const store = await etcdStore(t, { pageSize: 3 });
  if (!store) return;
  const keys = Array.from({ length: 10 }, (_, i) => `k/${String(i).padStart(2, '0')}`);
  await store.batch(keys.map((key) => ({ type: 'put', key, value: `v${key}` })));
  const seen: string[] = [];
  for await (const [k, v] of store.iterate({ prefix: 'k/' })) {
    t.is(v, `v${k}`);
    seen.push(k);
    // Writes during the iteration are not seen by it: it reads at its first page's revision.
    if (seen.length === 1) await store.batch([{ type: 'del', key: 'k/09' }, { type: 'put', key: 'k/05', value: 'changed' }, { type: 'put', key: 'k/10', value: 'new' }]);
  }
  t.deepEqual(seen, keys);
  t.deepEqual(await collect(store.iterate({ prefix: 'k/', reverse: true, limit: 5 })), ['k/10', 'k/08', 'k/07', 'k/06', 'k/05']);
  t.deepEqual(await collect(store.iterate({ gt: 'k/02', lte: 'k/06' })), ['k/03', 'k/04', 'k/05', 'k/06']);
  t.deepEqual(await collect(store.iterate({ gte: 'k/02', lt: 'k/06', reverse: true })), ['k/05', 'k/04', 'k/03', 'k/02']);
  t.is((await store.getMany(['k/05', 'k/09', 'k/10'])).join(','), 'changed,,new');
});

/** The `limit` of every range read the etcd store asks for from now on, in order. */
function rangeLimits(store: EtcdStore): number[] {
  const limits: number[] = [];
  const kv = store.client.kv;
  const range = kv.range.bind(kv);
  kv.range = (req, options) => {
    limits.push(Number(req.limit));
    return range(req, options);
  };
  return limits;
}

// Serial: its 6 MB, written and read three times, made the short deadlines of tests beside it pass on a loaded host.
test.serial('store (etcd): an iteration of more than grpc\'s 4 MiB in entries of a few KB is read in pages that fit, each asked for while the one before is handed out', async (t) => {
  const store = await etcdStore(t);
  if (!store) return;
  // 1,200 entries of 5 KB: 1,000 of them (a page by count) are more than grpc-js takes in one
  // answer by default.
  const value = (i: number) => `${String(i).padStart(4, '0')}${'x'.repeat(5_000)}`;
  const keys = Array.from({ length: 1_200 }, (_, i) => `big/${String(i).padStart(4, '0')}`);
  for (let i = 0; i < keys.length; i += 100) await store.batch(keys.slice(i, i + 100).map((key, j) => ({ type: 'put', key, value: value(i + j) })));
  const limits = rangeLimits(store);
  let n = 0;
  let askedBeforeHandedOut = 0;
  for await (const [k, v] of store.iterate({ prefix: 'big/' })) {
    t.is(k, keys[n]!);
    t.is(v, value(n));
    // The first entry of each page: the next page has been asked for already.
    if (n === 0 && limits.length === 2) askedBeforeHandedOut++;
    n++;
  }
  t.is(n, keys.length);
  t.is(askedBeforeHandedOut, 1);
  // The first page by count (its entries' size unknown), then about 2 MiB each.
  t.is(limits[0], 1000);
  t.true(limits.slice(1).every((l) => l > 0 && l * 5_014 <= 2.1 * 1024 * 1024), `limits ${limits.join(',')}`);
  t.deepEqual(await collect(store.iterate({ prefix: 'big/', limit: 3 })), keys.slice(0, 3));
  t.deepEqual(await collect(store.iterate({ prefix: 'big/', reverse: true, limit: 1_100 })), [...keys].reverse().slice(0, 1_100));
});

test('store (etcd): a page\'s size follows the bytes of the entries read before it, up to pageBytes', async (t) => {
  const store = await etcdStore(t, { pageBytes: 1_000, pageSize: 20 });
  if (!store) return;
  const keys = Array.from({ length: 100 }, (_, i) => `p/${String(i).padStart(3, '0')}`);
  await store.batch(keys.map((key) => ({ type: 'put', key, value: 'y'.repeat(95) })));
  const limits = rangeLimits(store);
  t.deepEqual(await collect(store.iterate({ prefix: 'p/' })), keys);
  // About 110 bytes an entry (its key with the store's prefix, and its value): 9 a page after the first.
  const per = Math.floor(1_000 / Buffer.byteLength(`${store.prefix}${keys[0]}${'y'.repeat(95)}`));
  t.is(limits[0], 20);
  t.deepEqual(limits.slice(1), Array.from({ length: Math.ceil(80 / per) }, () => per));
  limits.length = 0;
  t.deepEqual(await collect(store.iterate({ prefix: 'p/', limit: 15 })), keys.slice(0, 15));
  t.deepEqual(limits, [15]);
});

test('store (etcd): a reverse iteration reads each entry a bounded number of times, not the rest of the range for each page', async (t) => {
  const store = await etcdStore(t, { pageSize: 10 });
  if (!store) return;
  const keys = Array.from({ length: 200 }, (_, i) => `r/${String(i).padStart(3, '0')}`);
  for (let i = 0; i < keys.length; i += 100) await store.batch(keys.slice(i, i + 100).map((key) => ({ type: 'put', key, value: `v${key}` })));
  // What etcd reads for each range request: a sorted one reads every key of its range (its
  // count) whatever its limit; an unsorted one reads the entries it answers.
  let read = 0;
  const kv = store.client.kv;
  const range = kv.range.bind(kv);
  kv.range = async (req, options) => {
    const res = await range(req, options);
    read += req?.sort_order === 'Descend' ? Number(res.count) : res.kvs.length;
    return res;
  };
  const seen: [string, string][] = [];
  for await (const entry of store.iterate({ prefix: 'r/', reverse: true })) {
    seen.push(entry);
    // One snapshot, in reverse as forwards.
    if (seen.length === 15) await store.batch([{ type: 'del', key: 'r/005' }, { type: 'put', key: 'r/100', value: 'changed' }, { type: 'put', key: 'r/0505', value: 'new' }]);
  }
  t.deepEqual(seen.map(([k]) => k), [...keys].reverse());
  t.true(seen.every(([k, v]) => v === `v${k}`));
  t.true(read <= 3 * keys.length, `etcd read ${read} entries for a reverse iteration of ${keys.length}`);
  read = 0;
  t.deepEqual(await collect(store.iterate({ prefix: 'r/', reverse: true, limit: 25 })), [...keys].reverse().slice(0, 25));
  t.true(read <= 3 * keys.length, `etcd read ${read} entries for 25 of them`);
  read = 0;
  t.deepEqual(await collect(store.iterate({ prefix: 'r/', reverse: true, limit: 1 })), ['r/199']);
  t.true(read <= keys.length, `etcd read ${read} entries for the last one`);
});

test('store (etcd): a batch past the transaction or request bound is refused before it is sent, and writes nothing', async (t) => {
  const store = await etcdStore(t, { maxTxnOps: 4 });
  if (!store) return;
  // One operation of each transaction is the batch's receipt.
  t.is(store.maxBatchOps, 3);
  const four = Array.from({ length: 4 }, (_, i) => ({ type: 'put' as const, key: `many/${i}`, value: 'x' }));
  const many = await t.throwsAsync(store.batch(four), { instanceOf: BatchTooLargeError });
  t.regex(many!.message, /at most 3 in one transaction \(etcd's --max-txn-ops/);
  // An APIError of its own kind (413), not an internal error, when a request's change does not fit.
  t.is(toApiError(many, 'r1').status, 413);
  const big = await t.throwsAsync(store.batch([{ type: 'put', key: 'big', value: 'x'.repeat(2 * 1024 * 1024) }]), { instanceOf: BatchTooLargeError });
  t.regex(big!.message, /--max-request-bytes/);
  t.deepEqual(await collect(store.iterate({ prefix: 'many/' })), []);
  t.is(await store.get('big'), undefined);
});

test('store (etcd): a guarded batch is written only while its guard key is the same one; a stale writer is fenced', async (t) => {
  const store = await etcdStore(t);
  if (!store) return;
  const leader = `/fence-${etcdCases}/leader`;
  const lease = store.client.lease(30);
  t.teardown(() => lease.revoke().catch(() => undefined));
  const first = await lease.put(leader).value('a').exec();
  store.setGuard({ key: leader, createRevision: first.header.revision, lease: await lease.grant() }, { onUnresolved: () => t.fail('no outcome is unknown here') });
  await store.batch([{ type: 'put', key: 'x', value: '1' }]);
  t.is(await store.get('x'), '1');
  // The key is made again (another controller won): the old revision no longer matches.
  await store.client.delete().key(leader).exec();
  await store.client.put(leader).value('b').exec();
  await t.throwsAsync(store.batch([{ type: 'put', key: 'x', value: 'stale' }]), { instanceOf: FencedError });
  t.is(await store.get('x'), '1');
});

test('store (etcd): without the password, etcd refuses', async (t) => {
  if (!etcdAvailable()) return void (await etcdStore(t));
  const server = await (etcd ??= startEtcd());
  const anonymous = new EtcdStore({ endpoints: [server.endpoint], prefix: '/anon/' });
  t.teardown(() => anonymous.close());
  await t.throwsAsync(anonymous.batch([{ type: 'put', key: 'a', value: 'b' }]));
});

test('store (etcd, TLS client certificates): the certificate\'s user reads and writes its prefix only; without a certificate etcd refuses', async (t) => {
  if (!etcdAvailable()) return void (await etcdStore(t));
  const server = await startEtcd({ tls: true });
  t.teardown(() => server.stop());
  const store = new EtcdStore({ endpoints: [server.endpoint], tls: server.tls!, prefix: '/platform/' });
  t.teardown(() => store.close());
  await store.batch([{ type: 'put', key: 'k', value: 'v' }, { type: 'put', key: 'l', value: 'w' }]);
  t.is(await store.get('k'), 'v');
  t.deepEqual(await store.scan({}), [['k', 'v'], ['l', 'w']]);
  // The role of `platform` gives it /platform/ and nothing else.
  const outside = new EtcdStore({ endpoints: [server.endpoint], tls: server.tls!, prefix: '/other/' });
  t.teardown(() => outside.close());
  await t.throwsAsync(outside.batch([{ type: 'put', key: 'k', value: 'v' }]), { message: /permission denied/ });
  // No client certificate: the TLS handshake is refused.
  const anonymous = new EtcdStore({ endpoints: [server.endpoint], tls: { ca: server.tls!.ca }, prefix: '/platform/', timeoutMs: 3_000 });
  t.teardown(() => anonymous.close());
  await t.throwsAsync(anonymous.get('k'));
});

test('store (etcd): the election: the first candidate leads, the others wait and are listed; a resignation hands the lead on', async (t) => {
  const a = await etcdStore(t);
  if (!a) return;
  const election = new EtcdElection(a, 2);
  const info = (id: string) => ({ id, api: `http://127.0.0.1:1/${id}`, grpc: `127.0.0.1:${id.length}`, started: new Date().toISOString() });
  const never = new AbortController().signal;
  const first = await election.campaign(info('first'), never);
  t.regex(first.createRevision, /^\d+$/);
  const withdraw = new AbortController();
  let secondLeads = false;
  const second = election.campaign(info('second'), never).then((term) => ((secondLeads = true), term));
  // One after the other: the order of candidacies is the order of their keys' creation.
  await eventuallyTrue(async () => (await election.members()).length === 2);
  const third = election.campaign(info('third'), withdraw.signal);
  await eventuallyTrue(async () => (await election.members()).length === 3);
  const members = await election.members();
  t.deepEqual(members.map((m) => [m.id, m.active]), [['first', true], ['second', false], ['third', false]]);
  t.is(members[0]!.since, first.since.toISOString());
  t.is((await election.leader())?.id, 'first');
  t.false(secondLeads);
  withdraw.abort();
  await t.throwsAsync(third, { message: /withdrawn/ });
  await first.resign();
  const term = await second;
  t.is((await election.leader())?.id, 'second');
  t.deepEqual((await election.members()).map((m) => m.id), ['second']);
  await term.resign();
});

// Serial (AVA runs serial tests before the others): it holds the whole test process's event loop.
test.serial('store (etcd): the leader keeps its lease while its main thread is held past the TTL (renewed from a thread of its own), and its writes go on', async (t) => {
  const store = await etcdStore(t);
  if (!store) return;
  const election = new EtcdElection(store, 4);
  const term = await election.campaign({ id: 'busy', api: 'http://127.0.0.1:1', grpc: '127.0.0.1:1', started: '' }, new AbortController().signal);
  let lost: Error | undefined;
  void term.lost.then((err) => (lost = err));
  store.setGuard({ key: term.key, createRevision: term.createRevision, lease: term.key.slice(term.key.lastIndexOf('/') + 1) }, { onUnresolved: () => undefined });
  // The event loop held for longer than the lease's TTL (4 s), as 1,000 agents re-attaching held it.
  const until = Date.now() + 5_500;
  while (Date.now() < until) {
    // busy
  }
  // etcd still has the lease (a lease not renewed for its TTL is gone: TTL -1).
  const ttl = await store.client.leaseClient.leaseTimeToLive({ ID: term.key.slice(term.key.lastIndexOf('/') + 1) });
  t.true(Number(ttl.TTL) > 0, `the lease's TTL in etcd: ${ttl.TTL}`);
  await store.batch([{ type: 'put', key: 'after/held', value: '1' }]);
  t.is(lost, undefined, `the lead was lost: ${lost?.message}`);
  t.is((await election.leader())?.id, 'busy');
  await term.resign();
  await t.throwsAsync(store.batch([{ type: 'put', key: 'after/resigned', value: '1' }]), { instanceOf: FencedError });
});

test('store (etcd): a resignation that etcd does not answer gives up within its bound', async (t) => {
  if (!etcdAvailable()) return void (await etcdStore(t));
  const server = await startEtcd();
  t.teardown(() => server.stop());
  const store = new EtcdStore({ endpoints: [server.endpoint], auth: server.auth, prefix: '/resign/', timeoutMs: 2_000 });
  t.teardown(() => store.close());
  const election = new EtcdElection(store, 2);
  const term = await election.campaign({ id: 'x', api: 'http://127.0.0.1:1', grpc: '127.0.0.1:1', started: '' }, new AbortController().signal);
  await pause(server.pid);
  const started = Date.now();
  await t.throwsAsync(term.resign(), { message: /did not take the resignation/ });
  t.true(Date.now() - started < 8_000, `gave up after ${Date.now() - started} ms`);
});

test('store (etcd): a call etcd does not answer in time is unavailable (503, retry, saying why), not an internal error', async (t) => {
  if (!etcdAvailable()) return void (await etcdStore(t));
  const server = await startEtcd();
  t.teardown(() => server.stop());
  const store = new EtcdStore({ endpoints: [server.endpoint], auth: server.auth, prefix: '/slow/', timeoutMs: 1_000 });
  t.teardown(() => store.close());
  await store.batch([{ type: 'put', key: 'a', value: '1' }]);
  await pause(server.pid);
  // A write (a POST /jobs's batch) and a read, as a busy etcd answers them past the deadline.
  for (const call of [() => store.batch([{ type: 'put', key: 'b', value: '2' }]), () => store.get('a')]) {
    const err = await t.throwsAsync(call(), { instanceOf: EtcdUnavailableError });
    t.regex(err!.message, /etcd cannot take the request now \(.+\); try again/);
    const answer = toApiError(err, 'r1');
    t.is(answer.status, 503);
    t.true(answer.body.retry);
    t.false(answer.internal);
  }
  process.kill(server.pid, 'SIGCONT');
  // Once etcd answers again, so does the store (after the client's circuit breaker lets calls through).
  await eventuallyTrue(async () => (await store.get('a').catch(() => undefined)) === '1');
});

/**
 * Stops etcd (SIGSTOP: it takes connections and never answers; SIGKILL ends it at teardown) and
 * waits until it is seen stopped: a signal stops a process when it is next scheduled, and etcd
 * once answered a call sent in between (a busy machine).
 */
async function pause(pid: number): Promise<void> {
  process.kill(pid, 'SIGSTOP');
  await eventuallyTrue(async () => /^\S+ \(.*\) [Tt] /.test(readFileSync(`/proc/${pid}/stat`, 'utf8')));
}

async function eventuallyTrue(check: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('not within 10 s');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
