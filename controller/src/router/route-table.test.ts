import test from 'ava';
import type { RoutedJob } from './route.js';
import { RouteTable, type RoutableInstance, type TableUpdate } from './route-table.js';

const job = (uuid: string, endpoints: string[], extra: Partial<RoutedJob> = {}): RoutedJob => ({
  uuid,
  fqn: `job::/ns::${uuid}`,
  name: uuid,
  state: 'started',
  tags: { app: '' },
  weight: 0,
  sticky_session_cookies: [],
  ports: [{ number: 0, routes: endpoints.map((endpoint) => ({ type: 'http' as const, endpoint })) }],
  ...extra,
});

const inst = (uuid: string, jobUuid: string, state: string, extra: Partial<RoutableInstance> = {}): RoutableInstance => ({
  uuid,
  job_uuid: jobUuid,
  state,
  ports: { '0': `127.0.0.1:${1000 + uuid.length}` },
  ...extra,
});

test('route table: only RUNNING instances that are not stopping serve; each change has the next version', (t) => {
  const table = new RouteTable();
  const updates: TableUpdate[] = [];
  table.subscribe((u) => updates.push(u));
  t.is(updates[0]!.kind, 'snapshot');
  table.setJob('j1', job('j1', ['a.example', 'a.example/api']));
  table.setInstance(inst('i1', 'j1', 'STARTING'));
  t.false(table.announced('i1'));
  const versionBefore = table.version;
  table.setInstance(inst('i1', 'j1', 'RUNNING'));
  t.true(table.announced('i1'));
  t.is(table.version, versionBefore + 1);
  const entry = table.entry('http a.example')!;
  t.deepEqual(entry.paths.map((p) => p.path), ['/', '/api']);
  t.deepEqual(entry.paths[0]!.jobs[0]!.backends, [{ instance: 'i1', address: '127.0.0.1:1002' }]);
  // The same record again changes nothing: no new version.
  table.setInstance(inst('i1', 'j1', 'RUNNING'));
  t.is(table.version, versionBefore + 1);
  // Asked to stop: out of the table before the agent is told.
  table.setInstance(inst('i1', 'j1', 'RUNNING', { stop: 'scale' }));
  t.false(table.announced('i1'));
  t.deepEqual(table.entry('http a.example')!.paths[0]!.jobs[0]!.backends, []);
  table.setJob('j1', undefined);
  t.is(table.entry('http a.example'), undefined);
  const last = updates.at(-1)!;
  t.is(last.kind, 'change');
  t.deepEqual(last.kind === 'change' ? last.removes : [], ['http a.example']);
  t.deepEqual(updates.slice(1).map((u) => u.version), updates.slice(1).map((_, i) => i + 1));
});

test('route table: ownership by namespace and the route map', (t) => {
  const table = new RouteTable();
  table.setJob('j1', job('j1', ['b.example']));
  table.setJob('j2', job('j2', ['b.example/x'], { fqn: 'job::/ns::j2' }));
  t.is(table.ownerOf('http b.example'), '/ns');
  t.is(table.ownerOf('http b.example', 'j1'), '/ns');
  t.deepEqual(
    [...table.routeMap()].map(([e, jobs]) => [e, jobs.map((j) => j.uuid)]),
    [['b.example', ['j1']], ['b.example/x', ['j2']]],
  );
});
