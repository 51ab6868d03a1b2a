import test from 'ava';
import { ManualClock } from '../util/clock.js';
import { LeaseKeeper, renewEveryMs } from './lease-keeper.js';

test('lease keeper: renews earlier than the client\'s TTL/3, at most every second', (t) => {
  t.is(renewEveryMs(5_000), 1_000);
  t.is(renewEveryMs(2_000), 500);
  t.true(renewEveryMs(3_000) < 3_000 / 3);
});

test('lease keeper: renews each interval while the main thread is heard from, and stops once it has been silent for twice the TTL', async (t) => {
  const clock = new ManualClock();
  let sent = 0;
  const keeper = new LeaseKeeper({ clock, ttlMs: 5_000, renew: async () => (sent++, 5) });
  // Busy main thread: heard of now and then, the lease renewed every second meanwhile.
  for (let s = 1; s <= 30; s++) {
    clock.advance(1_000);
    if (s % 8 === 0) keeper.heard();
    await keeper.tick();
  }
  t.is(sent, 30);
  t.is(keeper.ended, undefined);
  // Silent from here (last heard at 24 s): renewed until 10 s have passed, then no more.
  for (let s = 31; s <= 40; s++) {
    clock.advance(1_000);
    await keeper.tick();
  }
  // 31 to 34 s: silent for 7 to 10 s, still renewed; at 35 s, 11 s: no more.
  t.is(sent, 34);
  t.is(keeper.ended, 'the controller\'s main thread has not answered for 11000 ms');
  keeper.heard();
  await keeper.tick();
  t.is(sent, 34, 'an ended keeper renews no more');
});

test('lease keeper: stops when etcd says the lease is gone; a failed renewal is tried again; one renewal at a time', async (t) => {
  const clock = new ManualClock();
  const answers: (() => void)[] = [];
  let answer: number | Error = 5;
  let sent = 0;
  const keeper = new LeaseKeeper({
    clock,
    ttlMs: 5_000,
    renew: () => {
      sent++;
      return new Promise<number>((resolve, reject) => answers.push(() => (answer instanceof Error ? reject(answer) : resolve(answer))));
    },
  });
  const first = keeper.tick();
  // Not answered yet: the next interval does not send another.
  clock.advance(1_000);
  await keeper.tick();
  t.is(sent, 1);
  answers.shift()!();
  await first;
  t.is(keeper.renewed, 1);
  answer = new Error('etcd did not answer');
  const failing = keeper.tick();
  answers.shift()!();
  await failing;
  t.is(keeper.ended, undefined);
  answer = 0;
  const gone = keeper.tick();
  answers.shift()!();
  await gone;
  t.is(sent, 3);
  t.is(keeper.ended, 'etcd says the lease is gone');
  await keeper.tick();
  t.is(sent, 3);
});

test('lease keeper: the lease is taken for lost once no renewal has been answered for twice its TTL', async (t) => {
  const clock = new ManualClock();
  let up = true;
  let sent = 0;
  const attempts: { ms: number; failed?: string }[] = [];
  const keeper = new LeaseKeeper({ clock, ttlMs: 5_000, renew: async () => (sent++, up ? 5 : Promise.reject(new Error('etcd unreachable'))), attempt: (a) => attempts.push(a) });
  await keeper.tick();
  t.deepEqual(attempts, [], 'a renewal answered at once is not told');
  t.is(keeper.renewed, 1);
  // etcd unreachable from 1 s on: renewals fail, then 10 s after the last answered one, lost.
  up = false;
  for (let s = 1; s <= 9; s++) {
    clock.advance(1_000);
    keeper.heard();
    await keeper.tick();
    t.is(keeper.ended, undefined, `at ${s} s`);
  }
  clock.advance(1_000);
  keeper.heard();
  await keeper.tick();
  // The loss says why: what the last renewal met.
  t.is(keeper.ended, 'etcd has not renewed the lease for 10000 ms (its TTL is 5000 ms; the last renewal failed: etcd unreachable)');
  t.is(sent, 10);
  t.is(attempts.length, 9, 'each failed renewal is told');
  t.deepEqual(attempts[0], { ms: 0, failed: 'etcd unreachable' });
  // A renewal that hangs counts the same: the TTL runs from the last answered one.
  const hanging = new LeaseKeeper({ clock, ttlMs: 5_000, renew: () => new Promise<number>(() => undefined) });
  void hanging.tick();
  clock.advance(9_999);
  hanging.heard();
  await hanging.tick();
  t.is(hanging.ended, undefined);
  clock.advance(1);
  await hanging.tick();
  t.is(hanging.ended, 'etcd has not renewed the lease for 10000 ms (its TTL is 5000 ms; a renewal is still unanswered)');
});

test('lease keeper: a renewal answered later than the interval is told, with how long it took', async (t) => {
  const clock = new ManualClock();
  const attempts: { ms: number; failed?: string }[] = [];
  let answer: (() => void) | undefined;
  const keeper = new LeaseKeeper({
    clock,
    ttlMs: 5_000,
    renew: () => new Promise<number>((resolve) => (answer = () => resolve(5))),
    attempt: (a) => attempts.push(a),
  });
  const tick = keeper.tick();
  clock.advance(2_500);
  answer!();
  await tick;
  t.deepEqual(attempts, [{ ms: 2_500 }]);
  t.is(keeper.renewed, 1);
});
