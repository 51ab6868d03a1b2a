import test from 'ava';
import { Mailbox, MailboxClosedError } from './mailbox.js';

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
