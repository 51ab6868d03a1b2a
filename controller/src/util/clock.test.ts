import test from 'ava';
import { formatTimestampNs, ManualClock, SystemClock } from './clock.js';

test('clock: timestamps carry nine fractional digits', (t) => {
  t.is(formatTimestampNs(1_700_000_000_123_456_789n), '2023-11-14T22:13:20.123456789Z');
  t.is(formatTimestampNs(1_700_000_000_000_000_001n), '2023-11-14T22:13:20.000000001Z');
});

test('clock: the system clock never repeats a nanosecond', (t) => {
  const clock = new SystemClock();
  let last = 0n;
  for (let i = 0; i < 10_000; i++) {
    const now = clock.nowNs();
    t.true(now > last);
    last = now;
  }
});

test('clock: the manual clock moves when told', (t) => {
  const clock = new ManualClock(1000);
  t.is(clock.nowMs(), 1000);
  clock.advance(250);
  t.is(clock.nowMs(), 1250);
});
