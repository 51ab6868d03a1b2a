import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import { TokenInvalidError } from '../errors.js';
import { ManualClock } from '../util/clock.js';
import { authenticate } from './authenticate.js';
import { TokenService } from './tokens.js';
import type { UserService } from './users.js';

type Mw = (ctx: unknown, next: () => Promise<void>) => Promise<void>;

/** A request of a connection (`socket`) with this Authorization header, as the middleware reads it. */
function request(socket: object, header: string) {
  return { path: '/jobs', get: (name: string) => (name === 'Authorization' ? header : ''), req: { socket }, state: {} as Record<string, unknown> };
}

test('authenticate: a connection repeating its header is still refused once the token expires, and another header on it is verified afresh', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'authenticate-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  const clock = new ManualClock(Date.now());
  const tokens = await TokenService.open(dir, 'urn:platform:cluster:test', clock);
  // LDAP tokens: no user record is read, so only the token decides.
  const mw = authenticate(tokens, {} as UserService, { ldapEnabled: true }) as unknown as Mw;
  const token = await tokens.issue({ sub: 'bob@ldap.platform.local', name: 'bob', mechanism: 'ldap' }, 60);
  const socket = {};
  let reached = 0;
  const next = async () => void reached++;
  const first = request(socket, `Bearer ${token}`);
  await mw(first, next);
  t.is(first.state['principal'], 'bob@ldap.platform.local');
  await mw(request(socket, `Bearer ${token}`), next);
  t.is(reached, 2);
  // Altered on the same connection: not the remembered text, verified in full and refused.
  // One character of the signature changed, away from its end (the last character of a
  // base64url signature carries padding bits: changing only those would leave the bytes alone).
  const at = token.length - 10;
  const altered = `${token.slice(0, at)}${token[at] === 'A' ? 'B' : 'A'}${token.slice(at + 1)}`;
  await t.throwsAsync(mw(request(socket, `Bearer ${altered}`), next), { instanceOf: TokenInvalidError });
  await mw(request(socket, `Bearer ${token}`), next);
  t.is(reached, 3);
  clock.advance(61_000);
  await t.throwsAsync(mw(request(socket, `Bearer ${token}`), next), { instanceOf: TokenInvalidError, message: /expired/ });
  t.is(reached, 3);
});
