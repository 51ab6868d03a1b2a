import test from 'ava';
import { ThrottledError } from '../errors.js';
import { DevicePolls } from './device-flow.js';
import { identityOf, parseIdpFile, parseIdpFlag, resolveIdpOptions } from './idp.js';

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
