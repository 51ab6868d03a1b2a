import test from 'ava';
import { grpc } from '@platform/proto';
import { JsonLogger, MemorySink } from '@platform/proto/common';
import { JobRequestCounter, RequestStats, type JobRequestWindow } from './request-stats.js';
import type { RoutedJob } from './route.js';
import { RouteTable, type TableUpdate } from './route-table.js';
import { RouteWatchService } from './route-watch.js';
import { RequestReporter } from './proxy/request-reporter.js';
import { TableFollower } from './proxy/table-follower.js';

const SECRET = 'secret-of-the-test';

const job = (uuid: string, endpoint: string): RoutedJob => ({
  uuid,
  fqn: `job::/ns::${uuid}`,
  name: uuid,
  state: 'started',
  tags: {},
  weight: 0,
  sticky_session_cookies: [],
  ports: [{ number: 0, routes: [{ type: 'http', endpoint }] }],
});

async function serve(watch: RouteWatchService, port = 0): Promise<{ server: grpc.Server; port: number }> {
  const server = new grpc.Server();
  server.addService(watch.definition, watch.implementation);
  const bound = await new Promise<number>((resolve, reject) =>
    server.bindAsync(`127.0.0.1:${port}`, grpc.ServerCredentials.createInsecure(), (err, p) => (err ? reject(err) : resolve(p))),
  );
  return { server, port: bound };
}

const until = async (check: () => boolean) => {
  for (let i = 0; i < 500 && !check(); i++) await new Promise((r) => setTimeout(r, 10));
  if (!check()) throw new Error('condition not met within 5 s');
};

test('route watch: a follower gets the snapshot, then changes; reconnecting within the epoch it gets only what it missed', async (t) => {
  const table = new RouteTable();
  const sink = new MemorySink();
  const log = new JsonLogger(sink, 'debug');
  table.setJob('j1', job('j1', 'a.example'));
  const watch = new RouteWatchService({ table, log, requests: new RequestStats(), authorized: (m) => m.get('authorization')[0] === `Bearer ${SECRET}` });
  const first = await serve(watch);
  const port = first.port;
  let server = first.server;
  const follower = new TableFollower({ controller: `127.0.0.1:${port}`, joinSecret: SECRET, routerName: 'test', log, minBackoffMs: 20, maxBackoffMs: 50 });
  const got: TableUpdate[] = [];
  follower.feed((u) => got.push(u));
  t.teardown(() => {
    follower.stop();
    server.forceShutdown();
  });
  await until(() => got.length === 1);
  t.is(got[0]!.kind, 'snapshot');
  table.setJob('j2', job('j2', 'b.example'));
  await until(() => got.length === 2);
  t.like(got[1], { kind: 'change', version: 2 });

  // The server goes away; two changes happen meanwhile; the follower comes back for just those.
  server.forceShutdown();
  await until(() => follower.state === 'waiting' || follower.state === 'connecting');
  table.setJob('j3', job('j3', 'c.example'));
  table.setJob('j1', undefined);
  ({ server } = await serve(watch, port));
  await until(() => got.length === 4);
  t.deepEqual(got.slice(2).map((u) => [u.kind, u.version]), [['change', 3], ['change', 4]]);
  t.deepEqual(got[3]!.kind === 'change' ? got[3]!.removes : [], ['http a.example']);
});

test('route watch: a wrong secret is refused', async (t) => {
  const table = new RouteTable();
  const log = new JsonLogger(new MemorySink(), 'silent');
  const watch = new RouteWatchService({ table, log, requests: new RequestStats(), authorized: () => false });
  const { server, port } = await serve(watch);
  const follower = new TableFollower({ controller: `127.0.0.1:${port}`, joinSecret: 'wrong', routerName: 'test', log, minBackoffMs: 1000 });
  const got: TableUpdate[] = [];
  follower.feed((u) => got.push(u));
  await until(() => follower.state === 'waiting');
  t.is(got.length, 0);
  follower.stop();
  server.forceShutdown();
});

test('route watch: a router reports requests per job; the controller counts each report once, and a failed one is sent again', async (t) => {
  const table = new RouteTable();
  const log = new JsonLogger(new MemorySink(), 'silent');
  const stats = new RequestStats();
  const watch = new RouteWatchService({ table, log, requests: stats, authorized: (m) => m.get('authorization')[0] === `Bearer ${SECRET}` });
  const first = await serve(watch);
  let server = first.server;
  const counter = new JobRequestCounter();
  // A long interval: the test says when to send.
  const reporter = new RequestReporter({ controller: `127.0.0.1:${first.port}`, joinSecret: SECRET, routerName: 'edge', source: counter, log, intervalMs: 3_600_000 });
  t.teardown(async () => {
    await reporter.stop();
    server.forceShutdown();
  });
  counter.record('job-a', 200, 4);
  counter.record('job-a', 503, 40);
  counter.record('job-b', 200, 1);
  await reporter.flush();
  const drained = stats.drain().sort((x, y) => x.jobUuid.localeCompare(y.jobUuid));
  t.like(drained[0], { jobUuid: 'job-a', requests: 2, errors: 1, latencySumMs: 44, latencyMaxMs: 40 });
  t.like(drained[1], { jobUuid: 'job-b', requests: 1, errors: 0, latencySumMs: 1, latencyMaxMs: 1 });
  t.deepEqual(stats.drain(), [], 'a drain takes everything');

  // The controller is away: the report is kept, and what is counted meanwhile goes in the next one.
  server.forceShutdown();
  counter.record('job-a', 200, 2);
  await reporter.flush();
  counter.record('job-a', 200, 3);
  ({ server } = await serve(watch, first.port));
  let got: JobRequestWindow[] = [];
  for (const deadline = Date.now() + 5_000; got.length === 0 && Date.now() < deadline; ) {
    await reporter.flush();
    got = stats.drain();
    if (got.length === 0) await new Promise((r) => setTimeout(r, 20));
  }
  t.like(got[0], { jobUuid: 'job-a', requests: 1, latencySumMs: 2 }, 'the kept report, alone');
  await reporter.flush();
  t.like(stats.drain()[0], { jobUuid: 'job-a', requests: 1, latencySumMs: 3 }, 'then what came after');

  // A report sent again with a sequence already counted is not counted twice.
  t.true(stats.report('router-x', 1, [{ jobUuid: 'job-c', requests: 5, errors: 0, latencySumMs: 5, latencyMaxMs: 1 }]));
  t.false(stats.report('router-x', 1, [{ jobUuid: 'job-c', requests: 5, errors: 0, latencySumMs: 5, latencyMaxMs: 1 }]));
  t.like(stats.drain()[0], { jobUuid: 'job-c', requests: 5 });
});

test('route watch: a report with a wrong secret is refused and counts nothing', async (t) => {
  const table = new RouteTable();
  const log = new JsonLogger(new MemorySink(), 'silent');
  const stats = new RequestStats();
  const watch = new RouteWatchService({ table, log, requests: stats, authorized: () => false });
  const { server, port } = await serve(watch);
  const counter = new JobRequestCounter();
  const reporter = new RequestReporter({ controller: `127.0.0.1:${port}`, joinSecret: 'wrong', routerName: 'edge', source: counter, log, intervalMs: 3_600_000 });
  t.teardown(async () => {
    await reporter.stop();
    server.forceShutdown();
  });
  counter.record('job-a', 200, 4);
  await reporter.flush();
  t.deepEqual(stats.drain(), []);
});
