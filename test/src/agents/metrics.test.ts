/**
 * Metric queries end to end: a real agent measures a real app that burns CPU every
 * second (--usage-interval-ms 1000), sends its usage to a real controller, and the series are
 * read back through GET /metrics/jobs, /metrics/namespaces and /metrics/instance_managers —
 * including the newest seconds, which are still open in the controller's memory. A user who may
 * not read the job gets nothing of it.
 */
import test from 'ava';
import type { Job } from '@platform/controller';
import { commandJob, tarGz, uploadPackage } from '../harness/apps.js';
import type { InstanceManager } from '../harness/agent-process.js';
import { runningInstances, startCluster } from '../harness/cluster.js';
import { unique } from '../harness/fixtures.js';
import type { ApiClient } from '../harness/http.js';
import { routerAppArchive, viaRouter } from '../harness/router-app.js';
import { eventually } from '../harness/wait.js';

interface Series {
  times: number[];
  values: number[];
}
interface MetricResponse {
  metrics: Record<string, Record<string, Series>>;
  errors: Record<string, string>;
}

/** Busy for 150 ms of every second: about 15 % of a core when it gets the CPU it asks for. */
const BURN = `
setInterval(() => { const end = Date.now() + 150; while (Date.now() < end); }, 1000);
console.log('burning');
`;

async function query(api: ApiClient, kind: string, ...metrics: string[]): Promise<MetricResponse> {
  const qs = metrics.map((m) => `metric=${encodeURIComponent(m)}`).join('&');
  const r = await api.get<MetricResponse>(`/metrics/${kind}?${qs}`);
  if (r.status !== 200) throw new Error(`GET /metrics/${kind}: ${r.status} ${r.text}`);
  return r.body;
}

/** The newest point of a series that is not 0, with its time. */
const newest = (s: Series | undefined): { t: number; v: number } | undefined => {
  if (!s) return undefined;
  for (let i = s.values.length - 1; i >= 0; i--) if (s.values[i]! > 0) return { t: s.times[i]!, v: s.values[i]! };
  return undefined;
};

test('metrics: a real app burning CPU is measured by its agent and answered by the metric endpoints, newest seconds included', async (t) => {
  const cluster = await startCluster(t, [{ args: ['--usage-interval-ms', '1000'] }]);
  const { api } = cluster;
  const ns = `/metrics/${unique()}`;
  const pkg = await uploadPackage(api, ns, tarGz({ 'app/burn.js': BURN }));
  const burner = (await api.post<Job>('/jobs', commandJob(`job::${ns}::burner`, pkg.uuid, 'node /app/burn.js', { num_instances: 2, state: 'started' }))).body;
  const idle = (await api.post<Job>('/jobs', commandJob(`job::${ns}::idle`, pkg.uuid, 'sleep 600', { state: 'started' }))).body;
  await runningInstances(api, burner.uuid, 2);
  await runningInstances(api, idle.uuid, 1);
  await eventually(async () => (await api.get(`/jobs/${burner.uuid}/logs`, { headers: { accept: 'text/plain' } })).text.split('burning').length > 2, {
    timeoutMs: 30_000,
    what: 'both burner instances started',
  });

  const cpu = `${burner.fqn},cpu.sum,-5min`;
  const count = `${burner.fqn},cpu.count,-5min`;
  const mem = `${burner.fqn},mem_used.mean,-5min`;
  const idleCpu = `${idle.fqn},cpu.sum,-5min`;
  // The newest point is at most 20 s old: the controller answers the buckets it has not written yet
  // (it writes a 10 s bucket 30 s after it closed).
  let last: MetricResponse | undefined;
  t.teardown(() => {
    if (last) t.log(JSON.stringify(last));
  });
  const fresh = await eventually(
    async () => {
      const body = await query(api, 'jobs', cpu, count, mem, idleCpu);
      last = body;
      const nowS = Date.now() / 1000;
      const c = newest(body.metrics[cpu]?.[burner.fqn]);
      const n = newest(body.metrics[count]?.[burner.fqn]);
      return c && n && n.v === 2 && c.t >= nowS - 20 ? body : undefined;
    },
    { timeoutMs: 60_000, what: 'a fresh CPU point of the burning job with two instances' },
  );
  last = undefined;
  t.deepEqual(fresh.errors, {});
  const burnCpu = newest(fresh.metrics[cpu]![burner.fqn])!;
  t.log(`burner: ${(burnCpu.v / 1e7).toFixed(1)} % of a core across 2 instances`);
  t.true(burnCpu.v > 5e6, `cpu.sum ${burnCpu.v} ns/s is more than 0.5 % of a core (the app asks for 30 %; the machine may be busy)`);
  const memory = newest(fresh.metrics[mem]![burner.fqn])!;
  t.true(memory.v > 1024 * 1024, `mem_used.mean ${memory.v} bytes: a node process uses more than 1 MiB`);
  const idleSeries = fresh.metrics[idleCpu]![idle.fqn]!;
  const idleMax = Math.max(0, ...idleSeries.values);
  t.true(idleMax < burnCpu.v, `the sleeping job (${idleMax} ns/s) uses less than the burning one`);

  // Down-sampled: buckets rounded to the interval; every bucket present.
  const perMinute = `${burner.fqn},cpu.sum:max-1min,-3min`;
  const down = await query(api, 'jobs', perMinute, `${burner.fqn},cpu.total,-5min`);
  const minutes = down.metrics[perMinute]![burner.fqn]!;
  t.true(minutes.times.every((x) => x % 60 === 0));
  t.true(minutes.times.length >= 3);
  t.true(Math.max(...minutes.values) > 1e7);
  t.regex(down.errors[`${burner.fqn},cpu.total,-5min`] ?? '', /cpu\.total|\.sum, \.mean or \.count/, 'a bad query answers in errors, the others are answered');

  // The namespace: both jobs, one target; the namespace's own pre-aggregated series.
  const jobsOfNs = `job::${ns},cpu.sum,-5min`;
  const nsBody = await query(api, 'jobs', jobsOfNs);
  t.deepEqual(Object.keys(nsBody.metrics[jobsOfNs]!).sort(), [burner.fqn, idle.fqn].sort());
  const aggregate = `job::${ns},cpu.count,-5min`;
  await eventually(
    async () => {
      const body = await query(api, 'namespaces', aggregate);
      return newest(body.metrics[aggregate]?.[`job::${ns}`])?.v === 3 ? body : undefined;
    },
    { timeoutMs: 30_000, what: `three instances counted in ${ns}` },
  );

  // The instance manager: the host's totals under its host name, and under `*`.
  const [manager] = (await api.get<InstanceManager[]>('/instance_managers')).body;
  const hostname = manager!.hostname;
  const hostCpu = `${hostname},cpu,-5min`;
  const all = `*,mem_used,-5min`;
  const hosts = await eventually(
    async () => {
      const body = await query(api, 'instance_managers', hostCpu, all);
      return newest(body.metrics[hostCpu]?.[hostname]) && newest(body.metrics[all]?.[hostname]) ? body : undefined;
    },
    { timeoutMs: 30_000, what: `host series of ${hostname}` },
  );
  t.true(newest(hosts.metrics[hostCpu]![hostname])!.v >= burnCpu.v / 2, 'the host uses at least what the app does (within a sample)');

  // Policy: a user with only a sandbox learns nothing of the job, its namespace or the hosts.
  const eve = await api.createUser(unique('eve'), 'a long enough password');
  const denied = await eve.get<MetricResponse>(`/metrics/jobs?metric=${encodeURIComponent(cpu)}&metric=${encodeURIComponent(jobsOfNs)}`);
  t.is(denied.status, 200);
  t.deepEqual(denied.body.metrics[jobsOfNs] ?? {}, {}, 'a namespace target lists only the jobs the caller may read');
  t.is(denied.body.metrics[cpu], undefined);
  t.regex(denied.body.errors[cpu] ?? '', /not found/);
  t.false(denied.text.includes(burner.uuid));
  const deniedNs = await eve.get<MetricResponse>(`/metrics/namespaces?metric=${encodeURIComponent(aggregate)}`);
  t.is(deniedNs.body.metrics[aggregate], undefined);
  t.regex(deniedNs.body.errors[aggregate] ?? '', /not permitted/);
  t.is((await eve.get(`/metrics/instance_managers?metric=${encodeURIComponent(hostCpu)}`)).status, 403);
});

test('metrics: requests through the router become the job series requests_per_second, request_errors_per_second and request_latency', async (t) => {
  const cluster = await startCluster(t, [{ args: ['--usage-interval-ms', '1000'] }], { args: ['--domain', 'apps.test'] });
  const { api } = cluster;
  const pkg = await uploadPackage(api, '/sandbox/admin', routerAppArchive());
  const host = `${unique('rq')}.apps.test`;
  const created = await api.post<Job>('/jobs', {
    fqn: `job::/sandbox/admin::${unique('rq')}`,
    num_instances: 1,
    packages: [{ uuid: pkg.uuid }],
    processes: { app: { start_command: 'node /app/server.js' } },
    ports: [{ number: 0, routes: [{ type: 'http', endpoint: host }] }],
    state: 'started',
  });
  t.is(created.status, 200, created.text);
  const job = created.body;
  await runningInstances(api, job.uuid, 1, 90_000);
  const router = cluster.controller.routerAddress;
  await eventually(async () => (await viaRouter(router, host, '/')).status === 200, { what: 'the router serving the job' });
  for (let i = 0; i < 19; i++) await viaRouter(router, host, '/');
  t.is((await viaRouter(router, host, '/status/500')).status, 500);
  const rate = `${job.fqn},requests_per_second.sum,-10min`;
  const errors = `${job.fqn},request_errors_per_second.sum,-10min`;
  const latency = `${job.fqn},request_latency.mean,-10min`;
  const total = (s: Series | undefined) => (s?.values ?? []).reduce((a, b) => a + b, 0) * 10;
  const body = await eventually(
    async () => {
      const b = await query(api, 'jobs', rate, errors, latency);
      return Math.round(total(b.metrics[rate]?.[job.fqn])) >= 21 ? b : undefined;
    },
    { timeoutMs: 30_000, what: 'the 21 requests in the job series' },
  );
  t.deepEqual(body.errors, {});
  t.is(Math.round(total(body.metrics[rate]![job.fqn])), 21, 'per-second rates over 10 s buckets add up to the requests sent');
  t.is(Math.round(total(body.metrics[errors]![job.fqn])), 1, 'the 500');
  t.true(Math.max(...body.metrics[latency]![job.fqn]!.values) > 0, 'a mean latency in ms');
});
