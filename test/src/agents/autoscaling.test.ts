/**
 * Autoscaling end to end: a real app on a real agent burns CPU when told to; the
 * controller's autoscaler (threshold rule on cpu_per_second, from the agents' usage) scales the
 * job up through a job update, and back down once the load is gone. Each change is a job.update
 * in the audit log by the autoscaler, and the job's log says why.
 */
import test from 'ava';
import type { AuditLogItem, Job } from '@platform/controller';
import { tarGz, uploadPackage } from '../harness/apps.js';
import { callInstance, runningInstances, startCluster } from '../harness/cluster.js';
import { unique } from '../harness/fixtures.js';
import { eventually } from '../harness/wait.js';

/** GET /burn: busy from now on (in 50 ms slices, so it still answers); GET /idle: stops. */
const BURNER = `
const http = require('node:http');
let burning = false;
const burn = () => { if (!burning) return; const end = Date.now() + 50; while (Date.now() < end); setImmediate(burn); };
http.createServer((req, res) => {
  if (req.url === '/burn' && !burning) { burning = true; setImmediate(burn); }
  if (req.url === '/idle') burning = false;
  res.setHeader('content-type', 'application/json');
  res.end(JSON.stringify({ burning }));
}).listen(Number(process.env.PORT), () => console.log('ready'));
`;

test('autoscaling: a real app under CPU load is scaled up by the autoscaler and back down when the load is gone', async (t) => {
  const cluster = await startCluster(t, [{ args: ['--usage-interval-ms', '1000'] }]);
  const { api } = cluster;
  const ns = `/autoscale/${unique()}`;
  const pkg = await uploadPackage(api, ns, tarGz({ 'app/burn.js': BURNER }));
  const created = await api.post<Job>('/jobs', {
    fqn: `job::${ns}::burner`,
    num_instances: 1,
    packages: [{ uuid: pkg.uuid }],
    processes: { app: { start_command: 'node /app/burn.js' } },
    ports: [{ number: 0, optional: false }],
    state: 'started',
    autoscaling: {
      min_instances: 1,
      max_instances: 2,
      observation_interval_secs: 10,
      scale_timeout_secs: 10,
      // ms of CPU per second per instance: a busy loop gets far more than 30 even on a loaded host; idle node far less than 10.
      rule: { type: 'threshold', metric: 'cpu_per_second', config: { upper_threshold: 30, lower_threshold: 10, monitoring_window_secs: 10 } },
    },
  });
  t.is(created.status, 200, created.text);
  const job = created.body;
  t.like(job.autoscaling, { min_instances: 1, max_instances: 2, warmup_secs: 0, rule: { type: 'threshold', metric: 'cpu_per_second', config: { scale_up_delta: 1, scale_down_delta: 1 } } });
  // Bounds of the spec: refused with 400 naming the field, nothing created.
  const bad = await api.post<{ message: string }>('/jobs', { fqn: `job::${ns}::bad`, autoscaling: { min_instances: 1, max_instances: 1 } });
  t.is(bad.status, 400);
  t.regex(bad.body.message, /max_instances/);
  t.is((await api.post('/jobs', { fqn: `job::${ns}::bad`, autoscaling: { observation_interval_secs: 5 } })).status, 400);

  const [first] = await runningInstances(api, job.uuid, 1);
  await callInstance(first!, '/burn');
  const up = await eventually(
    async () => {
      const j = (await api.get<Job>(`/jobs/${job.uuid}`)).body;
      return j.num_instances === 2 ? j : undefined;
    },
    { timeoutMs: 90_000, what: 'the autoscaler scaling the job to 2' },
  );
  t.is(up.updated_by, 'autoscaler@platform.local');
  await runningInstances(api, job.uuid, 2, 90_000);

  // The load goes: back to one instance.
  await callInstance(first!, '/idle');
  await eventually(async () => (await api.get<Job>(`/jobs/${job.uuid}`)).body.num_instances === 1, { timeoutMs: 90_000, what: 'the autoscaler scaling back to 1' });
  await runningInstances(api, job.uuid, 1, 90_000);

  const audit = (await api.get<(AuditLogItem & { audit_payload: { patches?: { path: string; value?: unknown }[] } })[]>(`/audit?event_type=job.update&fqn=${encodeURIComponent(job.fqn)}`)).body;
  const scaled = audit.filter((a) => a.principal_name === 'autoscaler@platform.local');
  t.true(scaled.length >= 2, `${scaled.length} updates by the autoscaler`);
  t.true(scaled.some((a) => a.audit_payload.patches?.some((p) => p.path === 'job/num_instances' && p.value === 2)));
  const log = (await api.get(`/jobs/${job.uuid}/logs?lines=10000`, { headers: { accept: 'text/plain' } })).text;
  t.regex(log, /\[autoscaler: cpu_per_second threshold: [\d.]+ above 30: 1 -> 2 instances\]/);
  t.regex(log, /\[autoscaler: cpu_per_second threshold: [\d.]+ below 10: 2 -> 1 instances\]/);
});
