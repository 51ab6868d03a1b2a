/**
 * A manifest with services and links end to end: a real controller and agent, a scripted
 * gateway (test/src/harness/gateway-app.ts) promoted for a fresh service type. One document
 * declares a service and two jobs, the front linked to the back and bound to the service; the
 * front's instance gets BACKEND_URI and DB_URI. Deployed again, nothing is made twice (rule 2).
 */
import test from 'ava';
import type { Job } from '@platform/controller';
import { uploadPackage } from '../harness/apps.js';
import { instancesOf, runningInstances, startCluster, type ApiInstance } from '../harness/cluster.js';
import { envAppArchive, gatewayAppArchive, gatewayAppJob } from '../harness/gateway-app.js';
import { unique } from '../harness/fixtures.js';
import { taskEnd } from '../harness/tasks.js';
import { eventually } from '../harness/wait.js';

interface Task {
  state: string;
  errored: string;
  events: { subtask: { name: string }; payload: Record<string, string> }[];
}


async function envOf(instance: ApiInstance): Promise<Record<string, string>> {
  const res = await fetch(`http://${Object.values(instance.ports)[0]}/`);
  return ((await res.json()) as { env: Record<string, string> }).env;
}

test('manifests: a manifest deploying two linked jobs and a service runs end to end; deployed again it makes nothing twice', async (t) => {
  const { api } = await startCluster(t, [{}]);
  const ns = `/sandbox/admin/${unique('ms')}`;
  const gwPkg = await uploadPackage(api, ns, gatewayAppArchive());
  const envPkg = await uploadPackage(api, ns, envAppArchive());
  // A two-tier scripted gateway for a fresh service type.
  const type = unique('t').toLowerCase();
  const gw = await api.post<Job>('/jobs', { ...gatewayAppJob(`job::${ns}::gw`, gwPkg.uuid, { TIER: '2' }), ports: [{ number: 0, optional: false, routes: [{ type: 'http', endpoint: `${type}.gw.test` }] }], state: 'started' });
  t.is(gw.status, 200, gw.text);
  await runningInstances(api, gw.body.uuid, 1);
  t.is((await api.post('/gateways', { job_fqn: gw.body.fqn, type })).status, 200);

  const app = { packages: [{ fqn: envPkg.fqn }], start: { cmd: 'node /app/env.js', timeout: 30 }, exposed_ports: [0], resources: { memory: '64MiB', disk_space: '64MiB' }, state: 'started' };
  const manifest = {
    services: { [`service::${ns}::db`]: { type, params: { db: '3' } } },
    jobs: {
      [`job::${ns}::front`]: { ...app, links: { BACKEND: { fqn: `job::${ns}::back` } }, services: { DB: { fqn: `service::${ns}::db` } } },
      [`job::${ns}::back`]: app,
    },
  };
  const r = await api.post<{ location: string }>('/manifests', manifest);
  t.is(r.status, 200, r.text);
  const task = await taskEnd<Task>(api, r.body.location);
  t.is(task.state, 'complete', JSON.stringify(task.events.at(-1)));
  const names = task.events.map((e) => e.subtask.name);
  // Dependency order: the service, then the link target, then the job that uses both.
  const at = (name: string) => names.indexOf(name);
  t.true(at(`created service::${ns}::db`) >= 0, names.join(' | '));
  t.true(at(`created service::${ns}::db`) < at(`created job::${ns}::back`));
  t.true(at(`created job::${ns}::back`) < at(`linked job::${ns}::front to job::${ns}::back`));
  t.true(names.includes(`bound job::${ns}::front to service::${ns}::db`));

  const front = (await api.get<Job[]>(`/jobs?fqn=${encodeURIComponent(`job::${ns}::front`)}`)).body[0]!;
  const back = (await api.get<Job[]>(`/jobs?fqn=${encodeURIComponent(`job::${ns}::back`)}`)).body[0]!;
  t.is(Object.keys(front.bindings).length, 2);
  await runningInstances(api, back.uuid, 1);
  // The front runs with both variables (its instance is replaced as the bindings arrive).
  const env = await eventually(
    async () => {
      for (const i of (await instancesOf(api, front.uuid)).filter((x) => x.state === 'RUNNING')) {
        const e = await envOf(i).catch(() => undefined);
        if (e?.['BACKEND_URI'] && e['DB_URI']) return e;
      }
      return undefined;
    },
    { timeoutMs: 90_000, what: 'the front instance with BACKEND_URI and DB_URI' },
  );
  t.regex(env['BACKEND_URI']!, /^tcp:\/\/[\d.]+:\d+$/);
  t.truthy(env['DB_URI']);
  // The link reaches the back job: its answer names its own job.
  const backAnswer = await fetch(`http://${env['BACKEND_URI']!.slice('tcp://'.length)}/`).then((res) => res.json() as Promise<{ env: Record<string, string> }>);
  t.is(backAnswer.env['PLATFORM_JOB_UUID'], back.uuid);

  // Again: the service is unchanged, the link and the binding are left alone (rule 2).
  const again = await api.post<{ location: string }>('/manifests', manifest);
  const second = await taskEnd<Task>(api, again.body.location);
  t.is(second.state, 'complete', JSON.stringify(second.events.at(-1)));
  const names2 = second.events.map((e) => e.subtask.name);
  t.true(names2.includes(`unchanged service::${ns}::db`), names2.join(' | '));
  t.true(names2.some((n) => /links to .* already: left alone/.test(n)));
  t.true(names2.some((n) => /is bound to .* already: left alone/.test(n)));
  t.is(Object.keys((await api.get<Job>(`/jobs/${front.uuid}`)).body.bindings).length, 2);
  t.is((await api.get<unknown[]>('/services')).body.filter((s) => (s as { fqn: string }).fqn === `service::${ns}::db`).length, 1);
});
