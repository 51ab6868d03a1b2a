import test from 'ava';
import { grpc } from '@platform/proto';
import { JsonLogger, MemorySink } from '@platform/proto/common';
import type { RoutedJob } from './route.js';
import { RouteTable, type TableUpdate } from './route-table.js';
import { RouteWatchService } from './route-watch.js';
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
  const watch = new RouteWatchService({ table, log, authorized: (m) => m.get('authorization')[0] === `Bearer ${SECRET}` });
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
  const watch = new RouteWatchService({ table, log, authorized: () => false });
  const { server, port } = await serve(watch);
  const follower = new TableFollower({ controller: `127.0.0.1:${port}`, joinSecret: 'wrong', routerName: 'test', log, minBackoffMs: 1000 });
  const got: TableUpdate[] = [];
  follower.feed((u) => got.push(u));
  await until(() => follower.state === 'waiting');
  t.is(got.length, 0);
  follower.stop();
  server.forceShutdown();
});
