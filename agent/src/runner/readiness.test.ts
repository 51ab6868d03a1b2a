import test from 'ava';
import { awaitListening, EARLY_POLL_MS, EARLY_SHARED, nextWait } from './readiness.js';

test('readiness: the looks come sooner at first, then at most EARLY_POLL_MS apart in the first second, then up to pollMs', (t) => {
  t.is(nextWait(5, 100, true, 1), 7.5);
  t.is(nextWait(16, 100, true, 1), EARLY_POLL_MS);
  t.is(nextWait(20, 100, true, 1), EARLY_POLL_MS);
  t.is(nextWait(20, 100, false, 1), 30);
  t.is(nextWait(90, 100, false, 1), 100);
  // pollMs below the early cap wins.
  t.is(nextWait(20, 10, true, 1), 10);
});

test('readiness: with many starts waiting at once, each looks less often in its first second (all of them about as often as EARLY_SHARED would), never less than pollMs allows', (t) => {
  t.is(nextWait(20, 100, true, EARLY_SHARED), EARLY_POLL_MS);
  t.is(nextWait(40, 100, true, 2 * EARLY_SHARED), 2 * EARLY_POLL_MS);
  t.is(nextWait(200, 100, true, 4 * EARLY_SHARED), 80);
  t.is(nextWait(200, 100, true, 10 * EARLY_SHARED), 100);
  t.is(nextWait(20, 100, true, 4 * EARLY_SHARED), 30);
});

test('readiness: ready once every required port listens; gone when the wait is moot; timeout names the missing port', async (t) => {
  // The waits between looks do not keep a process alive (unref'd): this does, meanwhile.
  const alive = setInterval(() => {}, 1000);
  t.teardown(() => clearInterval(alive));
  let looks = 0;
  let clock = 0;
  const ready = await awaitListening({
    required: [80, 81], deadlineMs: 10_000, now: () => clock, pollMs: 10, gone: () => false,
    listening: async () => new Set(++looks >= 3 ? [80, 81] : [80]),
  });
  t.deepEqual(ready, { kind: 'ready' });
  t.is(looks, 3);
  const gone = await awaitListening({ required: [80], deadlineMs: 10_000, now: () => clock, pollMs: 10, gone: () => true, listening: async () => new Set() });
  t.deepEqual(gone, { kind: 'gone' });
  const timeout = await awaitListening({ required: [80, 81], deadlineMs: 5, now: () => (clock += 10), pollMs: 10, gone: () => false, listening: async () => new Set([80]) });
  t.deepEqual(timeout, { kind: 'timeout', missing: 81 });
});
