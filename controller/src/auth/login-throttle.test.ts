import test from 'ava';
import { AuthenticationError, ThrottledError, UnavailableError } from '../errors.js';
import { ManualClock } from '../util/clock.js';
import { LoginThrottle } from './login-throttle.js';

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
