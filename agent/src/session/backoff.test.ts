import test from 'ava';
import { Backoff } from './backoff.js';

test('backoff: doubles from the base, capped at 5 s, jittered between half and all, reset after a session', (t) => {
  const lo = new Backoff(200, 5000, () => 0);
  const hi = new Backoff(200, 5000, () => 1);
  t.deepEqual(Array.from({ length: 8 }, () => lo.next()), [100, 200, 400, 800, 1600, 2500, 2500, 2500]);
  t.deepEqual(Array.from({ length: 8 }, () => hi.next()), [200, 400, 800, 1600, 3200, 5000, 5000, 5000]);
  hi.reset();
  t.is(hi.next(), 200);
  t.is(hi.max(), 5000);
});
