import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import { TokenInvalidError } from '../errors.js';
import { ManualClock } from '../util/clock.js';
import { TokenService } from './tokens.js';

async function setup() {
  const dir = await mkdtemp(join(tmpdir(), 'tokens-'));
  const clock = new ManualClock(Date.now());
  const tokens = await TokenService.open(dir, 'urn:platform:cluster:test', clock);
  return { dir, clock, tokens, cleanup: () => rm(dir, { recursive: true, force: true }) };
}

const who = { sub: 'alice@platform.local', name: 'alice', mechanism: 'basic', gen: 1 };

test('tokens: a token verifies, the key persists across opens, and another cluster refuses it', async (t) => {
  const { dir, clock, tokens, cleanup } = await setup();
  const token = await tokens.issue(who, 60);
  t.like(await tokens.verify(token), { sub: who.sub, name: 'alice', mechanism: 'basic', gen: 1 });
  const reopened = await TokenService.open(dir, 'urn:platform:cluster:test', clock);
  t.is((await reopened.verify(token)).sub, who.sub);
  const other = await TokenService.open(dir, 'urn:platform:cluster:other', clock);
  await t.throwsAsync(other.verify(token), { instanceOf: TokenInvalidError });
  await cleanup();
});

test('tokens: a remembered token still expires on time', async (t) => {
  const { clock, tokens, cleanup } = await setup();
  const token = await tokens.issue(who, 60);
  await tokens.verify(token);
  clock.advance(59_000);
  await tokens.verify(token);
  clock.advance(2_000);
  await t.throwsAsync(tokens.verify(token), { instanceOf: TokenInvalidError, message: /expired/ });
  await t.throwsAsync(tokens.verify(token), { instanceOf: TokenInvalidError, message: /expired/ });
  await cleanup();
});

test('tokens: an altered copy of a remembered token is verified in full and refused', async (t) => {
  const { tokens, cleanup } = await setup();
  const token = await tokens.issue(who, 60);
  await tokens.verify(token);
  const [h, p, s] = token.split('.');
  const payload = JSON.parse(Buffer.from(p!, 'base64url').toString()) as Record<string, unknown>;
  const altered = `${h}.${Buffer.from(JSON.stringify({ ...payload, sub: 'mallory@platform.local' })).toString('base64url')}.${s}`;
  await t.throwsAsync(tokens.verify(altered), { instanceOf: TokenInvalidError, message: /signature/ });
  await cleanup();
});

test('tokens: a token signed at once (app tokens) verifies like the others, and expires on time', async (t) => {
  const { clock, tokens, cleanup } = await setup();
  t.teardown(cleanup);
  const { token, expiresAtMs } = tokens.issueSync({ sub: 'job::/a::web', name: 'job::/a::web', mechanism: 'app', job: 'j1' }, 60);
  t.like(await tokens.verify(token), { sub: 'job::/a::web', mechanism: 'app', job: 'j1', aud: 'urn:platform:cluster:test', iss: 'urn:platform:cluster:test' });
  t.is(expiresAtMs, (Math.floor(clock.nowMs() / 1000) + 60) * 1000);
  const fresh = tokens.issueSync({ sub: 'job::/a::web', name: 'job::/a::web', mechanism: 'app' }, 60).token;
  clock.advance(61_000);
  await t.throwsAsync(tokens.verify(fresh), { instanceOf: TokenInvalidError, message: /expired/ });
});
