/**
 * Manifests carry a job's log drains, autoscaling, secrets and app token setting: deployed with the job,
 * checked with the rest of the document before anything changes.
 */
import test from 'ava';
import type { Job } from '@platform/controller';
import { httpAppArchive, uploadPackage } from '../harness/apps.js';
import { startCluster } from '../harness/cluster.js';
import { unique } from '../harness/fixtures.js';
import { taskEnd } from '../harness/tasks.js';

test('manifests: a job\'s drains and autoscaling are deployed with it; a bad autoscaling bound refuses the whole document', async (t) => {
  // The drain names a collector on loopback (never reached: no instance runs): listed.
  const { api } = await startCluster(t, [], { allowedDestinations: ['127.0.0.1:5514'] });
  const ns = `/sandbox/admin/${unique('mf')}`;
  const pkg = await uploadPackage(api, ns, httpAppArchive());
  const job = (autoscaling: Record<string, unknown>) => ({
    packages: [{ fqn: pkg.fqn }],
    start: { cmd: 'node /app/server.js' },
    exposed_ports: [0],
    drains: [{ url: 'syslog://127.0.0.1:5514', max_size: 1024 }],
    autoscaling,
  });
  const good = { min_instances: 1, max_instances: 3, rule: { type: 'threshold', metric: 'cpu_per_second', config: { lower_threshold: 10, upper_threshold: 80 } } };

  // min_instances above max_instances: refused before anything changes, the other job included.
  const bad = await api.post<{ message: string }>('/manifests', { jobs: { [`job::${ns}::one`]: job(good), [`job::${ns}::two`]: job({ min_instances: 3, max_instances: 2 }) } });
  t.is(bad.status, 400, bad.text);
  t.regex(bad.body.message, /min_instances must not exceed max_instances/);
  t.deepEqual((await api.get<Job[]>(`/jobs?fqn=${encodeURIComponent(`job::${ns}::one`)}`)).body, []);

  const r = await api.post<{ location: string }>('/manifests', { jobs: { [`job::${ns}::one`]: job(good) } });
  t.is(r.status, 200, r.text);
  const task = await taskEnd<{ state: string; errored: string }>(api, r.body.location);
  t.is(task.state, 'complete', JSON.stringify(task));
  t.is(task.errored, 'unerrored');
  const [deployed] = (await api.get<Job[]>(`/jobs?fqn=${encodeURIComponent(`job::${ns}::one`)}`)).body;
  t.like(deployed?.drains?.[0], { url: 'syslog://127.0.0.1:5514', max_size: 1024 });
  t.truthy(deployed?.drains?.[0]?.uuid);
  t.like(deployed?.autoscaling, { min_instances: 1, max_instances: 3, rule: { type: 'threshold', metric: 'cpu_per_second' } });
});

test('manifests: a job\'s secrets and app_token are deployed with it; a missing secret refuses the whole document; an update that does not declare them keeps them', async (t) => {
  const { api } = await startCluster(t, []);
  const ns = `/sandbox/admin/${unique('mf')}`;
  const pkg = await uploadPackage(api, ns, httpAppArchive());
  const secret = await api.post<{ uuid: string }>('/secrets', { fqn: `secret::${ns}::db`, value: 'hunter2' });
  t.is(secret.status, 200, secret.text);
  const job = (extra: Record<string, unknown>) => ({ packages: [{ fqn: pkg.fqn }], start: { cmd: 'node /app/server.js' }, ...extra });
  const fqn = `job::${ns}::one`;

  // A secret that does not exist: refused before anything changes, the other job included.
  const missing = await api.post<{ message: string }>('/manifests', {
    jobs: { [fqn]: job({ secrets: [{ fqn: `secret::${ns}::db`, env: 'DB_PASSWORD' }] }), [`job::${ns}::two`]: job({ secrets: [{ fqn: `secret::${ns}::nope`, file: 'x' }] }) },
  });
  t.is(missing.status, 400, missing.text);
  t.regex(missing.body.message, new RegExp(`jobs\\."job::${ns}::two"\\.secrets: .*secret::${ns}::nope`));
  t.deepEqual((await api.get<Job[]>(`/jobs?fqn=${encodeURIComponent(fqn)}`)).body, []);
  // Neither env nor file: the shape is refused.
  const shapeless = await api.post<{ message: string }>('/manifests', { jobs: { [fqn]: job({ secrets: [{ fqn: `secret::${ns}::db` }] }) } });
  t.is(shapeless.status, 400, shapeless.text);
  t.regex(shapeless.body.message, /give exactly one of env and file/);

  const deploy = async (manifest: Record<string, unknown>) => {
    const r = await api.post<{ location: string }>('/manifests', manifest);
    t.is(r.status, 200, r.text);
    const task = await taskEnd<{ state: string; errored: string }>(api, r.body.location);
    t.is(task.errored, 'unerrored', JSON.stringify(task));
    return (await api.get<Job[]>(`/jobs?fqn=${encodeURIComponent(fqn)}`)).body[0]!;
  };
  const deployed = await deploy({ jobs: { [fqn]: job({ secrets: [{ fqn: `secret::${ns}::db`, env: 'DB_PASSWORD' }], app_token: true }) } });
  t.true(deployed.app_token);
  t.deepEqual(deployed.secrets, [{ fqn: `secret::${ns}::db`, uuid: secret.body.uuid, version: 1, env: 'DB_PASSWORD' }]);
  t.false(JSON.stringify(deployed).includes('hunter2'));
  const installs = (await api.get<{ audit_payload: Record<string, unknown> }[]>(`/audit?event_type=secret.install&fqn=${encodeURIComponent(`secret::${ns}::db`)}`)).body;
  t.deepEqual(installs.map((r) => r.audit_payload), [{ job: fqn, job_uuid: deployed.uuid, env: 'DB_PASSWORD' }]);
  // Rule 1: what the manifest does not declare is kept.
  const again = await deploy({ jobs: { [fqn]: job({ instances: 2 }) } });
  t.is(again.num_instances, 2);
  t.true(again.app_token);
  t.deepEqual(again.secrets, deployed.secrets);
  // Declared, they change: off, and none.
  const off = await deploy({ jobs: { [fqn]: job({ secrets: [], app_token: false }) } });
  t.false(off.app_token);
  t.deepEqual(off.secrets, []);
  t.is((await api.delete(`/secrets/${secret.body.uuid}`)).status, 200, 'taken out of the job, the secret may go');
});
