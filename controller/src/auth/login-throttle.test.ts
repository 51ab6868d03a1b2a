import test from 'ava';
import { AuthenticationError, ThrottledError, UnavailableError } from '../errors.js';
import { ManualClock } from '../util/clock.js';
import { LoginThrottle, SOURCE_FREE_FAILURES, sourceKey } from './login-throttle.js';

const wrong = () => Promise.reject(new AuthenticationError('wrong user name or password'));

test('login throttle: three free failures, then doubling waits; a success clears the count', async (t) => {
  const clock = new ManualClock();
  const throttle = new LoginThrottle(clock);
  for (let i = 0; i < 3; i++) await t.throwsAsync(throttle.attempt('alice', wrong), { instanceOf: AuthenticationError });
  const slowed = await t.throwsAsync(throttle.attempt('alice', () => Promise.resolve('ok')), { instanceOf: ThrottledError });
  t.is(slowed.tryAgainInMs, 1000);
  await t.notThrowsAsync(throttle.attempt('bob', () => Promise.resolve('ok')), 'other names are not slowed');
  clock.advance(1000);
  await t.throwsAsync(throttle.attempt('alice', wrong), { instanceOf: AuthenticationError });
  t.is((await t.throwsAsync(throttle.attempt('alice', wrong), { instanceOf: ThrottledError })).tryAgainInMs, 2000);
  clock.advance(2000);
  t.is(await throttle.attempt('alice', () => Promise.resolve('ok')), 'ok');
  await t.throwsAsync(throttle.attempt('alice', wrong), { instanceOf: AuthenticationError });
  await t.throwsAsync(throttle.attempt('alice', wrong), { instanceOf: AuthenticationError }, 'the count started again');
});

test('login throttle: failures that say nothing about the password do not count', async (t) => {
  const throttle = new LoginThrottle(new ManualClock());
  for (let i = 0; i < 10; i++) {
    await t.throwsAsync(throttle.attempt('alice', () => Promise.reject(new UnavailableError('directory down', 1000))), { instanceOf: UnavailableError });
  }
  t.is(await throttle.attempt('alice', () => Promise.resolve('ok')), 'ok');
});

test('login throttle: parallel attempts for one name run one at a time, so a burst is throttled too', async (t) => {
  const throttle = new LoginThrottle(new ManualClock());
  let running = 0;
  let most = 0;
  const slowWrong = async () => {
    running++;
    most = Math.max(most, running);
    await new Promise((r) => setImmediate(r));
    running--;
    throw new AuthenticationError('wrong user name or password');
  };
  const results = await Promise.allSettled(Array.from({ length: 10 }, () => throttle.attempt('alice', slowWrong)));
  t.is(most, 1);
  const reasons = results.map((r) => (r.status === 'rejected' ? (r.reason as Error).name : 'fulfilled'));
  t.deepEqual(reasons.slice(0, 3), ['AuthenticationError', 'AuthenticationError', 'AuthenticationError']);
  t.true(reasons.slice(3).every((n) => n === 'ThrottledError'));
});

test('login throttle: clear forgets a name, and the number of names remembered is bounded', async (t) => {
  const throttle = new LoginThrottle(new ManualClock(), 2);
  for (let i = 0; i < 3; i++) await t.throwsAsync(throttle.attempt('alice', wrong));
  await t.throwsAsync(throttle.attempt('alice', wrong), { instanceOf: ThrottledError });
  throttle.clear('alice');
  await t.throwsAsync(throttle.attempt('alice', wrong), { instanceOf: AuthenticationError });
  await t.throwsAsync(throttle.attempt('bob', wrong));
  await t.throwsAsync(throttle.attempt('carol', wrong));
  for (let i = 0; i < 3; i++) await t.throwsAsync(throttle.attempt('alice', wrong), { instanceOf: AuthenticationError }, 'alice was forgotten first');
});

test('login throttle: one source spraying many names is slowed after its free failures; other sources are not', async (t) => {
  const clock = new ManualClock();
  const throttle = new LoginThrottle(clock);
  for (let i = 0; i < SOURCE_FREE_FAILURES; i++) {
    await t.throwsAsync(throttle.attempt(`user${i}`, wrong, '192.0.2.7'), { instanceOf: AuthenticationError });
  }
  const slowed = await t.throwsAsync(throttle.attempt('someone-else', () => Promise.resolve('ok'), '192.0.2.7'), { instanceOf: ThrottledError });
  t.is(slowed.tryAgainInMs, 1000);
  t.regex(slowed.message, /from this address/);
  t.is(await throttle.attempt('someone-else', () => Promise.resolve('ok'), '192.0.2.8'), 'ok', 'another address is not slowed');
  t.is(await throttle.attempt('someone-else', () => Promise.resolve('ok'), '::ffff:192.0.2.9'), 'ok');
  clock.advance(1000);
  t.is(await throttle.attempt('someone-else', () => Promise.resolve('ok'), '192.0.2.7'), 'ok', 'a success does not count');
  await t.throwsAsync(throttle.attempt('next', wrong, '192.0.2.7'), { instanceOf: AuthenticationError });
  t.is((await t.throwsAsync(throttle.attempt('next2', wrong, '192.0.2.7'), { instanceOf: ThrottledError })).tryAgainInMs, 2000, 'the wait doubles');
  clock.advance(2000);
  t.is(await throttle.attempt('x', () => Promise.resolve('ok'), '192.0.2.7'), 'ok', 'nor did the success clear the count');
  await t.throwsAsync(throttle.attempt('y', wrong, '192.0.2.7'), { instanceOf: AuthenticationError });
  t.is((await t.throwsAsync(throttle.attempt('z', wrong, '192.0.2.7'), { instanceOf: ThrottledError })).tryAgainInMs, 4000);
});

test('login throttle: a parallel burst from one source over many names is counted before it is checked', async (t) => {
  const throttle = new LoginThrottle(new ManualClock());
  const slowWrong = async () => {
    await new Promise((r) => setImmediate(r));
    throw new AuthenticationError('wrong user name or password');
  };
  const results = await Promise.allSettled(Array.from({ length: 100 }, (_, i) => throttle.attempt(`u${i}`, slowWrong, '2001:db8:1:2:3:4:5:6')));
  const names = results.map((r) => (r.status === 'rejected' ? (r.reason as Error).name : 'fulfilled'));
  t.is(names.filter((n) => n === 'AuthenticationError').length, SOURCE_FREE_FAILURES);
  t.is(names.filter((n) => n === 'ThrottledError').length, 100 - SOURCE_FREE_FAILURES);
  // The rest of the same /64 is the same source.
  await t.throwsAsync(throttle.attempt('v', wrong, '2001:db8:1:2::99'), { instanceOf: ThrottledError });
});

test('login throttle: source keys', (t) => {
  t.is(sourceKey('192.0.2.1'), '192.0.2.1');
  t.is(sourceKey('::ffff:192.0.2.1'), '192.0.2.1');
  t.is(sourceKey('2001:db8:0:1::5'), '2001:db8:0:1::/64');
  t.is(sourceKey('2001:0DB8:0000:0001:aaaa:bbbb:cccc:dddd'), '2001:db8:0:1::/64');
  t.is(sourceKey('::1'), '0:0:0:0::/64');
  t.is(sourceKey('fe80::1%eth0'), 'fe80:0:0:0::/64');
});
