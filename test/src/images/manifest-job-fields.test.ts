/**
 * Manifests carry a job's log drains and autoscaling (issue: metrics): deployed with the job,
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
