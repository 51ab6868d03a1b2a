import test from 'ava';
import { Mailbox, MailboxClosedError, SLICE_MS } from './mailbox.js';

const tick = () => new Promise((r) => setImmediate(r));

test('mailbox: runs work one at a time, in the order posted', async (t) => {
  const box = new Mailbox();
  const log: string[] = [];
  let running = 0;
  let maxRunning = 0;
  const work = (name: string) => async () => {
    running++;
    maxRunning = Math.max(maxRunning, running);
    log.push(`start ${name}`);
    await tick();
    log.push(`end ${name}`);
    running--;
    return name;
  };
  const results = await Promise.all(['a', 'b', 'c'].map((n) => box.post(work(n))));
  t.deepEqual(results, ['a', 'b', 'c']);
  t.is(maxRunning, 1);
  t.deepEqual(log, ['start a', 'end a', 'start b', 'end b', 'start c', 'end c']);
});

test('mailbox: a failing item rejects only its own promise', async (t) => {
  const box = new Mailbox();
  const first = box.post(async () => {
    throw new Error('boom');
  });
  const second = box.post(async () => 42);
  await t.throwsAsync(first, { message: 'boom' });
  t.is(await second, 42);
});

test('mailbox: depth counts queued and running work', async (t) => {
  const box = new Mailbox();
  let release!: () => void;
  const gate = new Promise<void>((r) => (release = r));
  const a = box.post(() => gate);
  const b = box.post(async () => undefined);
  t.is(box.depth, 2);
  release();
  await Promise.all([a, b]);
  t.is(box.depth, 0);
});

test('mailbox: close waits for earlier work and refuses later work', async (t) => {
  const box = new Mailbox();
  const done: string[] = [];
  const early = box.post(async () => {
    await tick();
    done.push('early');
  });
  const closed = box.close();
  await t.throwsAsync(box.post(async () => done.push('late')), { instanceOf: MailboxClosedError });
  await closed;
  await early;
  t.deepEqual(done, ['early']);
  t.true(box.closed);
});

test('mailbox: values of one kind posted while it is busy run as one batch, in order, after the work before them and before the work after', async (t) => {
  const box = new Mailbox();
  const kind = {};
  const log: string[] = [];
  let release!: () => void;
  const gate = new Promise<void>((r) => (release = r));
  const first = box.post(async () => {
    await gate;
    log.push('first');
  });
  const run = async (values: number[]) => {
    log.push(`batch ${values.join(',')}`);
  };
  const one = box.postBatch(kind, 1, run);
  const two = box.postBatch(kind, 2, run);
  const other = box.post(async () => void log.push('other'));
  const three = box.postBatch(kind, 3, run);
  const four = box.postBatch({}, 4, run);
  t.is(box.depth, 5, 'first, [1,2], other, [3], [4] (another kind)');
  release();
  await Promise.all([first, one, two, other, three, four]);
  t.deepEqual(log, ['first', 'batch 1,2', 'other', 'batch 3', 'batch 4']);
});

test('mailbox: a batch that has started takes no more values, and its failure is every caller\'s', async (t) => {
  const box = new Mailbox();
  const kind = {};
  let release!: () => void;
  const gate = new Promise<void>((r) => (release = r));
  const seen: number[][] = [];
  const run = async (values: number[]) => {
    seen.push([...values]);
    await gate;
    if (values.includes(2)) throw new Error('bad 2');
  };
  const one = box.postBatch(kind, 1, run); // starts at once: the mailbox was idle
  const two = box.postBatch(kind, 2, run);
  const three = box.postBatch(kind, 3, run);
  release();
  await one;
  await t.throwsAsync(two, { message: 'bad 2' });
  await t.throwsAsync(three, { message: 'bad 2' });
  t.deepEqual(seen, [[1], [2, 3]]);
  box.close();
  await t.throwsAsync(box.postBatch(kind, 4, run), { instanceOf: MailboxClosedError });
});

test('mailbox: once the work of a turn has taken SLICE_MS, background items wait for a later turn and other items start at once', async (t) => {
  await tick(); // a turn of its own
  const [a, b, c] = [new Mailbox(), new Mailbox(), new Mailbox()];
  const log: string[] = [];
  void a.post(async () => {
    const end = performance.now() + SLICE_MS + 5;
    while (performance.now() < end); // the slice spent
    log.push('a');
  }, true);
  const later = b.post(async () => void log.push('b'), true);
  const now = c.post(async () => void log.push('c'));
  t.deepEqual(log, ['a', 'c'], 'the background item of b waits; the request of c does not');
  await Promise.all([later, now]);
  t.deepEqual(log, ['a', 'c', 'b']);
});
