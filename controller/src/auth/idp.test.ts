import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import test, { type ExecutionContext } from 'ava';
import { DestinationPolicy, parseAllowList, silentLogger } from '@platform/proto/common';
import { BadGatewayError, ThrottledError } from '../errors.js';
import { DevicePolls, DeviceSources } from './device-flow.js';
import { IdentityProvider, identityOf, MAX_ANSWER_BYTES, parseIdpFile, parseIdpFlag, resolveIdpOptions } from './idp.js';

const files: Record<string, string> = { '/s': 'shh\n' };
const read = (path: string) => {
  if (!(path in files)) throw new Error(`ENOENT: ${path}`);
  return files[path]!;
};

test('idp options: the --idp flag and the file, checked at start with clear messages', (t) => {
  t.deepEqual(parseIdpFlag('name=corp,issuer=https://id.example.com/,client-id=c,client-secret-file=/s,scopes=email groups', read), {
    name: 'corp', issuer: 'https://id.example.com/', clientId: 'c', clientSecret: 'shh', scopes: ['email', 'groups'], displayName: undefined, timeoutMs: undefined,
  });
  t.deepEqual(resolveIdpOptions(parseIdpFlag('name=corp,issuer=https://id.example.com/,client-id=c', read)).scopes, ['openid', 'email', 'profile', 'offline_access']);
  t.deepEqual(resolveIdpOptions(parseIdpFlag('name=corp,issuer=https://id.example.com/,client-id=c,scopes=email', read)).scopes, ['openid', 'email']);
  t.throws(() => parseIdpFlag('name=ldap,issuer=https://x,client-id=c', read), { message: /identity provider name "ldap"/ });
  t.throws(() => parseIdpFlag('name=Corp,issuer=https://x,client-id=c', read), { message: /1 to 32 of a-z/ });
  t.throws(() => parseIdpFlag('name=corp,issuer=ftp://x,client-id=c', read), { message: /is not http\(s\)/ });
  t.throws(() => parseIdpFlag('name=corp,issuer=https://x', read), { message: /name, issuer and client id are required/ });
  t.throws(() => parseIdpFlag('name=corp,issuer=https://x,client-id=c,colour=red', read), { message: /unknown key "colour"/ });
  t.throws(() => parseIdpFlag('name=corp,issuer=https://x,client-id=c,client-secret-file=/missing', read), { message: /cannot read the client secret file \/missing/ });
  const list = parseIdpFile(JSON.stringify([{ name: 'a', issuer: 'http://127.0.0.1:1', client_id: 'x', client_secret: 'y', timeout_ms: 500 }]), read, 'idps.json');
  t.like(list[0], { name: 'a', clientSecret: 'y', timeoutMs: 500 });
  t.throws(() => parseIdpFile('{}', read, 'idps.json'), { message: 'idps.json must hold a JSON array of identity providers' });
  t.throws(() => parseIdpFile('[{"name":"a","issuer":"http://x","client_id":"x","timeout_ms":5}]', read, 'idps.json'), { message: /idps.json\[0\]: timeout_ms must be/ });
});

test('idp identity: the verified e-mail (lower case) is the name, else the subject; groups are several values', (t) => {
  t.deepEqual(identityOf({ sub: 's1', iss: 'https://i', email: 'Ann@Example.COM', email_verified: true, groups: ['a', 'b', 3] }), {
    name: 'ann@example.com',
    subject: 's1',
    claims: { sub: 's1', email: 'ann@example.com', email_domain: 'example.com', issuer: 'https://i', group: ['a', 'b'] },
  });
  t.is(identityOf({ sub: 's2', email: 'x@y.z', email_verified: false }).name, 's2');
  t.false('email' in identityOf({ sub: 's2', email: 'x@y.z', email_verified: false }).claims);
});

test('device polls: a poll before the interval is told to slow down and waits 5 s more; an expired code is refused', (t) => {
  let now = 0;
  const polls = new DevicePolls(() => now);
  polls.issued('c', 5, 60);
  t.notThrows(() => polls.poll('c'));
  now = 1_000;
  const err = t.throws(() => polls.poll('c'), { instanceOf: ThrottledError, message: /polling too fast: wait 10 s/ });
  t.is(err?.tryAgainInMs, 10_000);
  now = 11_000;
  t.notThrows(() => polls.poll('c'));
  now = 15_000;
  t.throws(() => polls.poll('c'), { message: /wait 15 s/ });
  now = 61_000;
  t.throws(() => polls.poll('c'), { message: /the device code has expired/ });
  t.notThrows(() => polls.poll('unknown'), 'a code it did not hand out is the provider\'s to judge');
});

/**
 * A provider on loopback answering `routes` by path (a function of its own port); every request
 * it gets is recorded.
 */
async function provider(t: ExecutionContext, routes: (port: number) => Record<string, unknown>): Promise<{ port: number; seen: string[]; server: Server }> {
  const seen: string[] = [];
  let port = 0;
  const server = createServer((req, res) => {
    seen.push(`${req.method} ${req.url}`);
    const answer = routes(port)[req.url ?? ''];
    res.writeHead(answer === undefined ? 404 : 200, { 'content-type': 'application/json' });
    res.end(typeof answer === 'string' ? answer : JSON.stringify(answer ?? { error: 'not_found' }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
  t.teardown(() => {
    server.closeAllConnections();
    server.close();
  });
  return { port, seen, server };
}

const rule = (allow: string) => new DestinationPolicy({ purpose: 'identity providers', setting: '--allowed-destinations', allow: parseAllowList(allow) });
const discovery = (issuer: string, endpoints: string) => ({
  issuer,
  token_endpoint: `${endpoints}/token`,
  jwks_uri: `${endpoints}/jwks`,
  device_authorization_endpoint: `${endpoints}/device`,
});
const deviceAnswer = { device_code: 'dc', user_code: 'ABCD-EFGH', verification_uri: 'https://idp.example/device', expires_in: 600, interval: 5 };

test('idp destinations: a provider on loopback is refused (502, the setting named) unless listed, judged after DNS; nothing is sent to it', async (t) => {
  const p = await provider(t, (port) => ({ '/.well-known/openid-configuration': discovery(`http://localhost:${port}`, `http://localhost:${port}`), '/device': deviceAnswer }));
  for (const issuer of [`http://localhost:${p.port}`, `http://127.0.0.1:${p.port}`]) {
    const idp = new IdentityProvider({ name: 'corp', issuer, clientId: 'c' }, silentLogger, rule(''));
    const err = await t.throwsAsync(idp.deviceCode(undefined));
    t.true(err instanceof BadGatewayError, String(err));
    t.regex(err!.message, /identity provider corp may not be reached \(its discovery document\): identity providers may not reach .*127\.0\.0\.1.*loopback.*--allowed-destinations/);
  }
  t.deepEqual(p.seen, [], 'the provider was never asked');
  // Listed by name: reached.
  const listed = new IdentityProvider({ name: 'corp', issuer: `http://localhost:${p.port}`, clientId: 'c' }, silentLogger, rule('localhost'));
  t.is((await listed.deviceCode(undefined)).user_code, 'ABCD-EFGH');
  t.deepEqual(p.seen, ['GET /.well-known/openid-configuration', 'POST /device']);
});

test('idp destinations: the endpoints a discovery document names are judged too (a listed issuer cannot send the controller to the metadata address or loopback)', async (t) => {
  for (const endpoints of ['http://169.254.169.254', 'http://127.0.0.1:1', 'file://', 'not a url']) {
    const p = await provider(t, (port) => ({ '/.well-known/openid-configuration': discovery(`http://localhost:${port}`, endpoints) }));
    const idp = new IdentityProvider({ name: 'corp', issuer: `http://localhost:${p.port}`, clientId: 'c', timeoutMs: 2_000 }, silentLogger, rule('localhost'));
    const err = await t.throwsAsync(idp.deviceCode(undefined));
    t.true(err instanceof BadGatewayError, String(err));
    t.regex(err!.message, endpoints.startsWith('http') ? /may not be reached \(the device code\)/ : /named a URL that is not http\(s\)/);
    t.deepEqual(p.seen, ['GET /.well-known/openid-configuration']);
  }
});

test('idp answers: an answer over MAX_ANSWER_BYTES is a 502, not read whole', async (t) => {
  const big = JSON.stringify({ pad: 'x'.repeat(MAX_ANSWER_BYTES) });
  const p = await provider(t, () => ({ '/.well-known/openid-configuration': big }));
  const idp = new IdentityProvider({ name: 'corp', issuer: `http://127.0.0.1:${p.port}`, clientId: 'c' }, silentLogger, rule('127.0.0.1'));
  const err = await t.throwsAsync(idp.deviceCode(undefined));
  t.true(err instanceof BadGatewayError, String(err));
  t.regex(err!.message, /answered more than 1048576 bytes/);
});

test('device sources: at most LIMITS[kind] calls a minute per provider, kind and address (IPv6 by its /64); a refusal counts nothing and says when to try again', (t) => {
  let now = 1_000_000;
  const sources = new DeviceSources(() => now);
  for (let i = 0; i < DeviceSources.LIMITS.getcode; i++) sources.take('corp', 'getcode', '2001:db8::1');
  const err = t.throws(() => sources.take('corp', 'getcode', '2001:db8::2'), { instanceOf: ThrottledError });
  t.is(err!.tryAgainInMs, 60_000);
  // Another provider, kind or /64 counts apart.
  t.notThrows(() => sources.take('other', 'getcode', '2001:db8::1'));
  t.notThrows(() => sources.take('corp', 'poll', '2001:db8::1'));
  t.notThrows(() => sources.take('corp', 'getcode', '2001:db8:0:1::1'));
  now += 59_000;
  t.is(t.throws(() => sources.take('corp', 'getcode', '2001:db8::1'), { instanceOf: ThrottledError })!.tryAgainInMs, 1_000);
  now += 1_000;
  t.notThrows(() => sources.take('corp', 'getcode', '2001:db8::1'), 'a new window');
});

test('idp device codes: a provider\'s verification URL must be http(s) (the console links it) and its codes bounded; anything else is a 502', async (t) => {
  const answers: Record<string, unknown>[] = [
    { ...deviceAnswer, verification_uri: 'javascript:alert(document.cookie)' },
    { ...deviceAnswer, verification_uri_complete: 'data:text/html,<script>alert(1)</script>' },
    { ...deviceAnswer, device_code: 'x'.repeat(4097) },
    { ...deviceAnswer, user_code: '' },
  ];
  for (const answer of answers) {
    const p = await provider(t, (port) => ({ '/.well-known/openid-configuration': discovery(`http://127.0.0.1:${port}`, `http://127.0.0.1:${port}`), '/device': answer }));
    const idp = new IdentityProvider({ name: 'corp', issuer: `http://127.0.0.1:${p.port}`, clientId: 'c' }, silentLogger, rule('127.0.0.1'));
    const err = await t.throwsAsync(idp.deviceCode(undefined));
    t.true(err instanceof BadGatewayError, String(err));
    t.regex(err!.message, /identity provider corp answered an unusable device code \(.+\)/);
  }
});
