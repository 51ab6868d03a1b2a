/**
 * Requests per job for metric queries and autoscaling: what the embedded router and a separate
 * platform-router serve shows up in the controller's `requestStats.drain()`. The controller runs
 * in this process (to call drain); the agent, the apps and the standalone router are real child
 * processes.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import { Controller, JsonLogger, MemorySink, type Job, type JobRequestWindow } from '@platform/controller';
import { AgentProcess } from '../harness/agent-process.js';
import { uploadPackage } from '../harness/apps.js';
import { FAST_AGENT_TIMING, runningInstances, testIsolation } from '../harness/cluster.js';
import { TEST_ADMIN_PASSWORD, TEST_JOIN_TOKEN } from '../harness/controller-process.js';
import { unique } from '../harness/fixtures.js';
import { ApiClient } from '../harness/http.js';
import { freePort } from '../harness/net.js';
import { routerAppArchive, viaRouter, type Served } from '../harness/router-app.js';
import { RouterProcess } from '../harness/router-process.js';
import { eventually } from '../harness/wait.js';

test('request stats: requests through the embedded router and a platform-router show up in drain() per job, with 5xx and latency', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'request-stats-test-'));
  const grpcPort = await freePort();
  const controller = await Controller.start({
    dataDir: join(dir, 'data'),
    listen: { host: '127.0.0.1', port: 0 },
    grpcListen: { host: '127.0.0.1', port: grpcPort },
    routerListen: { host: '127.0.0.1', port: 0 },
    domain: 'apps.test',
    adminPassword: TEST_ADMIN_PASSWORD,
    joinToken: TEST_JOIN_TOKEN,
    sync: false,
    heartbeatIntervalMs: Number(FAST_AGENT_TIMING.PLATFORM_HEARTBEAT_INTERVAL_MS),
    agentLostAfterMs: Number(FAST_AGENT_TIMING.PLATFORM_AGENT_LOST_AFTER_MS),
    log: new JsonLogger(new MemorySink(), 'warn'),
  });
  const grpc = { grpcAddress: `127.0.0.1:${grpcPort}` };
  const cleanup: (() => Promise<unknown>)[] = [() => controller.stop(), () => rm(dir, { recursive: true, force: true })];
  t.teardown(async () => {
    for (const step of cleanup) await step().catch(() => undefined);
  });
  const api = await ApiClient.login(controller.url, 'admin', TEST_ADMIN_PASSWORD);
  const agent = await AgentProcess.start(grpc, api, { isolation: testIsolation(t) });
  cleanup.unshift(() => agent.dispose());
  const edge = await RouterProcess.start(grpc);
  cleanup.unshift(() => edge.kill9());

  const pkg = await uploadPackage(api, '/sandbox/admin', routerAppArchive());
  const deploy = async (host: string): Promise<Job> => {
    const r = await api.post<Job>('/jobs', {
      fqn: `job::/sandbox/admin::${unique('rs')}`,
      num_instances: 2,
      packages: [{ uuid: pkg.uuid }],
      processes: { app: { start_command: 'node /app/server.js' } },
      ports: [{ number: 0, routes: [{ type: 'http', endpoint: host }] }],
      resources: { memory: 64 * 1024 * 1024, disk: 64 * 1024 * 1024 },
      tags: { app: '' },
      state: 'started',
    });
    t.is(r.status, 200, r.text);
    await runningInstances(api, r.body.uuid, 2, 90_000);
    return r.body;
  };
  // One job served through each router, so that each router's counts are seen apart.
  const [inner, outer] = [`${unique('inner')}.apps.test`, `${unique('outer')}.apps.test`];
  const innerJob = await deploy(inner);
  const outerJob = await deploy(outer);
  const embedded = controller.router!.address;

  // Every answer that came from an instance is counted (the router's own 404 and 503 name no job).
  const sent = new Map<string, { requests: number; errors: number }>();
  const through = async (router: string, host: string, job: string, path = '/'): Promise<Served> => {
    const r = await viaRouter(router, host, path);
    if (r.job === job || path.startsWith('/status/')) {
      const s = sent.get(job) ?? { requests: 0, errors: 0 };
      s.requests++;
      if (r.status >= 500) s.errors++;
      sent.set(job, s);
    }
    return r;
  };
  await eventually(async () => (await through(embedded, inner, innerJob.uuid)).status === 200, { what: 'the embedded router serving' });
  await eventually(async () => (await through(edge.address, outer, outerJob.uuid)).status === 200, { what: 'the platform-router serving' });
  for (let i = 0; i < 7; i++) await through(embedded, inner, innerJob.uuid);
  for (const code of [500, 503, 404]) t.is((await through(embedded, inner, innerJob.uuid, `/status/${code}`)).status, code);
  for (let i = 0; i < 5; i++) await through(edge.address, outer, outerJob.uuid);
  for (const code of [502, 200]) t.is((await through(edge.address, outer, outerJob.uuid, `/status/${code}`)).status, code);

  // Drains add up to exactly what was sent (the platform-router reports about once a second).
  const seen = new Map<string, Required<JobRequestWindow>>();
  const add = (w: JobRequestWindow) => {
    const s = seen.get(w.jobUuid) ?? { jobUuid: w.jobUuid, requests: 0, errors: 0, latencySumMs: 0, latencyMaxMs: 0, latencyBuckets: [] };
    s.requests += w.requests;
    s.errors += w.errors;
    s.latencySumMs += w.latencySumMs;
    s.latencyMaxMs = Math.max(s.latencyMaxMs, w.latencyMaxMs);
    s.latencyBuckets = (w.latencyBuckets ?? []).map((n, i) => n + (s.latencyBuckets[i] ?? 0));
    seen.set(w.jobUuid, s);
  };
  await eventually(
    () => {
      for (const w of controller.requestStats.drain()) add(w);
      return [innerJob.uuid, outerJob.uuid].every((j) => (seen.get(j)?.requests ?? 0) >= sent.get(j)!.requests);
    },
    { timeoutMs: 10_000, what: 'the counts of both routers drained' },
  );
  for (const job of [innerJob.uuid, outerJob.uuid]) {
    const s = seen.get(job)!;
    t.like(s, sent.get(job)!, job === innerJob.uuid ? 'embedded router' : 'platform-router');
    t.true(s.latencySumMs > 0 && s.latencyMaxMs > 0 && s.latencyMaxMs <= s.latencySumMs);
    t.is(
      s.latencyBuckets.reduce((a, b) => a + b, 0),
      s.requests,
      'every request in one latency bucket',
    );
  }
  t.deepEqual(sent.get(innerJob.uuid), { requests: 11, errors: 2 });
  t.is(sent.get(outerJob.uuid)!.errors, 1);
});
