/**
 * The identity-provider device flow against a real OpenID provider (oidc-provider) on loopback:
 * policy on the provider's claims decides who gets a token; expired codes, polling too fast, a
 * provider that is down or silent (from the start or half way), and a refresh after the
 * provider revoked the grant.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import type { ApiErrorBody, AuditLogItem } from '@platform/controller';
import { Cli } from '../harness/cli.js';
import { ControllerProcess } from '../harness/controller-process.js';
import { ApiClient } from '../harness/http.js';
import { decodeUserinfo } from '../harness/jwt.js';
import { TestIdp } from '../harness/oidc.js';
import { freePort } from '../harness/net.js';
import { eventually } from '../harness/wait.js';

interface DeviceCode {
  device_code: string;
  user_code: string;
  verification_url: string;
  verification_uri_complete: string;
  expires_in: number;
  interval: number;
  error: string;
}

let idp: TestIdp;
/** A second provider, stopped half way through its test. */
let flaky: TestIdp;
let controller: ControllerProcess;
let admin: ApiClient;
let anonymous: ApiClient;
let silent: Server;
let secretDir: string;

test.before(async () => {
  idp = await TestIdp.start({
    accounts: {
      alice: { email: 'alice@example.com', groups: ['dev'] },
      bob: { email: 'Bob@Example.com', groups: ['dev', 'ops'] },
      mallory: { email: 'mallory@evil.test' },
      unverified: { email: 'eve@example.com', email_verified: false },
    },
  });
  flaky = await TestIdp.start({ accounts: { carol: { email: 'carol@example.com' } } });
  // A provider that accepts connections and never answers.
  silent = createServer(() => undefined);
  await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
  secretDir = mkdtempSync(join(tmpdir(), 'idp-secret-'));
  writeFileSync(join(secretDir, 'corp'), `${idp.clientSecret}\n`, { mode: 0o600 });
  const flakyEntry = { name: 'flaky', issuer: flaky.issuer, client_id: flaky.clientId, client_secret_file: join(secretDir, 'corp'), scopes: ['openid', 'email', 'offline_access'], timeout_ms: 3000 };
  writeFileSync(join(secretDir, 'idps.json'), JSON.stringify([flakyEntry]), { mode: 0o600 });
  controller = await ControllerProcess.start({
    args: [
      '--idp', `name=corp,issuer=${idp.issuer},client-id=${idp.clientId},client-secret-file=${join(secretDir, 'corp')},scopes=openid email groups offline_access,display-name=Example Corp,timeout-ms=3000`,
      '--idp', `name=silent,issuer=http://127.0.0.1:${(silent.address() as { port: number }).port},client-id=x,timeout-ms=1000`,
      '--idp', `name=down,issuer=http://127.0.0.1:${await freePort()},client-id=x`,
      // The second provider comes from a file of providers, as an operator may give several.
      '--idp-file', join(secretDir, 'idps.json'),
    ],
    // The test's providers are on loopback, which the controller refuses unless listed.
    allowedDestinations: ['127.0.0.1'],
  });
  admin = await controller.admin();
  anonymous = new ApiClient(controller.url);
  const policy = `
    auth::/ {
      if (corp_auth@platform->email_domain == "example.com") {
        permit issue
        defaultNamespace "/teams/example"
      }
      if (corp_auth@platform->group == "ops") { principal "ops@corp.platform.local" }
      if (flaky_auth@platform->email_domain == "example.com") { permit issue }
    }
    *::/sandbox/[name] { if (corp_auth@platform->name == [name]) { role admin } }`;
  const r = await admin.put('/v1/policy', { docs: [{ name: 'idp-users', for_version: 0, text: policy }] });
  if (r.status !== 200) throw new Error(`policy: ${r.status} ${r.text}`);
});

test.after.always(async () => {
  await controller?.dispose();
  await idp?.stop();
  await flaky?.stop();
  silent?.close();
  if (secretDir) rmSync(secretDir, { recursive: true, force: true });
});

const getcode = (name = 'corp', query = '?scope=email') => anonymous.get<DeviceCode & ApiErrorBody>(`/v1/oauth2/device/${name}/getcode${query}`);
const redeem = (deviceCode: string, name = 'corp') => anonymous.post<{ refresh_token: string; token_type: string } & ApiErrorBody>(`/v1/oauth2/device/${name}/redeemed`, { device_code: deviceCode });
const refresh = (refreshToken: string, name = 'corp') =>
  anonymous.post<{ access_token: string; expires_in: string; token_type: string; refresh_token: string } & ApiErrorBody>(`/v1/oauth2/device/${name}/refresh`, { refresh_token: refreshToken, token_type: 'IDP_REFRESH' });

/** Polls `redeemed` the way a client should (after try_again_in_ms) until it answers otherwise than 429. */
async function redeemWhenSignedIn(deviceCode: string, name = 'corp') {
  let wait = 0;
  return eventually(
    async () => {
      if (Date.now() < wait) return undefined;
      const r = await redeem(deviceCode, name);
      if (r.status !== 429) return r;
      wait = Date.now() + (r.body.try_again_in_ms ?? 5000);
      return undefined;
    },
    { timeoutMs: 60_000, intervalMs: 250, what: 'the device code redeemed' },
  );
}

/** The whole flow for `account`: code, sign-in at the provider, refresh token. */
async function login(account: string) {
  const code = (await getcode()).body;
  await idp.signIn(code.verification_uri_complete, account);
  return redeemWhenSignedIn(code.device_code);
}

async function audit(eventType: string, fqn: string): Promise<AuditLogItem[]> {
  return (await admin.get<AuditLogItem[]>(`/audit?event_type=${eventType}&fqn=${encodeURIComponent(fqn)}`)).body;
}

test.serial('idp: the providers are listed for clients and the console, without secrets', async (t) => {
  const r = await anonymous.get<unknown[]>('/v1/oauth2/providers');
  t.is(r.status, 200);
  t.deepEqual(r.body[0], { name: 'corp', display_name: 'Example Corp', issuer: idp.issuer, device_flow: true });
  t.is(r.body.length, 4);
  t.false(r.text.includes(idp.clientSecret));
  t.is((await getcode('nope')).status, 404);
  t.is((await getcode('corp', '?grant_type=password')).status, 400);
});

test.serial('idp: a user of an allowed domain signs in at the provider and gets a token of ours', async (t) => {
  const first = await getcode('corp', '?scope=email&grant_type=idp_device');
  t.is(first.status, 200, first.text);
  t.like(first.body, { interval: 5, error: '' });
  t.true(first.body.verification_url.startsWith(idp.issuer));
  t.true(first.body.expires_in > 0);
  const early = await redeem(first.body.device_code);
  t.is(early.status, 429, 'not signed in yet');
  t.is(early.body.error_details?.['error'], 'authorization_pending');
  t.true(early.body.retry);
  await idp.signIn(first.body.verification_uri_complete, 'alice');
  const redeemed = await redeemWhenSignedIn(first.body.device_code);
  t.is(redeemed.status, 200, redeemed.text);
  t.is(redeemed.body.token_type, 'IDP_REFRESH');
  t.false(redeemed.text.includes('"id_token"'));
  const token = await refresh(redeemed.body.refresh_token);
  t.is(token.status, 200, token.text);
  t.is(token.body.token_type, 'JWT');
  t.is(token.body.expires_in, '86400');
  const cookies = token.headers.getSetCookie();
  t.true(cookies.some((c) => c.startsWith(`token=${token.body.access_token};`)));
  const userinfo = decodeUserinfo(cookies.find((c) => c.startsWith('userinfo='))!);
  t.like(userinfo, { name: 'alice@example.com', principal: 'alice@example.com@corp.platform.local', mechanism: 'corp', default_namespace: '/teams/example' });
  // The token works, for what policy grants the provider's user.
  const alice = new ApiClient(controller.url, { authorization: `Bearer ${token.body.access_token}` });
  const job = await alice.post<{ created_by: string }>('/jobs', { fqn: 'job::/sandbox/alice@example.com::hello' });
  t.is(job.status, 200, job.text);
  t.is(job.body.created_by, 'alice@example.com@corp.platform.local');
  t.is((await alice.get('/jobs?fqn=job::/sandbox/bob@example.com&matchPartialFQN')).status, 200);
  t.is((await alice.post('/jobs', { fqn: 'job::/sandbox/bob@example.com::x' })).status, 403);
  const allow = await audit('auth.allow', 'auth::/::alice@example.com');
  t.true(allow.length >= 2, 'redeemed and refresh each decide');
  t.like(allow[0]!.audit_payload, { mechanism: 'corp', email: 'alice@example.com', issuer: idp.issuer, subject: 'alice' });
  t.is((await audit('auth.issue', 'auth::/::alice@example.com')).length, 1);
});

test.serial('idp: policy may name the principal from the provider\'s groups; e-mails are compared in lower case', async (t) => {
  const redeemed = await login('bob');
  t.is(redeemed.status, 200, redeemed.text);
  const token = await refresh(redeemed.body.refresh_token);
  t.is(token.status, 200, token.text);
  const me = new ApiClient(controller.url, { authorization: `Bearer ${token.body.access_token}` });
  const job = await me.post<{ created_by: string } & ApiErrorBody>('/jobs', { fqn: 'job::/sandbox/bob@example.com::x' });
  t.is(job.status, 200, job.text);
  t.is(job.body.created_by, 'ops@corp.platform.local');
});

test.serial('idp: a user of another domain, or with an e-mail the provider has not verified, gets auth.deny and no token', async (t) => {
  for (const account of ['mallory', 'unverified']) {
    const redeemed = await login(account);
    t.is(redeemed.status, 403, redeemed.text);
    t.deepEqual(redeemed.body.missing_claims, ['permit issue on auth::/']);
    t.false('refresh_token' in redeemed.body);
  }
  const denied = await audit('auth.deny', 'auth::/::mallory@evil.test');
  t.is(denied.length, 1);
  t.like(denied[0]!.audit_payload, { mechanism: 'corp', email: 'mallory@evil.test', reason: 'policy: no permit issue on auth::/' });
  t.is((await audit('auth.deny', 'auth::/::unverified')).length, 1, 'an unverified e-mail is not the name: the subject is');
});

test.serial('idp: an expired device code is refused; polling too fast is told to slow down', async (t) => {
  const fast = (await getcode()).body;
  t.is((await redeem(fast.device_code)).body.error_details?.['error'], 'authorization_pending');
  const again = await redeem(fast.device_code);
  t.is(again.status, 429);
  t.is(again.body.error_details?.['error'], 'slow_down');
  t.is(again.body.try_again_in_ms, 10_000);
  t.is(again.headers.get('retry-after'), '10');

  idp.deviceCodeTtl = 2;
  t.teardown(() => (idp.deviceCodeTtl = 600));
  const short = (await getcode()).body;
  t.is(short.expires_in, 2);
  const expired = await eventually(
    async () => {
      const r = await redeem(short.device_code);
      return r.status === 400 ? r : undefined;
    },
    { timeoutMs: 30_000, intervalMs: 500, what: 'the device code expired' },
  );
  t.is(expired.body.error_details?.['error'], 'expired_token');
  t.regex(expired.body.message, /the device code has expired; start again with getcode/);
});

test.serial('idp: a provider that is down or silent answers 503 in time; nothing hangs', async (t) => {
  const started = Date.now();
  const down = await getcode('down');
  t.is(down.status, 503);
  t.true(down.body.retry);
  t.regex(down.body.message, /^identity provider down is not reachable \(its discovery document: ECONNREFUSED\); try again later$/);
  const quiet = await getcode('silent');
  t.is(quiet.status, 503);
  t.regex(quiet.body.message, /^identity provider silent is not reachable \(its discovery document: no answer within 1000 ms\)/);
  t.true(Date.now() - started < 8_000, `answered after ${Date.now() - started} ms`);
});

test.serial('idp: a provider that goes down in the middle of a login, or before a refresh, answers 503 in time; nothing hangs', async (t) => {
  const code = (await getcode('flaky')).body;
  await flaky.signIn(code.verification_uri_complete, 'carol');
  const redeemed = await redeemWhenSignedIn(code.device_code, 'flaky');
  t.is(redeemed.status, 200, redeemed.text);
  const pending = await getcode('flaky');
  t.is(pending.status, 200, pending.text);
  await flaky.stop();
  const started = Date.now();
  const redeem503 = await redeem(pending.body.device_code, 'flaky');
  t.is(redeem503.status, 503, redeem503.text);
  t.true(redeem503.body.retry);
  t.regex(redeem503.body.message, /^identity provider flaky is not reachable \(the device code's tokens: ECONNREFUSED\); try again later$/);
  const refresh503 = await refresh(redeemed.body.refresh_token, 'flaky');
  t.is(refresh503.status, 503, refresh503.text);
  t.regex(refresh503.body.message, /^identity provider flaky is not reachable \(a refresh: ECONNREFUSED\); try again later$/);
  t.true(Date.now() - started < 8_000, `answered after ${Date.now() - started} ms`);
});

test.serial('idp: a refresh after the provider revoked the grant is refused with 401 token_invalid', async (t) => {
  const redeemed = await login('alice');
  t.is(redeemed.status, 200, redeemed.text);
  const ok = await refresh(redeemed.body.refresh_token);
  t.is(ok.status, 200, ok.text);
  await idp.revoke('alice');
  const refused = await refresh(ok.body.refresh_token);
  t.is(refused.status, 401, refused.text);
  t.true(refused.body.token_invalid);
  t.regex(refused.body.message, /identity provider corp no longer accepts this refresh token/);
  const forged = await refresh(Buffer.from('{"v":1,"idp":"corp","s":{}}').toString('base64url'));
  t.is(forged.status, 401);
  t.regex(forged.body.message, /is not one that this cluster gave/);
});

test.serial('idp: platform login --idp shows the code and the URL, waits for the sign-in, and keeps the token', async (t) => {
  const cli = await Cli.create(t);
  let signedIn: Promise<void> | undefined;
  const result = await cli.run(['login', '--idp', 'corp', controller.url], {
    onStderr: (text) => {
      const url = /open (\S+)/.exec(text)?.[1];
      if (url && !signedIn) signedIn = idp.signIn(url, 'alice');
    },
  });
  await signedIn;
  t.is(result.code, 0, `${result.stdout}\n${result.stderr}`);
  t.regex(result.stderr, /and enter the code [A-Z]{4}-[A-Z]{4} \(it expires in 10 min\)/);
  t.regex(result.stdout, /Logged in to .* as alice@example\.com \(namespace \/teams\/example\)/);
  const me = await cli.json<{ principal: string; mechanism: string; namespace: string }>(['whoami']);
  t.like(me, { principal: 'alice@example.com@corp.platform.local', mechanism: 'corp', namespace: '/teams/example' });
  const refused = await cli.run(['login', '--idp', 'nope']);
  t.not(refused.code, 0);
  t.regex(refused.stderr, /no identity provider "nope" on this cluster/);
});

test('idp: a provider on loopback is refused unless listed (502); device codes asked for, and polls of codes this controller did not give out, are limited per address: past the limit 429 without asking the provider', async (t) => {
  // A controller of its own: the limits count per address, and every test here comes from 127.0.0.1.
  // Its provider's address is not listed in --allowed-destinations: every call to it is refused.
  const own = await ControllerProcess.start({ args: ['--idp', `name=down,issuer=http://127.0.0.1:${await freePort()},client-id=x`] });
  t.teardown(() => own.dispose());
  const client = new ApiClient(own.url);
  const ask = () => client.get<ApiErrorBody>('/v1/oauth2/device/down/getcode');
  const poll = (code: string) => client.post<ApiErrorBody>('/v1/oauth2/device/down/redeemed', { device_code: code });
  const refused = await ask();
  t.is(refused.status, 502, refused.text);
  t.regex(refused.body.message, /^identity provider down may not be reached \(its discovery document\): identity providers may not reach 127\.0\.0\.1:\d+: 127\.0\.0\.1 is a loopback address \(an operator allows it by listing it in --allowed-destinations/);
  t.is(refused.body.error_details?.['refused'], 'loopback');
  // Each of these reaches for the provider (refused: 502).
  for (let i = 1; i < 10; i++) t.is((await ask()).status, 502);
  const limited = await ask();
  t.is(limited.status, 429, limited.text);
  t.true(limited.body.retry);
  t.true((limited.body.try_again_in_ms ?? 0) > 0 && (limited.body.try_again_in_ms ?? 0) <= 60_000);
  t.regex(limited.body.message, /too many device codes from this address for identity provider down \(at most 10 a minute\)/);
  for (let i = 0; i < 24; i++) t.is((await poll(`made-up-${i}`)).status, 502);
  const polls = await poll('made-up-24');
  t.is(polls.status, 429, polls.text);
  t.regex(polls.body.message, /too many polls of device codes this controller did not give out/);
  // Nothing was asked of the provider past the limit: the log says it was reached for 34 times.
  const tried = () => own.lines.filter((l) => l['msg'] === 'identity provider address refused').length;
  await eventually(() => tried() >= 34, { timeoutMs: 10_000, what: 'the log lines of the 34 calls' });
  t.is(tried(), 34);
});
