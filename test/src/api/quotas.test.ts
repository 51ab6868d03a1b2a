import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import test from 'ava';
import type { ApiErrorBody, AuditLogItem, Job } from '@platform/controller';
import { appJob, unique } from '../harness/fixtures.js';
import type { ApiClient } from '../harness/http.js';
import { createPackage } from '../harness/packages.js';
import { useController } from '../harness/suite.js';
import { taskEnd } from '../harness/tasks.js';
import { eventually } from '../harness/wait.js';

// The autoscaling case polls a metric server of its own on loopback: listed, as an operator lists theirs.
const suite = useController(test, { allowedDestinations: ['127.0.0.1'] });
const MiB = 1024 * 1024;

interface QuotaUsage {
  namespace: string;
  quotas: { name: string; namespace: string; realm: string; limit: number; limit_text: string; in_use: number; unit: string }[];
}

/** A new user with its sandbox, a ready package there, and `quota` (a quota:: realm body) on the sandbox. */
async function sandboxUser(quota: string): Promise<{ api: ApiClient; ns: string; pkg: string; name: string; policy: string }> {
  const name = unique('q');
  const api = await suite.api().createUser(name, 'a long enough password');
  const ns = `/sandbox/${name}`;
  const policy = unique('quota');
  const r = await suite.api().put('/v1/policy', { docs: [{ name: policy, for_version: 0, text: `quota::${ns} { ${quota} }` }] });
  if (r.status !== 200) throw new Error(`policy: ${r.status} ${r.text}`);
  const pkg = await createPackage(api, ns, { upload: true });
  return { api, ns, pkg: pkg.uuid, name, policy };
}

const started = (ns: string, pkg: string, extra: Record<string, unknown> = {}) =>
  appJob(`job::${ns}::${unique('j')}`, { packages: [{ uuid: pkg }], state: 'started', ...extra });

test('quotas: a create that would go over answers 403 naming the quota, its limit and the use; nothing is written', async (t) => {
  const { api, ns, pkg } = await sandboxUser('total.memory 1GB max.instances 3');
  const first = await api.post<Job>('/jobs', started(ns, pkg, { num_instances: 3, resources: { memory: 256 * MiB } }));
  t.is(first.status, 200, first.text);
  const fqn = `job::${ns}::over`;
  const over = await api.post<ApiErrorBody>('/jobs', { ...started(ns, pkg, { num_instances: 2, resources: { memory: 256 * MiB } }), fqn });
  t.is(over.status, 403);
  t.is(over.body.message, `quota total.memory of ${ns} is 1 GiB (quota::${ns}): 768 MiB is in use and this change needs 512 MiB more`);
  t.true(over.body.fatal);
  t.deepEqual(over.body.missing_claims, []);
  t.like(over.body.error_details, { quota: 'total.memory', namespace: ns, limit: 1024 * MiB, limit_text: '1GB', in_use: 768 * MiB, requested: 512 * MiB });
  t.deepEqual((await api.get<Job[]>(`/jobs?fqn=${encodeURIComponent(fqn)}`)).body, [], 'nothing was written');
  const tooMany = await api.post<ApiErrorBody>('/jobs', started(ns, pkg, { num_instances: 4, resources: { memory: 64 * MiB } }));
  t.is(tooMany.status, 403);
  t.regex(tooMany.body.message, /^quota max\.instances of .* is 3 \(quota::.*\): this job asks for 4 instances$/);
  // A job that is not started uses nothing: created, it counts once it starts.
  const idle = await api.post<Job>('/jobs', { ...started(ns, pkg, { num_instances: 2 }), state: undefined });
  t.is(idle.status, 200, idle.text);
  t.is(idle.body.state, 'ready');
  const start = await api.patch<ApiErrorBody>(`/jobs/${idle.body.uuid}`, { state: 'started' });
  t.is(start.status, 403, 'a start is refused like a create');
  t.regex(start.body.message, /total\.memory/);
  t.is((await api.get<Job>(`/jobs/${idle.body.uuid}`)).body.state, 'ready');
});

test('quotas: PUT, PATCH and scaling are held to the quota; lowering always passes', async (t) => {
  const { api, ns, pkg } = await sandboxUser('total.instances 4');
  const job = (await api.post<Job>('/jobs', started(ns, pkg, { num_instances: 2 }))).body;
  const scale = await api.patch<ApiErrorBody>(`/jobs/${job.uuid}`, { num_instances: 5 });
  t.is(scale.status, 403);
  t.is(scale.body.message, `quota total.instances of ${ns} is 4 (quota::${ns}): 2 is in use and this change needs 3 more`);
  const current = (await api.get<Job>(`/jobs/${job.uuid}`)).body;
  const put = await api.put<ApiErrorBody>(`/jobs/${job.uuid}`, { ...current, num_instances: 6 });
  t.is(put.status, 403);
  t.is((await api.get<Job>(`/jobs/${job.uuid}`)).body.num_instances, 2, 'unchanged');
  t.is((await api.patch(`/jobs/${job.uuid}`, { num_instances: 4 })).status, 200);
  t.is((await api.patch(`/jobs/${job.uuid}`, { num_instances: 1 })).status, 200);
  const usage = await api.get<QuotaUsage>(`/quotas?namespace=${encodeURIComponent(ns)}`);
  t.is(usage.status, 200);
  t.deepEqual(usage.body, { namespace: ns, quotas: [{ name: 'total.instances', namespace: ns, realm: `quota::${ns}`, limit: 4, limit_text: '4', in_use: 1, unit: 'instances' }] });
});

test('quotas: concurrent requests cannot overshoot a quota together', async (t) => {
  const { api, ns, pkg } = await sandboxUser('total.memory 1GB');
  const replies = await Promise.all(Array.from({ length: 8 }, () => api.post<ApiErrorBody>('/jobs', started(ns, pkg, { resources: { memory: 256 * MiB } }))));
  t.deepEqual(replies.map((r) => r.status).sort(), [200, 200, 200, 200, 403, 403, 403, 403]);
  const usage = (await api.get<QuotaUsage>(`/quotas?namespace=${encodeURIComponent(ns)}`)).body;
  t.is(usage.quotas[0]!.in_use, 1024 * MiB);
});

test('quotas: use is readable by the namespace\'s users only; a policy change of a quota is audited', async (t) => {
  const { api, ns, policy } = await sandboxUser('total.memory 2GB max.instances 5');
  const other = await suite.api().createUser(unique('o'), 'a long enough password');
  const refused = await other.get<ApiErrorBody>(`/quotas?namespace=${encodeURIComponent(ns)}`);
  t.is(refused.status, 403);
  t.deepEqual(refused.body.missing_claims, [`permit read on quota::${ns}`]);
  t.is((await api.get<ApiErrorBody>('/quotas')).status, 400);
  t.is((await api.get<ApiErrorBody>('/quotas?namespace=nope')).status, 400);
  const put = await suite.api().put('/v1/policy', { docs: [{ name: policy, for_version: 1, text: `quota::${ns} { total.memory 4GB total.disk 10GB }` }] });
  t.is(put.status, 200, put.text);
  const records = (await suite.api().get<AuditLogItem[]>(`/audit?event_type=quota.update&fqn=${encodeURIComponent(`quota::${ns}`)}`)).body;
  const changed = records.find((r) => JSON.stringify(r.audit_payload).includes('4GB'))!;
  t.truthy(changed, JSON.stringify(records));
  t.is(changed.principal_name, 'admin@platform.local');
  t.deepEqual(changed.audit_payload, {
    realm: `quota::${ns}`,
    patches: [
      { op: 'remove', path: 'quota/max.instances', value: '5' },
      { op: 'add', path: 'quota/total.disk', value: '10GB' },
      { op: 'replace', path: 'quota/total.memory', value: '4GB', oldvalue: '2GB' },
    ],
  });
  const usage = (await api.get<QuotaUsage>(`/quotas?namespace=${encodeURIComponent(`${ns}/deeper`)}`)).body;
  t.deepEqual(usage.quotas.map((q) => [q.name, q.namespace, q.limit]), [['total.memory', ns, 4 * 1024 * MiB], ['total.disk', ns, 10 * 1024 * MiB]]);
});

test('quotas: a manifest that would go over fails its task naming the quota', async (t) => {
  const { api, ns, pkg } = await sandboxUser('total.instances 2');
  const pkgFqn = (await api.get<{ fqn: string }>(`/packages/${pkg}`)).body.fqn;
  const manifest = { jobs: { [`job::${ns}::a`]: { packages: [{ fqn: pkgFqn }], instances: 2, state: 'started' }, [`job::${ns}::b`]: { packages: [{ fqn: pkgFqn }], state: 'started' } } };
  const r = await api.post<{ location: string }>('/manifests', manifest);
  t.is(r.status, 200, r.text);
  const task = await taskEnd<{ state: string; errored: string; events: { payload?: Record<string, string> }[] }>(api, r.body.location);
  t.is(task.errored, 'errored');
  t.true(task.events.some((e) => /quota total\.instances of .* is 2/.test(e.payload?.['error'] ?? '')), JSON.stringify(task.events.map((e) => e.payload)));
});

test('quotas: autoscaling stops at the quota and says so in the job\'s health', async (t) => {
  // A metric that always asks for more.
  const metric = createServer((_req, res) => res.end('100'));
  await new Promise<void>((resolve) => metric.listen(0, '127.0.0.1', resolve));
  t.teardown(() => metric.close());
  const url = `http://127.0.0.1:${(metric.address() as AddressInfo).port}/load`;
  const { api, ns, pkg } = await sandboxUser('max.instances 3');
  const job = (
    await api.post<Job>(
      '/jobs',
      started(ns, pkg, {
        monitoring: { load: { type: 'http_metric', config: { url } } },
        autoscaling: { min_instances: 1, max_instances: 10, observation_interval_secs: 10, scale_timeout_secs: 10, rule: { type: 'threshold', metric: 'load', config: { upper_threshold: 10, lower_threshold: 1, scale_up_delta: 5 } } },
      }),
    )
  ).body;
  t.truthy(job.uuid);
  const health = await eventually(
    async () => {
      const h = (await api.get<{ uuid: string; message?: string }[]>(`/jobs/health?ids=${job.uuid}`)).body[0];
      return h?.message?.includes('autoscaling held') ? h : undefined;
    },
    { timeoutMs: 60_000, intervalMs: 500, what: 'autoscaling held at the quota' },
  );
  // Without agents the job also waits for room; both reasons are given.
  t.regex(health.message!, new RegExp(`autoscaling held at 3 instances \\(it asks for (6|8)\\): quota max\\.instances of ${ns} is 3 \\(quota::${ns}\\), (1|3) in use$`));
  t.is((await api.get<Job>(`/jobs/${job.uuid}`)).body.num_instances, 3, 'scaled as far as the quota allows');
});
