import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import test from 'ava';
import type { ApiErrorBody, Job } from '@platform/controller';
import { unique } from '../harness/fixtures.js';
import { ApiClient, basicAuth as basic, type TokenReply } from '../harness/http.js';
import { decodePayload, decodeUserinfo, encodeUnsigned, privateKeyFromJwk, randomEs256Key, signEs256, signHs256 } from '../harness/jwt.js';
import { useController } from '../harness/suite.js';
import { rawRequest } from '../harness/upload.js';
import { eventually } from '../harness/wait.js';

const suite = useController(test, { args: ['--domain', 'example.test'] });

async function signingKey() {
  const raw = await readFile(join(suite.controller().dataDir, 'auth', 'token-signing-key.jwk'), 'utf8');
  return JSON.parse(raw) as { private: object; public: object };
}

const makeUser = (name: string, password = 'correct horse battery') => suite.api().createUser(name, password);

test('auth: the token endpoint answers a JWT and sets the token and userinfo cookies', async (t) => {
  const anonymous = new ApiClient(suite.controller().url);
  const r = await anonymous.post<TokenReply>('/v1/oauth2/token', undefined, { headers: { authorization: basic('admin', 'test-admin-password') } });
  t.is(r.status, 200);
  t.is(r.headers.get('content-type'), 'application/json; charset=utf-8');
  t.deepEqual(Object.keys(r.body).sort(), ['access_token', 'expires_in', 'token_type']);
  t.is(r.body.expires_in, '86400');
  t.is(r.body.token_type, 'JWT');
  const claims = decodePayload(r.body.access_token);
  t.is(claims['sub'], 'admin@platform.local');
  t.is(Number(claims['exp']) - Number(claims['iat']), 86400);
  const cookies = r.headers.getSetCookie();
  t.true(cookies.some((c) => c.startsWith(`token=${r.body.access_token};`) && c.includes('HttpOnly')));
  const userinfo = cookies.find((c) => c.startsWith('userinfo='))!;
  const info = decodeUserinfo(userinfo);
  t.is(info['name'], 'admin');
  t.is(info['principal'], 'admin@platform.local');

  const api = anonymous.withHeaders({ authorization: `Bearer ${r.body.access_token}` });
  const job = await api.post<Job>('/jobs', { fqn: `job::/auth::${unique()}` });
  t.is(job.body.created_by, 'admin@platform.local');
});

test('auth: requests without a valid bearer token are refused with 401 token_invalid', async (t) => {
  const anonymous = new ApiClient(suite.controller().url);
  for (const [method, path] of [['GET', '/jobs'], ['GET', '/v1/info'], ['POST', '/packages'], ['GET', '/v1/users'], ['GET', '/nowhere']]) {
    const r = await anonymous.request<ApiErrorBody>(method!, path!);
    t.is(r.status, 401, `${method} ${path}`);
    t.true(r.body.token_invalid);
    t.regex(r.headers.get('www-authenticate') ?? '', /^Bearer/);
  }
  for (const header of ['Bearer', 'Bearer not-a-jwt', 'Bearer a.b.c', 'Token abc', 'Basic ' + Buffer.from('admin:test-admin-password').toString('base64')]) {
    const r = await anonymous.get<ApiErrorBody>('/jobs', { headers: { authorization: header } });
    t.is(r.status, 401, header);
    t.true(r.body.token_invalid, header);
  }
  t.is((await anonymous.get('/metrics')).status, 200);
});

test('auth: forged, altered, foreign and expired tokens are refused', async (t) => {
  const api = suite.api();
  const good = api.defaultHeaders['authorization']!.slice('Bearer '.length);
  const claims = decodePayload(good);
  const keys = await signingKey();
  const now = Math.floor(Date.now() / 1000);
  const [header, , signature] = good.split('.');
  const forged: [string, string, RegExp][] = [
    ['alg none', `${encodeUnsigned({ alg: 'none', typ: 'JWT' }, claims)}.`, /not signed with ES256|malformed/],
    ['HS256 keyed with the public key', signHs256({ alg: 'HS256', typ: 'JWT' }, claims, JSON.stringify(keys.public)), /not signed with ES256/],
    ['another ES256 key', signEs256({ alg: 'ES256', typ: 'JWT' }, claims, randomEs256Key()), /signature is not valid/],
    ['altered payload', `${header}.${Buffer.from(JSON.stringify({ ...claims, sub: 'mallory@platform.local' })).toString('base64url')}.${signature}`, /signature is not valid/],
    ['expired', signEs256({ alg: 'ES256', typ: 'JWT' }, { ...claims, iat: now - 7200, exp: now - 3600 }, privateKeyFromJwk(keys.private)), /expired/],
    ['other issuer', signEs256({ alg: 'ES256', typ: 'JWT' }, { ...claims, iss: 'urn:platform:cluster:other' }, privateKeyFromJwk(keys.private)), /not valid here/],
  ];
  for (const [what, token, message] of forged) {
    const r = await api.withHeaders({ authorization: `Bearer ${token}` }).get<ApiErrorBody>('/jobs');
    t.is(r.status, 401, what);
    t.true(r.body.token_invalid, what);
    t.regex(r.body.message, message, what);
  }
  // The real key with valid claims is accepted: the refusals above are for what was forged.
  const resigned = signEs256({ alg: 'ES256', typ: 'JWT' }, claims, privateKeyFromJwk(keys.private));
  t.is((await api.withHeaders({ authorization: `Bearer ${resigned}` }).get('/jobs')).status, 200);
});

test('auth: wrong credentials get 401; repeated wrong passwords are slowed down with retry and try_again_in_ms', async (t) => {
  const name = unique('slow');
  await makeUser(name, 'the right password');
  const anonymous = new ApiClient(suite.controller().url);
  const attempt = (password: string) =>
    anonymous.post<ApiErrorBody & TokenReply>('/v1/oauth2/token', undefined, { headers: { authorization: basic(name, password) } });
  for (let i = 0; i < 3; i++) {
    const r = await attempt('wrong');
    t.is(r.status, 401);
    t.regex(r.headers.get('www-authenticate') ?? '', /^Basic/);
    t.false(r.body.token_invalid);
  }
  const slowed = await attempt('the right password');
  t.is(slowed.status, 429);
  t.true(slowed.body.retry);
  t.true((slowed.body.try_again_in_ms ?? 0) > 0);
  t.truthy(slowed.headers.get('retry-after'));
  const ok = await eventually(async () => {
    const r = await attempt('the right password');
    return r.status === 200 ? r : undefined;
  }, { what: 'the throttle to lift', timeoutMs: 10_000 });
  t.is(ok.body.token_type, 'JWT');
  for (const auth of ['', 'Basic', 'Basic !!!', basic('', 'x'), 'Bearer x']) {
    const r = await anonymous.post<ApiErrorBody>('/v1/oauth2/token', undefined, { headers: auth ? { authorization: auth } : {} });
    t.is(r.status, 401, auth);
  }
  const unknown = await anonymous.post<ApiErrorBody>('/v1/oauth2/token', undefined, { headers: { authorization: basic(unique('nobody'), 'x') } });
  t.is(unknown.status, 401);
  t.is(unknown.body.message, 'wrong user name or password');
});

test('auth: the administrator manages users; a password change or deletion ends the old tokens', async (t) => {
  const admin = suite.api();
  const name = unique('alice');
  const alice = await makeUser(name, 'first password');
  const list = await admin.get<{ name: string; principal: string }[]>('/v1/users');
  t.truthy(list.body.find((u) => u.name === name && u.principal === `${name}@platform.local`));
  t.truthy(list.body.find((u) => u.name === 'admin'));

  const job = await alice.post<Job>('/jobs', { fqn: `job::/sandbox/${name}::${unique()}` });
  t.is(job.body.created_by, `${name}@platform.local`);
  const denied = await alice.put<ApiErrorBody>(`/v1/users/${unique('bob')}`, { password: 'another password' });
  t.is(denied.status, 403);
  t.deepEqual(denied.body.missing_claims, ['permit update on auth::/']);
  t.is((await alice.get('/v1/users')).status, 403);

  t.is((await admin.put(`/v1/users/${name}`, { password: 'second password' })).status, 200);
  const stale = await alice.get<ApiErrorBody>('/jobs');
  t.is(stale.status, 401);
  t.regex(stale.body.message, /password .* has changed/);
  const fresh = await ApiClient.login(suite.controller().url, name, 'second password');
  t.is((await fresh.get('/jobs')).status, 200);

  t.is((await admin.delete(`/v1/users/${name}`)).status, 200);
  t.is((await fresh.get('/jobs')).status, 401);
  await t.throwsAsync(ApiClient.login(suite.controller().url, name, 'second password'));
  t.is((await admin.delete(`/v1/users/${name}`)).status, 404);
  t.is((await admin.delete('/v1/users/admin')).status, 409);
  t.is((await admin.put('/v1/users/Not%20OK', { password: 'long enough' })).status, 400);
  t.is((await admin.put(`/v1/users/${unique('c')}`, { password: 'short' })).status, 400);
  t.is((await admin.put(`/v1/users/${unique('c')}`, { password: 12345678 })).status, 400);
});

test('auth: the mechanism follows the host: basicauth, the legacy auth host with grant_type, ldapauth', async (t) => {
  const url = `${suite.controller().url}/v1/oauth2/token`;
  const credentials = { authorization: basic('admin', 'test-admin-password') };
  const form = { ...credentials, 'content-type': 'application/x-www-form-urlencoded', host: 'auth.example.test' };
  const viaBasicHost = await rawRequest(url, 'POST', { ...credentials, host: 'basicauth.example.test' });
  t.is(viaBasicHost.status, 200);
  const legacy = await rawRequest(url, 'POST', form, 'grant_type=basic');
  t.is(legacy.status, 200);
  t.is((JSON.parse(legacy.body) as TokenReply).token_type, 'JWT');
  const ldapLegacy = await rawRequest(url, 'POST', form, 'grant_type=ldap_basic');
  t.is(ldapLegacy.status, 400);
  t.regex(ldapLegacy.body, /LDAP authentication is not configured/);
  const ldapHost = await rawRequest(url, 'POST', { ...credentials, host: 'ldapauth.example.test' });
  t.is(ldapHost.status, 400);
  const odd = await rawRequest(url, 'POST', form, 'grant_type=kerberos');
  t.is(odd.status, 400);
  t.regex((JSON.parse(odd.body) as ApiErrorBody).message, /grant_type: "kerberos" is not one of basic, ldap_basic/);
  // The API host and the plain address serve the same token endpoint.
  t.is((await rawRequest(url, 'POST', { ...credentials, host: 'api.example.test' })).status, 200);
});
