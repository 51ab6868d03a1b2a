/**
 * Secrets end to end on a real controller and agent: kept encrypted at rest, installed into a
 * job's instances as a variable and as a file, never shown by the API, the audit log or the
 * logs, and rolled into the instances when they change.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import test from 'ava';
import type { ApiErrorBody, AuditLogItem, Job } from '@platform/controller';
import { tarGz, uploadPackage } from '../harness/apps.js';
import { callInstance, runningInstances, startCluster } from '../harness/cluster.js';
import { unique } from '../harness/fixtures.js';
import { eventually } from '../harness/wait.js';

/** Answers what it was given: its variable, its secret file, where its platform files are. */
const SECRET_APP = `
const http = require('node:http');
const fs = require('node:fs');
http.createServer((req, res) => {
  let file = null;
  try { file = fs.readFileSync(process.env.PLATFORM_FILES + '/secrets/cert.pem', 'utf8'); } catch (e) { file = 'unreadable: ' + e.code; }
  let write = 'refused';
  try { fs.writeFileSync(process.env.PLATFORM_FILES + '/secrets/cert.pem', 'mine'); write = 'written'; } catch {}
  res.setHeader('content-type', 'application/json');
  res.end(JSON.stringify({ env: process.env.DB_PASSWORD ?? null, file, files: process.env.PLATFORM_FILES ?? null, write, instance: process.env.PLATFORM_INSTANCE_UUID }));
}).listen(Number(process.env.PORT));
`;

interface SecretView {
  uuid: string;
  fqn: string;
  size: number;
  version_id: number;
}

interface AppAnswer {
  env: string | null;
  file: string;
  files: string | null;
  write: string;
  instance: string;
}

/** Every file under `dir` (the data directory), read whole. */
function filesUnder(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    const st = statSync(path);
    if (st.isDirectory()) out.push(...filesUnder(path));
    else if (st.isFile()) out.push(path);
  }
  return out;
}

test('secrets: installed as a variable and a file, never shown, encrypted at rest, rolled into the instances when changed', async (t) => {
  const cluster = await startCluster(t, [{}]);
  const { api, controller } = cluster;
  const user = unique('s');
  const alice = await api.createUser(user, 'a long enough password');
  const ns = `/sandbox/${user}`;
  const password = `pw-${unique('v')}-first`;
  const cert = `-----BEGIN CERT-----\n${unique('c')}\n-----END CERT-----\n`;

  const db = await alice.post<SecretView>('/secrets', { fqn: `secret::${ns}::db`, value: password, description: 'the database password' });
  t.is(db.status, 200, db.text);
  t.like(db.body, { fqn: `secret::${ns}::db`, size: password.length, version_id: 1 });
  t.false(db.text.includes(password), 'the answer never holds the value');
  const pem = await alice.post<SecretView>('/secrets', { fqn: `secret::${ns}::cert`, value_base64: Buffer.from(cert).toString('base64') });
  t.is(pem.status, 200, pem.text);
  t.is((await alice.post('/secrets', { fqn: `secret::${ns}::db`, value: 'x' })).status, 409, 'an FQN once');
  t.is((await alice.post('/secrets', { fqn: `secret::${ns}::novalue` })).status, 400);
  t.false((await alice.get(`/secrets/${db.body.uuid}`)).text.includes(password));
  t.deepEqual((await alice.get<SecretView[]>(`/secrets?fqn=${encodeURIComponent(`secret::${ns}`)}&matchPartialFQN`)).body.map((s) => s.fqn).sort(), [`secret::${ns}::cert`, `secret::${ns}::db`]);

  const pkg = await uploadPackage(alice, ns, tarGz({ 'app/server.js': SECRET_APP }));
  const created = await alice.post<Job>('/jobs', {
    fqn: `job::${ns}::app`,
    num_instances: 1,
    packages: [{ uuid: pkg.uuid }],
    processes: { app: { start_command: 'node /app/server.js' } },
    ports: [{ number: 0, optional: false }],
    resources: { memory: 64 * 1024 * 1024, disk: 64 * 1024 * 1024 },
    secrets: [
      { fqn: `secret::${ns}::db`, env: 'DB_PASSWORD' },
      { fqn: `secret::${ns}::cert`, file: 'cert.pem' },
    ],
    state: 'started',
  });
  t.is(created.status, 200, created.text);
  t.deepEqual(created.body.secrets, [
    { fqn: `secret::${ns}::db`, uuid: db.body.uuid, version: 1, env: 'DB_PASSWORD' },
    { fqn: `secret::${ns}::cert`, uuid: pem.body.uuid, version: 1, file: 'cert.pem' },
  ]);
  const [first] = await runningInstances(api, created.body.uuid, 1);
  const seen = await callInstance<AppAnswer>(first!);
  t.is(seen.env, password);
  t.is(seen.file, cert);
  t.is(seen.write, 'refused', 'the instance cannot change its secret file');
  t.truthy(seen.files);

  // A secret that is installed is not deleted.
  const busy = await alice.delete<ApiErrorBody>(`/secrets/${db.body.uuid}`);
  t.is(busy.status, 409);
  t.regex(busy.body.message, new RegExp(`is installed in job::${ns}::app`));

  // A new value rolls the job: new instances with it.
  const changed = `pw-${unique('v')}-second`;
  const put = await alice.put<SecretView>(`/secrets/${db.body.uuid}`, { value: changed });
  t.is(put.status, 200, put.text);
  t.is(put.body.version_id, 2);
  const rolled = await eventually(
    async () => {
      const running = (await runningInstances(api, created.body.uuid, 1, 90_000))[0]!;
      if (running.uuid === first!.uuid) return undefined;
      const answer = await callInstance<AppAnswer>(running);
      return answer.env === changed ? answer : undefined;
    },
    { timeoutMs: 90_000, intervalMs: 500, what: 'the instance with the new value' },
  );
  t.is(rolled.file, cert);
  const job = (await alice.get<Job>(`/jobs/${created.body.uuid}`)).body;
  t.is(job.secrets[0]!.version, 2);

  // Taken out of the job, then deleted.
  t.is((await alice.patch(`/jobs/${created.body.uuid}`, { secrets: [{ fqn: `secret::${ns}::cert`, file: 'cert.pem' }] })).status, 200);
  t.is((await alice.delete(`/secrets/${db.body.uuid}`)).status, 200);
  t.is((await alice.get(`/secrets/${db.body.uuid}`)).status, 404);

  // The audit log tells who installed what, and holds no value.
  const audit = (await api.get<AuditLogItem[]>(`/audit?fqn=${encodeURIComponent(`secret::${ns}`)}&limit=1000`)).body;
  const events = audit.filter((a) => a.fqn === `secret::${ns}::db`).map((a) => a.event_type).sort();
  t.deepEqual(events, ['secret.create', 'secret.create', 'secret.delete', 'secret.install', 'secret.uninstall']);
  t.like(audit.find((a) => a.event_type === 'secret.install' && a.fqn === `secret::${ns}::db`)!.audit_payload, { job: `job::${ns}::app`, env: 'DB_PASSWORD' });
  const everything = [
    JSON.stringify((await api.get(`/audit?limit=1000`)).body),
    (await api.get(`/jobs/${created.body.uuid}/logs?lines=1000`, { headers: { accept: 'text/plain' } })).text,
    JSON.stringify(await api.get(`/jobs?fqn=${encodeURIComponent(`job::${ns}`)}&matchPartialFQN`)),
    (await fetch(`${controller.url}/metrics`)).ok ? await (await fetch(`${controller.url}/metrics`)).text() : '',
    JSON.stringify(controller.lines),
    controller.stderr.join('\n'),
  ].join('\n');
  for (const value of [password, changed, cert.split('\n')[1]!]) t.false(everything.includes(value), `${value} shows somewhere`);

  // At rest: the key is the controller's alone, and no file of the data directory holds a value.
  t.is(statSync(join(controller.dataDir, 'secrets.key')).mode & 0o777, 0o600);
  for (const file of filesUnder(controller.dataDir)) {
    const bytes = readFileSync(file);
    for (const value of [password, changed]) t.false(bytes.includes(Buffer.from(value)), `${file} holds a secret value`);
  }
});

test('secrets: installing needs permit install on the secret; one the caller cannot see is answered as missing', async (t) => {
  const cluster = await startCluster(t, []);
  const { api } = cluster;
  const owner = unique('o');
  const ownerApi = await api.createUser(owner, 'a long enough password');
  const other = unique('u');
  const otherApi = await api.createUser(other, 'a long enough password');
  const secret = await ownerApi.post<SecretView>('/secrets', { fqn: `secret::/sandbox/${owner}::token`, value: 'v' });
  t.is(secret.status, 200, secret.text);
  const body = { fqn: `job::/sandbox/${other}::app`, secrets: [{ fqn: `secret::/sandbox/${owner}::token`, env: 'T' }] };
  const hidden = await otherApi.post<ApiErrorBody>('/jobs', body);
  t.is(hidden.status, 400);
  t.is(hidden.body.message, `secrets: no secret secret::/sandbox/${owner}::token`);
  t.is((await otherApi.get(`/secrets/${secret.body.uuid}`)).status, 404);
  const policy = await api.put('/v1/policy', { docs: [{ name: unique('share'), for_version: 0, text: `secret::/sandbox/${owner} { if (auth_server@platform->name == "${other}") { permit read } }` }] });
  t.is(policy.status, 200, policy.text);
  const denied = await otherApi.post<ApiErrorBody>('/jobs', body);
  t.is(denied.status, 403);
  t.deepEqual(denied.body.missing_claims, [`permit install on secret::/sandbox/${owner}::token`]);
  t.is((await otherApi.put(`/secrets/${secret.body.uuid}`, { value: 'w' })).status, 403);
  const bad = await ownerApi.post<ApiErrorBody>('/jobs', { fqn: `job::/sandbox/${owner}::x`, secrets: [{ fqn: `secret::/sandbox/${owner}::token`, env: 'A', file: 'b' }] });
  t.is(bad.status, 400);
  t.regex(bad.body.message, /give exactly one of env and file/);
});
