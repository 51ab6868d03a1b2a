/**
 * The embedded HTTP router, end to end: a real controller with its router on a free port, a real
 * agent, real apps reached only through the router by their route's host name.
 */
import { createHash } from 'node:crypto';
import http from 'node:http';
import test, { type ExecutionContext } from 'ava';
import type { Job } from '@platform/controller';
import { uploadPackage } from '../harness/apps.js';
import { instancesOf, runningInstances, startCluster, type ApiInstance, type TestCluster } from '../harness/cluster.js';
import { unique } from '../harness/fixtures.js';
import { routerAppArchive, splitAddress, tally, viaRouter, websocketEcho } from '../harness/router-app.js';
import { eventually } from '../harness/wait.js';

let cluster: TestCluster;
let pkg: string;

const teardowns: (() => Promise<void>)[] = [];
test.before(async (t) => {
  // One cluster for the file: hooks cannot register teardowns, so they are kept here.
  const ctx = { teardown: (fn: () => Promise<void>) => teardowns.push(fn), log: t.log.bind(t) } as unknown as ExecutionContext;
  cluster = await startCluster(ctx, [{}], { args: ['--domain', 'apps.test'] });
  pkg = (await uploadPackage(cluster.api, '/sandbox/admin', routerAppArchive())).uuid;
});

test.after.always(async () => {
  for (const fn of teardowns.reverse()) await fn();
});

const router = () => cluster.controller.routerAddress;

function appBody(host: string, extra: Record<string, unknown> = {}, route: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    fqn: `job::/sandbox/admin::${unique('rt')}`,
    num_instances: 1,
    packages: [{ uuid: pkg }],
    processes: { app: { start_command: 'node /app/server.js', start_command_timeout: 30, stop_timeout: 5 } },
    ports: [{ number: 0, optional: false, routes: [{ type: 'http', endpoint: host, ...route }] }],
    resources: { memory: 64 * 1024 * 1024, disk: 64 * 1024 * 1024 },
    tags: { app: '' },
    state: 'started',
    ...extra,
  };
}

/** Creates a started job and waits until its `count` instances run and are in the route table. */
async function deploy(t: ExecutionContext, body: Record<string, unknown>, count = 1): Promise<{ job: Job; instances: ApiInstance[] }> {
  const r = await cluster.api.post<Job>('/jobs', body);
  t.is(r.status, 200, r.text);
  const instances = await announced(r.body.uuid, count);
  return { job: r.body, instances };
}

async function announced(job: string, count: number): Promise<ApiInstance[]> {
  await runningInstances(cluster.api, job, count, 90_000);
  return eventually(
    async () => {
      const all = (await instancesOf(cluster.api, job)).filter((i) => i.state === 'RUNNING');
      return all.length === count && all.every((i) => (i as unknown as { announced_routes: boolean }).announced_routes) ? all : undefined;
    },
    { timeoutMs: 5_000, what: `${count} instances of ${job} announced` },
  );
}

async function many(host: string, n: number, path = '/'): Promise<string[]> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 8 });
  try {
    const out: string[] = [];
    for (let i = 0; i < n; i += 8) {
      const batch = await Promise.all(Array.from({ length: Math.min(8, n - i) }, () => viaRouter(router(), host, path, { agent })));
      for (const r of batch) {
        if (r.status !== 200) throw new Error(`status ${r.status}: ${r.text}`);
        out.push(r.job ?? '');
      }
    }
    return out;
  } finally {
    agent.destroy();
  }
}

test('router: an app is reached by its route host (any case, any port), with X-Forwarded-* and X-Request-Id; unknown hosts 404', async (t) => {
  const host = `${unique('hello')}.apps.test`;
  const { job, instances } = await deploy(t, appBody(host));
  const r = await viaRouter(router(), `${host.toUpperCase()}:8000`, '/some/path?q=1');
  t.is(r.status, 200, r.text);
  t.is(r.instance, instances[0]!.uuid);
  t.is(r.job, job.uuid);
  t.is(r.seen!['x-forwarded-for'], '127.0.0.1');
  t.is(r.seen!['x-forwarded-proto'], 'http');
  t.is(r.seen!['x-forwarded-host'], `${host.toUpperCase()}:8000`);
  t.regex(r.seen!['x-request-id'] ?? '', /^[a-z0-9]{20}$/);
  const kept = await viaRouter(router(), host, '/', { headers: { 'x-request-id': 'mine-123', 'x-forwarded-for': '10.1.2.3' } });
  t.is(kept.seen!['x-request-id'], 'mine-123');
  t.is(kept.seen!['x-forwarded-for'], '10.1.2.3, 127.0.0.1');
  const unknown = await viaRouter(router(), `nobody.apps.test`);
  t.is(unknown.status, 404);
  t.regex(unknown.text, /no route for host "nobody.apps.test"/);
  t.truthy(unknown.headers['x-request-id']);
});

test('router: the longest path prefix wins; a route whose job has no running instance answers 503', async (t) => {
  const host = `${unique('paths')}.apps.test`;
  const root = await deploy(t, appBody(host));
  const api = await deploy(t, appBody(`${host}/api`));
  t.is((await viaRouter(router(), host, '/')).job, root.job.uuid);
  t.is((await viaRouter(router(), host, '/apiary')).job, root.job.uuid, 'prefixes match whole segments');
  t.is((await viaRouter(router(), host, '/api')).job, api.job.uuid);
  t.is((await viaRouter(router(), host, '/api/v2/x?y')).job, api.job.uuid);
  const idle = await cluster.api.post<Job>('/jobs', { ...appBody(`${unique('idle')}.apps.test`), state: undefined });
  t.is(idle.status, 200, idle.text);
  const endpoint = idle.body.ports[0]!.routes[0]!.endpoint;
  const r = await eventually(async () => {
    const x = await viaRouter(router(), endpoint);
    return x.status === 503 ? x : undefined;
  });
  t.regex(r.text, /no running instance/);
});

test('router: weights share a route over 1,000 requests within 5 points (30 and 0 -> 30/70; 0 and 0 -> 50/50)', async (t) => {
  const host = `${unique('w')}.apps.test`;
  const a = await deploy(t, appBody(host, { weight: 30 }));
  const b = await deploy(t, appBody(host));
  const counts = tally(await many(host, 1000));
  t.true(Math.abs((counts.get(a.job.uuid) ?? 0) / 10 - 30) <= 5, JSON.stringify([...counts]));
  t.true(Math.abs((counts.get(b.job.uuid) ?? 0) / 10 - 70) <= 5, JSON.stringify([...counts]));
  // The route's own weight wins over the job's; two jobs at 0 split evenly.
  const even = `${unique('e')}.apps.test`;
  const c = await deploy(t, appBody(even, {}, { weight: 0 }));
  const d = await deploy(t, appBody(even, { weight: 0 }));
  const split = tally(await many(even, 1000));
  t.true(Math.abs((split.get(c.job.uuid) ?? 0) / 10 - 50) <= 5, JSON.stringify([...split]));
  t.true(Math.abs((split.get(d.job.uuid) ?? 0) / 10 - 50) <= 5, JSON.stringify([...split]));
});

test('router: sticky sessions follow the app cookie with Platform-LB, and move when the instance stops', async (t) => {
  const host = `${unique('s')}.apps.test`;
  const { job } = await deploy(t, appBody(host, { num_instances: 2, sticky_session_cookies: ['SESSIONID'] }), 2);
  // Without the app's cookie, no Platform-LB and the instances take turns.
  const plain = await Promise.all([0, 1, 2, 3].map(() => viaRouter(router(), host)));
  t.true(plain.every((r) => r.headers['set-cookie'] === undefined));
  t.is(new Set(plain.map((r) => r.instance)).size, 2);
  const login = await viaRouter(router(), host, '/login');
  const cookies = login.headers['set-cookie'] as string[];
  const lb = cookies.find((c) => c.startsWith('Platform-LB='));
  t.truthy(lb, JSON.stringify(cookies));
  t.regex(lb!, /Max-Age=3600/);
  t.is(lb!.split(';')[0], `Platform-LB=${login.instance}`);
  const cookie = cookies.map((c) => c.split(';')[0]).join('; ');
  const again = await Promise.all(Array.from({ length: 10 }, () => viaRouter(router(), host, '/', { headers: { cookie } })));
  t.true(again.every((r) => r.instance === login.instance), JSON.stringify(again.map((r) => r.instance)));
  // The sticky instance stops: the next request goes to the other one and the cookie is replaced.
  t.is((await cluster.api.delete(`/jobs/${job.uuid}/instances/${login.instance}`)).status, 200);
  const moved = await eventually(async () => {
    const r = await viaRouter(router(), host, '/', { headers: { cookie } });
    return r.status === 200 && r.instance !== login.instance ? r : undefined;
  });
  t.is(String(moved.headers['set-cookie']).split(';')[0], `Platform-LB=${moved.instance}`);
});

test('router: a WebSocket echoes through the router', async (t) => {
  const host = `${unique('ws')}.apps.test`;
  const { instances } = await deploy(t, appBody(host));
  const r = await websocketEcho(router(), host, ['hello', 'world']);
  t.is(r.status, 101);
  t.deepEqual(r.replies, [`echo from ${instances[0]!.uuid}: hello`, `echo from ${instances[0]!.uuid}: world`]);
});

/**
 * Waits until `value()` has stayed the same over three polls 300 ms apart while `held()` says the
 * transfer is held back, and answers that value.
 */
async function settled(value: () => number | Promise<number>, held: () => boolean, what: string): Promise<number> {
  const seen: number[] = [];
  return eventually(
    async () => {
      seen.push(held() ? await value() : Number.NaN);
      const last = seen.slice(-3);
      return last.length === 3 && last.every((v) => v === last[0]) ? last[0] : undefined;
    },
    { timeoutMs: 30_000, intervalMs: 300, what },
  );
}

test('router: 50 MiB stream up and down without buffering it whole; a client or app that stops reading holds the other side back', async (t) => {
  const host = `${unique('big')}.apps.test`;
  await deploy(t, appBody(host));
  const size = 50 * 1024 * 1024;
  // The checks that the router holds back: bigger than what the kernel's socket buffers of the
  // path may take (on this loopback up to ~32 MiB received by one socket, 4 MiB sent).
  const big = 128 * 1024 * 1024;
  const [h, p] = splitAddress(router());
  /** Writes `total` bytes (chunks of 256 KiB) to `req`, honouring backpressure; `stalled` while waiting for drain. */
  const upload = (req: http.ClientRequest, total: number) => {
    const state = { accepted: 0, stalled: false, digest: '' };
    const sent = createHash('sha256');
    let n = 0;
    const write = () => {
      while (state.accepted < total) {
        const chunk = Buffer.alloc(Math.min(total - state.accepted, 256 * 1024), n++ % 251);
        state.accepted += chunk.length;
        sent.update(chunk);
        if (state.accepted === total) {
          state.digest = sent.digest('hex');
          req.end(chunk);
          return;
        }
        if (!req.write(chunk)) {
          state.stalled = true;
          req.once('drain', () => {
            state.stalled = false;
            write();
          });
          return;
        }
      }
    };
    write();
    return state;
  };
  const json = (res: http.IncomingMessage) =>
    new Promise<Record<string, unknown>>((resolve, reject) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve(JSON.parse(Buffer.concat(chunks).toString()) as Record<string, unknown>));
      res.on('error', reject);
    });

  // Up and back at once: 50 MiB (chunked) to /echo, read back as it streams.
  const echoed = await new Promise<{ status: number; bytes: number; sha: string }>((resolve, reject) => {
    const got = createHash('sha256');
    let bytes = 0;
    const req = http.request({ host: h, port: p, path: '/echo', method: 'POST', headers: { host, 'content-type': 'application/octet-stream' }, agent: false }, (res) => {
      res.on('data', (c: Buffer) => {
        bytes += c.length;
        got.update(c);
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, bytes, sha: got.digest('hex') === state.digest ? 'match' : 'differs' }));
      res.on('error', reject);
    });
    req.on('error', reject);
    const state = upload(req, size);
  });
  t.deepEqual(echoed, { status: 200, bytes: size, sha: 'match' });

  // Down to a client that stops reading after 1 MiB: the router stops reading from the app too,
  // which is held back far short of the whole until the client reads again.
  const down = await new Promise<http.IncomingMessage>((resolve, reject) => {
    http.get({ host: h, port: p, path: `/bytes/${big}`, headers: { host }, agent: false }, resolve).on('error', reject);
  });
  let received = 0;
  await new Promise<void>((resolve) => {
    const onData = (c: Buffer) => {
      received += c.length;
      if (received >= 1024 * 1024) {
        down.pause();
        down.off('data', onData);
        resolve();
      }
    };
    down.on('data', onData);
  });
  const progress = async () => Number((JSON.parse((await viaRouter(router(), host, '/progress')).text) as { written: number }).written);
  const writtenWhilePaused = await settled(progress, () => down.isPaused(), 'the app held back by the paused download');
  t.log(`download paused after ${received} bytes: the app had written ${writtenWhilePaused}`);
  t.true(writtenWhilePaused < big / 2, `the app wrote ${writtenWhilePaused} bytes while the client had read ${received}`);
  down.on('data', (c: Buffer) => (received += c.length));
  down.resume();
  await new Promise((resolve) => down.on('end', resolve));
  t.is(received, big);

  // Up to an app that does not read (/hold): the router stops reading from the client, whose
  // writes stall far short of the whole; once the app reads (/release), all of it arrives.
  const hold = http.request({ host: h, port: p, path: '/hold', method: 'POST', headers: { host, 'content-type': 'application/octet-stream' }, agent: false });
  const answer = new Promise<Record<string, unknown>>((resolve, reject) => {
    hold.on('response', (res) => json(res).then(resolve, reject));
    hold.on('error', reject);
  });
  const state = upload(hold, big);
  const acceptedWhileHeld = await settled(() => state.accepted, () => state.stalled, 'the upload held back by the app');
  t.log(`upload to an app that reads nothing: the client could write ${acceptedWhileHeld}`);
  t.true(acceptedWhileHeld < big / 2, `the client could write ${acceptedWhileHeld} bytes to an app that read none`);
  t.is((await viaRouter(router(), host, '/release')).status, 200);
  t.deepEqual(await answer, { bytes: big, sha: state.digest });
});

/**
 * GETs through the router, 4 at a time over keep-alive connections, until `stop()` (which lets
 * 20 more answer first); `statuses` collects their statuses (599: the request failed).
 */
function steadyGets(host: string): { statuses: number[]; stop: () => Promise<void> } {
  const statuses: number[] = [];
  let stopping = false;
  const agent = new http.Agent({ keepAlive: true, maxSockets: 4 });
  const load = (async () => {
    while (!stopping) {
      const batch = await Promise.all(Array.from({ length: 4 }, () => viaRouter(router(), host, '/', { agent }).then((r) => r.status, () => 599)));
      statuses.push(...batch);
    }
  })();
  return {
    statuses,
    stop: async () => {
      const at = statuses.length;
      await eventually(() => statuses.length > at + 20);
      stopping = true;
      await load;
      agent.destroy();
    },
  };
}

test.serial('router: scaling 1 -> 3, new instances take traffic within a second; stopping one gives no 5xx to GETs', async (t) => {
  const host = `${unique('scale')}.apps.test`;
  const { job } = await deploy(t, appBody(host));
  const put = await cluster.api.put<Job>(`/jobs/${job.uuid}`, { ...(await cluster.api.get<Job>(`/jobs/${job.uuid}`)).body, num_instances: 3 });
  t.is(put.status, 200, put.text);
  // Each instance is served within a second of the API showing it RUNNING.
  const seen = new Set<string>();
  await eventually(
    async () => {
      const running = (await instancesOf(cluster.api, job.uuid)).filter((i) => i.state === 'RUNNING');
      for (const r of await Promise.all(Array.from({ length: 6 }, () => viaRouter(router(), host)))) if (r.instance) seen.add(r.instance);
      return running.length === 3 ? running : undefined;
    },
    { timeoutMs: 90_000, what: '3 running instances' },
  );
  const servedBy = await eventually(
    async () => {
      for (const r of await Promise.all(Array.from({ length: 6 }, () => viaRouter(router(), host)))) if (r.instance) seen.add(r.instance);
      return seen.size === 3 ? seen : undefined;
    },
    { timeoutMs: 1_000, intervalMs: 10, what: 'all 3 instances serving' },
  );
  t.is(servedBy.size, 3);

  // GETs keep flowing while an instance is stopped: none answers 5xx.
  const gets = steadyGets(host);
  const { statuses } = gets;
  const victim = (await instancesOf(cluster.api, job.uuid)).find((i) => i.state === 'RUNNING')!;
  t.is((await cluster.api.delete(`/jobs/${job.uuid}/instances/${victim.uuid}`)).status, 200);
  await eventually(async () => (await instancesOf(cluster.api, job.uuid)).find((i) => i.uuid === victim.uuid)?.state === 'REMOVED', {
    timeoutMs: 30_000,
    what: 'the stopped instance removed',
  });
  await gets.stop();
  const failures = statuses.filter((s) => s >= 500);
  t.deepEqual(failures, [], `${failures.length} of ${statuses.length} GETs failed`);
  t.true(statuses.length > 40);
});

test.serial('router: an instance that dies abruptly gives no 5xx to GETs (retried on another instance)', async (t) => {
  const host = `${unique('crash')}.apps.test`;
  const { job } = await deploy(t, appBody(host, { num_instances: 3 }), 3);
  const gets = steadyGets(host);
  const { statuses } = gets;
  await eventually(() => statuses.length > 20);
  const crash = await viaRouter(router(), host, '/crash', { method: 'POST' });
  t.is(crash.status, 200, crash.text);
  const at = statuses.length;
  // The instance is gone (its agent says so) and replaced; GETs went on all along.
  await eventually(
    async () => {
      const all = await instancesOf(cluster.api, job.uuid);
      const dead = all.find((i) => i.uuid === crash.instance);
      return (!dead || dead.state !== 'RUNNING' || dead.exited) && statuses.length > at + 40 ? true : undefined;
    },
    { timeoutMs: 30_000, what: 'the crash noticed while GETs flow' },
  );
  await announced(job.uuid, 3);
  await gets.stop();
  const failures = statuses.filter((s) => s >= 500);
  t.deepEqual(failures, [], `${failures.length} of ${statuses.length} GETs failed`);
});

test('router: metrics per route are on the controller /metrics', async (t) => {
  const host = `${unique('m')}.apps.test`;
  await deploy(t, appBody(host));
  await many(host, 5);
  const text = await (await fetch(`${cluster.controller.url}/metrics`)).text();
  t.regex(text, new RegExp(`platform_router_requests_total\\{route="${host.replace(/\./g, '\\.')}",class="2xx"\\} 5`));
  t.regex(text, new RegExp(`platform_router_request_duration_seconds_count\\{route="${host.replace(/\./g, '\\.')}"\\} 5`));
  t.regex(text, /platform_router_bytes_total\{route="[^"]+",direction="out"\} \d+/);
  t.regex(text, /platform_router_active_connections\{route="[^"]+"\} \d+/);
});
