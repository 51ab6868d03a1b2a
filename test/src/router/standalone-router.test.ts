/**
 * A separate `platform-router` process follows the controller's route table over gRPC: it serves
 * what the table says, keeps serving while the controller is away, and catches up when it is back.
 */
import test from 'ava';
import type { Job } from '@platform/controller';
import { uploadPackage } from '../harness/apps.js';
import { runningInstances, startCluster } from '../harness/cluster.js';
import { unique } from '../harness/fixtures.js';
import { sendBroken } from '../harness/broken-bodies.js';
import { routerAppArchive, splitAddress, viaRouter } from '../harness/router-app.js';
import { RouterProcess } from '../harness/router-process.js';
import { eventually } from '../harness/wait.js';

test('platform-router: a separate router follows the table, serves through a controller restart and catches up', async (t) => {
  const cluster = await startCluster(t, [{}], { args: ['--domain', 'apps.test'] });
  const router = await RouterProcess.start(cluster.controller, ['--metrics-listen', '127.0.0.1:0'], [], { PLATFORM_HTTP_BODY_IDLE_TIMEOUT_MS: '500' });
  t.teardown(async () => {
    await router.kill9();
  });
  const pkg = await uploadPackage(cluster.api, '/sandbox/admin', routerAppArchive());
  const first = `${unique('edge')}.apps.test`;
  const created = await cluster.api.post<Job>('/jobs', {
    fqn: `job::/sandbox/admin::${unique('edge')}`,
    packages: [{ uuid: pkg.uuid }],
    processes: { app: { start_command: 'node /app/server.js' } },
    ports: [{ number: 0, routes: [{ type: 'http', endpoint: first }] }],
    resources: { memory: 64 * 1024 * 1024, disk: 64 * 1024 * 1024 },
    tags: { app: '' },
    state: 'started',
  });
  t.is(created.status, 200, created.text);
  const [instance] = await runningInstances(cluster.api, created.body.uuid, 1, 90_000);
  const served = await eventually(async () => {
    const r = await viaRouter(router.address, first);
    return r.status === 200 ? r : undefined;
  }, { timeoutMs: 5_000, what: 'the standalone router serving the route' });
  t.is(served.instance, instance!.uuid);

  // Its HTTP limits are its own settings: a body that stalls before the app answers gets 408 after PLATFORM_HTTP_BODY_IDLE_TIMEOUT_MS.
  const [routerHost, routerPort] = splitAddress(router.address);
  const stalled = await sendBroken(routerHost, routerPort, { method: 'POST', path: '/hold', headers: { host: first }, mode: 'stall', first: 'abc' }, 10_000);
  t.is(stalled.status, 408, stalled.body);
  t.regex(stalled.body, /stalled: no byte of it arrived for 0\.5 s/);
  const refused = await t.throwsAsync(RouterProcess.start(cluster.controller, [], [], { PLATFORM_HTTP_KEEP_ALIVE_TIMEOUT_MS: 'soon' }));
  t.regex(refused.message, /PLATFORM_HTTP_KEEP_ALIVE_TIMEOUT_MS="soon" is not a whole number of milliseconds/);

  // Its metrics per route, on its own /metrics.
  const metrics = await eventually(async () => {
    const text = await (await fetch(`http://${router.metricsAddress}/metrics`)).text();
    return /platform_router_requests_total\{route="[^"]+",class="2xx"\} [1-9]/.test(text) ? text : undefined;
  });
  const route = first.replace(/\./g, '\\.');
  t.regex(metrics, new RegExp(`platform_router_requests_total\\{route="${route}",class="2xx"\\} [1-9]`));
  t.regex(metrics, new RegExp(`platform_router_request_duration_seconds_count\\{route="${route}"\\} [1-9]`));
  t.regex(metrics, new RegExp(`platform_router_bytes_total\\{route="${route}",direction="out"\\} [1-9]`));
  t.regex(metrics, new RegExp(`platform_router_active_connections\\{route="${route}"\\} \\d+`));
  t.regex(metrics, /^platform_router_process_cpu_user_seconds_total /m, 'the process metrics too');
  t.regex(metrics, /^platform_router_nodejs_heap_size_used_bytes /m, 'and Node.js heap metrics, named as the controller names its own');
  t.notRegex(metrics, /platform_router_process_process_/, 'no doubled word');

  // A route change reaches it within a second.
  const second = `${unique('edge')}.apps.test`;
  const job = (await cluster.api.get<Job>(`/jobs/${created.body.uuid}`)).body;
  const put = await cluster.api.put<Job>(`/jobs/${job.uuid}`, { ...job, ports: [{ number: 0, routes: [{ type: 'http', endpoint: first }, { type: 'http', endpoint: second }] }] });
  t.is(put.status, 200, put.text);
  await eventually(async () => (await viaRouter(router.address, second)).status === 200, { timeoutMs: 1_000, intervalMs: 10, what: 'the new route within a second' });

  // The controller goes away: the router keeps serving the table it has.
  await cluster.controller.kill9();
  t.is((await viaRouter(router.address, first)).status, 200);
  await eventually(() => router.linesWith('route table stream ended; reconnecting').length > 0, { what: 'the router noticing' });

  // Back on the same address (the agent's instances kept running): the router reconnects,
  // gets the new epoch's table, and follows changes made after the restart.
  cluster.controller = await cluster.controller.restart();
  const api = await cluster.controller.admin();
  await eventually(() => router.linesWith('route table followed').length >= 2, { timeoutMs: 20_000, what: 'the router following again' });
  const current = (await api.get<Job>(`/jobs/${job.uuid}`)).body;
  const third = `${unique('edge')}.apps.test`;
  const again = await api.put<Job>(`/jobs/${job.uuid}`, { ...current, ports: [{ number: 0, routes: [{ type: 'http', endpoint: third }] }] });
  t.is(again.status, 200, again.text);
  await eventually(
    async () => (await viaRouter(router.address, third)).status === 200 && (await viaRouter(router.address, first)).status === 404,
    { timeoutMs: 10_000, what: 'the change after the restart served' },
  );
  const followed = router.linesWith('route table followed');
  t.is(followed.length, 2, JSON.stringify(followed));
  t.not(followed[1]!['epoch'], followed[0]!['epoch'], 'a new controller, a new epoch: the router took its snapshot');
});
