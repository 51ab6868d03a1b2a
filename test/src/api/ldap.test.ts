/**
 * LDAP authentication against a real OpenLDAP server (slapd) that the tests
 * start on loopback with their own configuration, and the real controller
 * binary configured through its PLATFORM_LDAP_* environment.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import test from 'ava';
import type { ApiErrorBody, AuditLogItem, Job } from '@platform/controller';
import { CONTROLLER_BIN, ControllerProcess } from '../harness/controller-process.js';
import { unique } from '../harness/fixtures.js';
import { ApiClient, basicAuth as basic, type TokenReply } from '../harness/http.js';
import { decodePayload, decodeUserinfo } from '../harness/jwt.js';
import { findSlapdTools, Slapd } from '../harness/slapd.js';
import { rawRequest } from '../harness/upload.js';
import { eventually } from '../harness/wait.js';

const run = promisify(execFile);
const DOMAIN = 'example.test';
const SERVICE = { name: 'platform', password: 'service-password' };
const USERS = [
  { uid: 'alice', password: 'alice-password' },
  { uid: 'bob', password: 'bob-password' },
  { uid: 'slow', password: 'slow-password' },
  { uid: 'slow2', password: 'slow2-password' },
  { uid: 'smith,j', password: 'smith-password' },
  { uid: 'admin', password: 'ldap-admin-password' },
  // Two entries with one uid: a search that finds both must not pick one.
  { uid: 'twin', password: 'twin-password' },
  { uid: 'twin', password: 'twin-password', ou: 'contractors' },
];

interface Env {
  slapd: Slapd;
  direct: ControllerProcess;
  search: ControllerProcess;
}
let env: Env | undefined;
const cleanups: (() => Promise<unknown>)[] = [];

function directEnv(slapd: Slapd): Record<string, string> {
  return { PLATFORM_LDAP_URL: slapd.url, PLATFORM_LDAP_BIND_DN_TEMPLATE: `uid={user},ou=people,${slapd.suffix}` };
}

function searchEnv(slapd: Slapd, password = SERVICE.password): Record<string, string> {
  return {
    PLATFORM_LDAP_URL: slapd.url,
    PLATFORM_LDAP_SEARCH_BASE: slapd.suffix,
    PLATFORM_LDAP_SEARCH_FILTER: '(&(objectClass=inetOrgPerson)(uid={user}))',
    PLATFORM_LDAP_BIND_DN: slapd.serviceDn(SERVICE.name),
    PLATFORM_LDAP_BIND_PASSWORD: password,
  };
}

async function controller(envVars: Record<string, string>): Promise<ControllerProcess> {
  const c = await ControllerProcess.start({ args: ['--domain', DOMAIN], env: envVars, readyTimeoutMs: 90_000 });
  cleanups.push(() => c.dispose());
  return c;
}

/** POST /v1/oauth2/token the way a client of the LDAP host does. */
async function ldapToken(c: ControllerProcess, user: string, password: string, host = `ldapauth.${DOMAIN}`) {
  const r = await rawRequest(`${c.url}/v1/oauth2/token`, 'POST', { authorization: basic(user, password), host });
  return { ...r, json: JSON.parse(r.body) as ApiErrorBody & TokenReply };
}

async function auditOf(c: ControllerProcess, fqn: string): Promise<AuditLogItem[]> {
  const admin = await c.admin();
  return (await admin.get<AuditLogItem[]>(`/audit?fqn=${encodeURIComponent(fqn)}&reverse`)).body;
}

const found = findSlapdTools();
const required = process.env['PLATFORM_REQUIRE_SYSTEM_TOOLS'] === '1';
// One at a time: the tests start many controllers, and machines running these
// tests are busy with other suites too.
const ldapTest = found.tools ? test.serial : test.skip;

if (!found.tools) {
  const message = `LDAP tests need ${found.missing.join(', ')}: install the Debian packages slapd and ldap-utils (.ci/run does)`;
  if (required) {
    test('ldap: slapd and ldap-utils are installed (PLATFORM_REQUIRE_SYSTEM_TOOLS=1)', (t) => t.fail(message));
  } else {
    process.stderr.write(`\n  SKIPPED: ${message}\n\n`);
    test('ldap: skipped, slapd is not installed', (t) => {
      t.log(message);
      t.pass();
    });
  }
} else {
  test.before(async () => {
    const slapd = await Slapd.start({ users: USERS, service: SERVICE, allowAnonymousBindWithDn: true });
    cleanups.push(() => slapd.dispose());
    env = { slapd, direct: await controller(directEnv(slapd)), search: await controller(searchEnv(slapd)) };
  });
  test.after.always(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup().catch(() => undefined);
  });
}

ldapTest('ldap: a token from ldapauth.<domain> names the LDAP principal and works for the API', async (t) => {
  for (const c of [env!.direct, env!.search]) {
    const r = await ldapToken(c, 'alice', 'alice-password');
    t.is(r.status, 200, r.body);
    t.is(r.json.token_type, 'JWT');
    t.is(r.json.expires_in, '86400');
    const claims = decodePayload(r.json.access_token);
    t.like(claims, { sub: 'alice@ldap.platform.local', name: 'alice', mechanism: 'ldap' });
    t.is(claims['gen'], undefined, 'the password generation is for basic users');
    const cookies = [r.headers['set-cookie'] ?? []].flat();
    t.true(cookies.some((c) => c.startsWith(`token=${r.json.access_token};`)));
    const userinfo = cookies.find((c) => c.startsWith('userinfo='))!;
    const info = decodeUserinfo(userinfo);
    t.like(info, { name: 'alice', principal: 'alice@ldap.platform.local', mechanism: 'ldap' });

    const alice = new ApiClient(c.url, { authorization: `Bearer ${r.json.access_token}` });
    t.is((await alice.get('/jobs')).status, 200);
    // The bootstrap policy gives every user, LDAP users too, their sandbox.
    const job = await alice.post<Job>('/jobs', { fqn: `job::/sandbox/alice::${unique()}` });
    t.is(job.status, 200, job.text);
    t.is(job.body.created_by, 'alice@ldap.platform.local');
    const issued = (await auditOf(c, 'auth::/::alice')).find((i) => i.event_type === 'auth.issue');
    t.truthy(issued);
    t.is(issued!.principal_name, 'alice@ldap.platform.local');
  }
});

ldapTest('ldap: grant_type=ldap_basic picks LDAP on the legacy auth host and the plain address', async (t) => {
  const c = env!.direct;
  const form = { authorization: basic('bob', 'bob-password'), 'content-type': 'application/x-www-form-urlencoded' };
  for (const host of [`auth.${DOMAIN}`, new URL(c.url).host]) {
    const r = await rawRequest(`${c.url}/v1/oauth2/token`, 'POST', { ...form, host }, 'grant_type=ldap_basic');
    t.is(r.status, 200, `${host}: ${r.body}`);
    t.like(decodePayload((JSON.parse(r.body) as TokenReply).access_token), { sub: 'bob@ldap.platform.local', mechanism: 'ldap' });
  }
  // Without grant_type the legacy host is basic auth, where bob is unknown.
  t.is((await rawRequest(`${c.url}/v1/oauth2/token`, 'POST', { ...form, host: `auth.${DOMAIN}` })).status, 401);
});

ldapTest('ldap: a wrong password or an unknown user gets 401 and an auth.deny record', async (t) => {
  for (const c of [env!.direct, env!.search]) {
    const wrong = await ldapToken(c, 'bob', 'not-bobs-password');
    t.is(wrong.status, 401);
    t.false(wrong.json.token_invalid);
    t.false(wrong.json.retry);
    t.is(wrong.json.message, 'wrong user name or password');
    t.regex(String(wrong.headers['www-authenticate']), /^Basic/);
    const nobody = unique('nobody');
    const unknown = await ldapToken(c, nobody, 'whatever');
    t.is(unknown.status, 401);
    t.is(unknown.json.message, 'wrong user name or password');

    // (Other tests also try bob as a basic user: look for the LDAP principal.)
    const denial = (await auditOf(c, 'auth::/::bob')).find((i) => i.event_type === 'auth.deny' && i.principal_name === 'bob@ldap.platform.local');
    t.like(denial, { audit_payload: { mechanism: 'ldap', reason: 'wrong user name or password' } });
    t.is((await auditOf(c, `auth::/::${nobody}`)).filter((i) => i.event_type === 'auth.deny').length, 1);
  }
});

ldapTest('ldap: an empty password is refused although the directory would bind it anonymously', async (t) => {
  // This slapd allows "unauthenticated" binds (a DN and no password): the directory
  // itself would say yes, so only the controller's own check stands in the way.
  for (const c of [env!.direct, env!.search]) {
    const r = await ldapToken(c, 'alice', '');
    t.is(r.status, 401);
    t.regex(r.json.message, /empty password/);
  }
});

ldapTest('ldap: user input is escaped in DNs and filters; names are case-insensitive', async (t) => {
  for (const c of [env!.direct, env!.search]) {
    // Filter and DN syntax in the name matches nobody, not everybody.
    for (const name of ['ali*', '*', 'alice)(uid=*', 'alice,ou=people', 'x)(|(uid=*']) {
      const r = await ldapToken(c, name, 'alice-password');
      t.is(r.status, 401, name);
    }
    // A name with a DN special character is found and bound in both modes.
    const smith = await ldapToken(c, 'smith,j', 'smith-password');
    t.is(smith.status, 200, smith.body);
    t.like(decodePayload(smith.json.access_token), { sub: 'smith,j@ldap.platform.local', name: 'smith,j' });
    // The directory matches uid case-insensitively; the controller makes it one principal.
    const shouting = await ldapToken(c, 'ALICE', 'alice-password');
    t.is(shouting.status, 200);
    t.like(decodePayload(shouting.json.access_token), { sub: 'alice@ldap.platform.local', name: 'alice' });
  }
});

ldapTest('ldap: a search that finds more than one entry refuses the login', async (t) => {
  const r = await ldapToken(env!.search, 'twin', 'twin-password');
  t.is(r.status, 401);
  // Log lines are written beside the answer, not before it: wait for them.
  t.truthy(await eventually(() => env!.search.lines.find((l) => l['msg'] === 'LDAP search found more than one entry for a user; refused'), { what: 'the refusal log line' }));
  // Direct bind names exactly one of them.
  t.is((await ldapToken(env!.direct, 'twin', 'twin-password')).status, 200);
});

ldapTest('ldap: repeated wrong passwords are slowed down with retry and try_again_in_ms', async (t) => {
  const check = async (c: ControllerProcess, user: { uid: string; password: string }) => {
    for (let i = 0; i < 3; i++) t.is((await ldapToken(c, user.uid, 'wrong')).status, 401);
    // Two more failures, each once the wait before it is over (attempts inside a
    // wait are 429 and not counted): the wait is then 4 s, long enough to see on
    // a busy machine.
    for (const n of [4, 5]) {
      await eventually(async () => (await ldapToken(c, user.uid, 'wrong')).status === 401, { what: `failure ${n} to be counted`, timeoutMs: 30_000, intervalMs: 100 });
    }
    // Another spelling of the name is the same user for throttling, and a right password waits too.
    const slowed = await ldapToken(c, user.uid.toUpperCase(), user.password);
    t.is(slowed.status, 429);
    t.true(slowed.json.retry);
    t.true((slowed.json.try_again_in_ms ?? 0) > 0);
    t.truthy(slowed.headers['retry-after']);
    // Other users are not slowed.
    t.is((await ldapToken(c, 'bob', 'bob-password')).status, 200);
    const ok = await eventually(
      async () => {
        const r = await ldapToken(c, user.uid, user.password);
        return r.status === 200 ? r : undefined;
      },
      { what: 'the throttle to lift', timeoutMs: 30_000, intervalMs: 200 },
    );
    t.is(ok.json.token_type, 'JWT');
  };
  await Promise.all([check(env!.direct, USERS[2]!), check(env!.search, USERS[3]!)]);
});

ldapTest('ldap: an LDAP user named like the bootstrap administrator is not the administrator', async (t) => {
  const r = await ldapToken(env!.direct, 'admin', 'ldap-admin-password');
  t.is(r.status, 200);
  t.is(decodePayload(r.json.access_token)['sub'], 'admin@ldap.platform.local');
  const ldapAdmin = new ApiClient(env!.direct.url, { authorization: `Bearer ${r.json.access_token}` });
  const users = await ldapAdmin.get<ApiErrorBody>('/v1/users');
  t.is(users.status, 403);
  // And the basic administrator's password does not open the LDAP host.
  t.is((await ldapToken(env!.direct, 'admin', 'test-admin-password')).status, 401);
});

ldapTest('ldap: a directory that is down or refuses the service account answers 503 with retry, and recovers', async (t) => {
  const own = await Slapd.start({ users: [{ uid: 'carol', password: 'carol-password' }], service: SERVICE });
  cleanups.push(() => own.dispose());
  const c = await controller(directEnv(own));
  const misconfigured = await controller(searchEnv(own, 'not-the-service-password'));
  t.is((await ldapToken(c, 'carol', 'carol-password')).status, 200);

  const refused = await ldapToken(misconfigured, 'carol', 'carol-password');
  t.is(refused.status, 503);
  t.true(refused.json.retry);
  t.regex(refused.json.message, /misconfigured/);
  t.truthy(await eventually(() => misconfigured.lines.find((l) => l['level'] === 'error' && /refused the service account/.test(String(l['msg']))), { what: 'the service account log line' }));

  await own.stop();
  for (let i = 0; i < 5; i++) {
    const down = await ldapToken(c, 'carol', 'carol-password');
    t.is(down.status, 503);
    t.true(down.json.retry);
    t.false(down.json.token_invalid);
    t.true((down.json.try_again_in_ms ?? 0) > 0);
    t.truthy(down.headers['retry-after']);
  }
  await own.start();
  // Failures of the directory are not wrong passwords: carol is not slowed down.
  const back = await ldapToken(c, 'carol', 'carol-password');
  t.is(back.status, 200, back.body);
});

ldapTest('ldap: a directory that accepts connections but never answers times out with 503', async (t) => {
  const sockets = new Set<Socket>();
  const silent: Server = createServer((s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
  cleanups.push(async () => {
    for (const s of sockets) s.destroy();
    await new Promise((resolve) => silent.close(resolve));
  });
  const port = (silent.address() as { port: number }).port;
  const c = await controller({
    PLATFORM_LDAP_URL: `ldap://127.0.0.1:${port}`,
    PLATFORM_LDAP_BIND_DN_TEMPLATE: 'uid={user},ou=people,dc=example,dc=test',
    PLATFORM_LDAP_TIMEOUT_MS: '300',
  });
  const started = Date.now();
  const r = await ldapToken(c, 'alice', 'alice-password');
  t.is(r.status, 503);
  t.true(r.json.retry);
  t.true(Date.now() - started < 15_000);
});

ldapTest('ldap: ldaps:// and StartTLS with the operator\'s CA file; an untrusted certificate is 503', async (t) => {
  const tls = await Slapd.start({ users: [{ uid: 'dave', password: 'dave-password' }], tls: true });
  cleanups.push(() => tls.dispose());
  const template = { PLATFORM_LDAP_BIND_DN_TEMPLATE: `uid={user},ou=people,${tls.suffix}` };
  const trusted = [
    { ...template, PLATFORM_LDAP_URL: tls.ldapsUrl, PLATFORM_LDAP_CA_FILE: tls.caFile },
    { ...template, PLATFORM_LDAP_URL: tls.url, PLATFORM_LDAP_START_TLS: 'true', PLATFORM_LDAP_CA_FILE: tls.caFile },
  ];
  for (const settings of trusted) {
    const c = await controller(settings);
    const ok = await ldapToken(c, 'dave', 'dave-password');
    t.is(ok.status, 200, ok.body);
    t.is((await ldapToken(c, 'dave', 'wrong')).status, 401);
    await c.dispose();
  }
  // Without the CA file the system's CAs are used, and they do not know the test CA.
  for (const settings of [
    { ...template, PLATFORM_LDAP_URL: tls.ldapsUrl },
    { ...template, PLATFORM_LDAP_URL: tls.url, PLATFORM_LDAP_START_TLS: 'true' },
  ]) {
    const c = await controller(settings);
    const refused = await ldapToken(c, 'dave', 'dave-password');
    t.is(refused.status, 503, refused.body);
    // The log line is written beside the answer, not before it: wait for it.
    const failure = await eventually(() => c.lines.find((l) => l['msg'] === 'LDAP directory failed'), { what: 'the LDAP failure log line' });
    t.regex(JSON.stringify(failure), /certificate/i);
    await c.dispose();
  }
});

ldapTest('ldap: LDAP tokens stop working when LDAP is no longer configured', async (t) => {
  const c = await controller(directEnv(env!.slapd));
  const r = await ldapToken(c, 'alice', 'alice-password');
  t.is(r.status, 200);
  await c.stop();
  const without = await ControllerProcess.start({ dataDir: c.dataDir, args: ['--domain', DOMAIN] });
  cleanups.push(() => without.dispose());
  const stale = await new ApiClient(without.url, { authorization: `Bearer ${r.json.access_token}` }).get<ApiErrorBody>('/jobs');
  t.is(stale.status, 401);
  t.true(stale.body.token_invalid);
  t.regex(stale.body.message, /LDAP authentication, which is no longer configured/);
  t.is((await ldapToken(without, 'alice', 'alice-password')).status, 400);
});

ldapTest('ldap: bad LDAP settings stop the controller at start with a clear message', async (t) => {
  const cases: [Record<string, string>, string[], RegExp][] = [
    [{ PLATFORM_LDAP_BIND_DN_TEMPLATE: 'uid={user},dc=x' }, [], /PLATFORM_LDAP_BIND_DN_TEMPLATE set without --ldap-url/],
    [{}, ['--ldap-url', 'ldap://127.0.0.1:1'], /PLATFORM_LDAP_BIND_DN_TEMPLATE .* or PLATFORM_LDAP_SEARCH_BASE/],
    [{ PLATFORM_LDAP_BIND_DN_TEMPLATE: 'uid=alice,dc=x' }, ['--ldap-url', 'ldap://127.0.0.1:1'], /must contain \{user\}/],
    [{ PLATFORM_LDAP_URL: 'http://ldap', PLATFORM_LDAP_SEARCH_BASE: 'dc=x' }, [], /must start with ldap:\/\/ or ldaps:\/\//],
    [{ PLATFORM_LDAP_URL: 'ldap://h', PLATFORM_LDAP_SEARCH_BASE: 'dc=x', PLATFORM_LDAP_BIND_DN: 'cn=svc,dc=x' }, [], /both the LDAP bind DN and its password/],
    [{ PLATFORM_LDAP_URL: 'ldap://h', PLATFORM_LDAP_SEARCH_BASE: 'dc=x', PLATFORM_LDAP_BIND_DN: 'cn=svc,dc=x', PLATFORM_LDAP_BIND_PASSWORD_FILE: '/nonexistent/pw' }, [], /cannot read PLATFORM_LDAP_BIND_PASSWORD_FILE/],
    [{ PLATFORM_LDAP_URL: 'ldap://h', PLATFORM_LDAP_SEARCH_BASE: 'dc=x', PLATFORM_LDAP_SEARCH_FILTER: '(uid={user}' }, [], /not a valid filter/],
    [{ PLATFORM_LDAP_URL: 'ldaps://h', PLATFORM_LDAP_BIND_DN_TEMPLATE: 'uid={user},dc=x', PLATFORM_LDAP_CA_FILE: '/nonexistent/ca.pem' }, [], /cannot read PLATFORM_LDAP_CA_FILE/],
    [{ PLATFORM_LDAP_URL: 'ldaps://h', PLATFORM_LDAP_BIND_DN_TEMPLATE: 'uid={user},dc=x', PLATFORM_LDAP_START_TLS: 'true' }, [], /StartTLS is for ldap:\/\//],
  ];
  const dataDir = await mkdtemp(join(tmpdir(), 'platform-test-'));
  cleanups.push(() => rm(dataDir, { recursive: true, force: true }));
  for (const [envVars, args, message] of cases) {
    const what = JSON.stringify({ envVars, args });
    const err = (await t.throwsAsync(
      run(process.execPath, [CONTROLLER_BIN, '--data-dir', dataDir, '--listen', '127.0.0.1:0', '--grpc-listen', '127.0.0.1:0', ...args], {
        env: { ...process.env, ...envVars },
        timeout: 60_000,
      }),
      undefined,
      what,
    )) as Error & { code?: number; stderr?: string };
    t.is(err.code, 2, what);
    t.regex(err.stderr ?? '', message, what);
  }
});
