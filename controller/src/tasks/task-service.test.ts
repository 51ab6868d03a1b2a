import test from 'ava';
import { testDeps } from '../scheduler/cluster.test-fixture.js';
import { EtcdStore } from '../store/etcd-store.js';
import { ETCD_BINARY, etcdAvailable, startEtcd } from '../store/etcd-test-server.js';
import { TASK_RETENTION_MS, TaskService, type TaskEvent } from './task-service.js';

const owner = { fqn: 'job::/sandbox/admin::web', principal: 'admin@platform.local' };

/** Resolves once the task has ended (it runs in the background). */
async function ended(tasks: TaskService, uuid: string) {
  for (;;) {
    const record = await tasks.find(uuid);
    if (record && record.state !== 'running') return record;
    await new Promise((r) => setImmediate(r));
  }
}

test('tasks: work that succeeds ends complete with eos, events in order with progress', async (t) => {
  const deps = testDeps();
  const tasks = new TaskService(deps);
  const record = await tasks.start('container', owner, async (task) => {
    await task.event({ stage: 'Pull', name: 'layer 1', index: 0, total: 2, partial: true, progress: { current: 3, total: 10 } });
    // Within the same quarter second: dropped.
    await task.event({ stage: 'Pull', name: 'layer 1', index: 0, total: 2, partial: true, progress: { current: 5, total: 10 } });
    await task.event({ stage: 'Pull', name: 'layer 1', index: 0, total: 2, progress: { current: 10, total: 10 } });
    await task.event({ stage: 'Pull', name: 'layer 2', index: 1, total: 2 });
  });
  const done = await ended(tasks, record.uuid);
  t.is(done.state, 'complete');
  t.is(done.errored, 'unerrored');
  const task = await tasks.get(done);
  t.deepEqual(
    task.events.map((e) => [e.task_event_type, e.subtask.name]),
    [
      ['event', 'execution started'],
      ['event', 'layer 1'],
      ['event', 'layer 1'],
      ['event', 'layer 2'],
      ['eos', 'execution was successful'],
    ],
  );
  t.deepEqual(task.events[1]!.subtask.progress, { current: 3, progress: 30 });
  t.deepEqual(task.events[2]!.subtask.progress, { current: 10, progress: 100 });
  t.true(task.time_completed >= task.time_started);
  // ?time= keeps the events after that time.
  deps.clock.advance(1);
  const later = await tasks.get(done, task.events[4]!.time);
  t.is(later.events.length, 0);
});

test('tasks: work that throws ends stopped and errored, the message in payload.error', async (t) => {
  const tasks = new TaskService(testDeps());
  const record = await tasks.start('container', owner, async () => {
    throw new Error('manifest unknown');
  });
  const done = await ended(tasks, record.uuid);
  t.is(done.state, 'stopped');
  t.is(done.errored, 'errored');
  const last = (await tasks.get(done)).events.at(-1)!;
  t.is(last.task_event_type, 'error');
  t.is(last.payload['error'], 'manifest unknown');
});

test('tasks: a follower sees the stored events then the new ones, none twice', async (t) => {
  const tasks = new TaskService(testDeps());
  let release!: () => void;
  const gate = new Promise<void>((r) => (release = r));
  const record = await tasks.start('manifest', owner, async (task) => {
    await task.event({ stage: 'Deploy', name: 'creating job::/a::b' });
    await gate;
    await task.event({ stage: 'Deploy', name: 'created job::/a::b' });
  });
  const seen: TaskEvent[] = [];
  const finished = new Promise<void>((resolve) => {
    void tasks.follow(record.uuid, (e) => {
      seen.push(e);
      if (e.task_event_type === 'eos') resolve();
    });
  });
  release();
  await finished;
  t.deepEqual(
    seen.map((e) => e.subtask.name),
    ['execution started', 'creating job::/a::b', 'created job::/a::b', 'execution was successful'],
  );
  t.is(new Set(seen.map((e) => e.uuid)).size, seen.length);
});

test('tasks: a task cut short by a stop ends errored at the next start', async (t) => {
  const deps = testDeps();
  const first = new TaskService(deps);
  const record = await first.start('container', owner, () => new Promise<void>(() => undefined));
  await first.stop();
  const second = new TaskService(deps);
  t.is(await second.restore(), 1);
  const done = (await second.find(record.uuid))!;
  t.is(done.state, 'stopped');
  t.is(done.errored, 'errored');
  const last = (await second.get(done)).events.at(-1)!;
  t.is(last.task_event_type, 'error');
  t.regex(last.payload['error']!, /the controller stopped while the task ran \(a restart, or another controller took over\)/);
  t.is(await new TaskService(deps).restore(), 0);
  // A week later it is gone, events and all.
  deps.clock.advance(TASK_RETENTION_MS + 1);
  await new TaskService(deps).restore();
  t.is(await new TaskService(deps).find(record.uuid), undefined);
  const left: string[] = [];
  for await (const [key] of deps.store.iterate({ prefix: 'task' })) left.push(key);
  t.deepEqual(left, []);
});

test('tasks: an expired task with more events than one etcd transaction holds is dropped at the start (which does not fail)', async (t) => {
  if (!etcdAvailable()) {
    if (process.env['PLATFORM_REQUIRE_SYSTEM_TOOLS'] === '1') t.fail(`${ETCD_BINARY} is required (PLATFORM_REQUIRE_SYSTEM_TOOLS=1)`);
    else t.pass();
    return;
  }
  const server = await startEtcd();
  t.teardown(() => server.stop());
  const store = new EtcdStore({ endpoints: [server.endpoint], auth: server.auth, prefix: '/tasks/' });
  t.teardown(() => store.close());
  const deps = { ...testDeps(), store };
  const tasks = new TaskService(deps);
  // An image pull of many layers: an event per step, far more than etcd's 128 operations.
  const record = await tasks.start('container', owner, async (task) => {
    for (let i = 0; i < 2 * store.maxBatchOps; i++) await task.event({ stage: 'Pull', name: `layer ${i}`, index: i, total: 2 * store.maxBatchOps });
  });
  await ended(tasks, record.uuid);
  deps.clock.advance(TASK_RETENTION_MS + 1);
  await t.notThrowsAsync(new TaskService(deps).restore());
  t.is(await new TaskService(deps).find(record.uuid), undefined);
  const left: string[] = [];
  for await (const [key] of store.iterate({ prefix: 'task' })) left.push(key);
  t.deepEqual(left, []);
});
