import test from 'ava';
import type { ControllerMessage, PackageSpec } from '@platform/proto';
import type { InstanceRecord } from '../model/instance.js';
import type { Job } from '../model/job.js';
import { keys } from '../store/keys.js';
import { TestCluster, report, testJob } from './cluster.test-fixture.js';
import { Reconciler } from './reconciler.js';
import { RESTART_BASE_DELAY_MS } from './restart-tracker.js';

async function setup(): Promise<{ cluster: TestCluster; reconciler: Reconciler; wakes: () => number }> {
  const cluster = await new TestCluster().start();
  let wakes = 0;
  const reconciler = new Reconciler(testJob().uuid, cluster.deps, cluster.runDeps(), () => wakes++);
  return { cluster, reconciler, wakes: () => wakes };
}

function starts(messages: ControllerMessage[]): string[] {
  return messages.filter((m) => m.start).map((m) => m.start!.spec!.instanceUuid!);
}

function stops(messages: ControllerMessage[]): string[] {
  return messages.filter((m) => m.stop).map((m) => m.stop!.instanceUuid!);
}

function live(reconciler: Reconciler): InstanceRecord[] {
  return reconciler.instances().filter((i) => i.state !== 'REMOVED');
}

/** Every live, not-stopping instance reports `state`. */
async function reportAll(reconciler: Reconciler, job: Job, state: 'RUNNING' | 'STARTING'): Promise<void> {
  for (const i of live(reconciler).filter((r) => r.stop === undefined)) await reconciler.apply(i.agent_uuid, report(i.uuid, state), job);
}

test('reconciler: a started job is placed on the connected agents, spread, persisted before the agent is told', async (t) => {
  const { cluster, reconciler } = await setup();
  await cluster.connect('a1');
  await cluster.connect('a2');
  const job = testJob({ num_instances: 2 });
  t.deepEqual(await reconciler.reconcile(job), {});
  const placed = live(reconciler);
  t.is(placed.length, 2);
  t.deepEqual(placed.map((i) => i.agent_uuid).sort(), ['a1', 'a2'], 'one per agent (spread)');
  for (const i of placed) {
    t.deepEqual(starts(cluster.take(i.agent_uuid)), [i.uuid]);
    const stored = await cluster.deps.store.get(keys.instance(job.uuid, i.uuid));
    t.is((JSON.parse(stored!) as InstanceRecord).state, 'NEW');
  }
  // Nothing more to do: a second pass places nothing.
  await reconciler.reconcile(job);
  t.is(live(reconciler).length, 2);
  t.deepEqual([...cluster.take('a1'), ...cluster.take('a2')], []);
  reconciler.dispose();
  cluster.stop();
});

test('reconciler: with no room the job waits and says why; an agent with room gets the instance on the next pass', async (t) => {
  const { cluster, reconciler, wakes } = await setup();
  await cluster.connect('small', 0.125); // 128 MiB < the default 256 MiB
  const job = testJob();
  await reconciler.reconcile(job);
  t.is(live(reconciler).length, 0);
  t.regex(reconciler.waitingReason ?? '', /no instance manager has room for another instance: memory/);
  t.true(cluster.waitingJobs.has(job.uuid));
  t.is(wakes(), 0);
  await cluster.connect('big', 1);
  await reconciler.reconcile(job);
  t.deepEqual(live(reconciler).map((i) => i.agent_uuid), ['big']);
  t.is(reconciler.waitingReason, undefined);
  t.false(cluster.waitingJobs.has(job.uuid));
  reconciler.dispose();
  cluster.stop();
});

test('reconciler: resources placed are reserved, so a full agent takes no more', async (t) => {
  const { cluster, reconciler } = await setup();
  await cluster.connect('a1', 0.5); // room for two of 256 MiB
  const job = testJob({ num_instances: 3 });
  await reconciler.reconcile(job);
  t.is(live(reconciler).length, 2);
  t.regex(reconciler.waitingReason ?? '', /memory \(0 MiB free, 256 MiB needed\)/);
  reconciler.dispose();
  cluster.stop();
});

test('reconciler: scale down stops the not-yet-running and newest first, and keeps what runs', async (t) => {
  const { cluster, reconciler } = await setup();
  await cluster.connect('a1', 8);
  // Four instances placed one after another, so that each is newer than the one before.
  let job = testJob();
  for (let n = 1; n <= 4; n++) {
    job = { ...job, num_instances: n };
    await reconciler.reconcile(job);
    cluster.clock.advance(1000);
  }
  const [first, second, third, fourth] = live(reconciler).sort((a, b) => a.created_ms - b.created_ms);
  t.true(first!.created_ms < fourth!.created_ms);
  await reconciler.apply('a1', report(first!.uuid, 'RUNNING'), job);
  await reconciler.apply('a1', report(fourth!.uuid, 'RUNNING'), job);
  cluster.take('a1');
  await reconciler.reconcile({ ...job, num_instances: 2 });
  t.deepEqual(stops(cluster.take('a1')).sort(), [second!.uuid, third!.uuid].sort(), 'the ones not running stop first');
  await reconciler.reconcile({ ...job, num_instances: 1 });
  t.deepEqual(stops(cluster.take('a1')), [fourth!.uuid], 'then the newest');
  t.deepEqual(live(reconciler).filter((i) => i.stop === undefined).map((i) => i.uuid), [first!.uuid]);
  t.true(live(reconciler).filter((i) => i.stop).every((i) => i.stop === 'scale'));
  // A stop is persisted before it is sent, so a reconnecting agent is told again.
  const stored = JSON.parse((await cluster.deps.store.get(keys.instance(job.uuid, second!.uuid)))!) as InstanceRecord;
  t.is(stored.stop, 'scale');
  reconciler.dispose();
  cluster.stop();
});

test('reconciler: a stopped job has every instance stopped, once', async (t) => {
  const { cluster, reconciler } = await setup();
  await cluster.connect('a1');
  const job = testJob({ num_instances: 2 });
  await reconciler.reconcile(job);
  cluster.take('a1');
  const stopped = { ...job, state: 'stopped' as const };
  await reconciler.reconcile(stopped);
  t.is(stops(cluster.take('a1')).length, 2);
  await reconciler.reconcile(stopped);
  t.deepEqual(cluster.take('a1'), [], 'no second stop for instances already stopping');
  reconciler.dispose();
  cluster.stop();
});

test('reconciler: without rolling mode a changed job replaces every old instance at once', async (t) => {
  const { cluster, reconciler } = await setup();
  await cluster.connect('a1', 8);
  const job = testJob({ num_instances: 2 });
  await reconciler.reconcile(job);
  await reportAll(reconciler, job, 'RUNNING');
  const old = live(reconciler).map((i) => i.uuid);
  cluster.take('a1');
  const changed = testJob({ num_instances: 2, processes: { app: { start_command: 'run --v2' } } }, { version_id: 2 });
  await reconciler.reconcile(changed);
  const sent = cluster.take('a1');
  t.deepEqual(stops(sent).sort(), [...old].sort());
  t.is(starts(sent).length, 2);
  reconciler.dispose();
  cluster.stop();
});

test('reconciler: a rolling update starts one new instance at a time and stops an old one as each new one runs', async (t) => {
  const { cluster, reconciler } = await setup();
  await cluster.connect('a1', 8);
  const rollout = { rolling_mode: true, force_stop_old_instances_after: 60 };
  const job = testJob({ num_instances: 2, rollout });
  await reconciler.reconcile(job);
  await reportAll(reconciler, job, 'RUNNING');
  const old = live(reconciler).sort((a, b) => a.uuid.localeCompare(b.uuid)).map((i) => i.uuid);
  cluster.take('a1');

  const v2 = testJob({ num_instances: 2, rollout, processes: { app: { start_command: 'run --v2' } } }, { version_id: 2 });
  await reconciler.reconcile(v2);
  let sent = cluster.take('a1');
  t.deepEqual(stops(sent), [], 'old ones serve until new ones run');
  const [n1] = starts(sent);
  t.truthy(n1);
  t.is(starts(sent).length, 1, 'one new instance at a time');

  // Still settling: nothing more starts.
  await reconciler.reconcile(v2);
  t.deepEqual(cluster.take('a1'), []);

  // The new one runs: one old one stops (the oldest), and the next new one starts.
  await reconciler.apply('a1', report(n1!, 'RUNNING'), v2);
  sent = cluster.take('a1');
  t.deepEqual(stops(sent), [old[0]]);
  const [n2] = starts(sent);
  t.truthy(n2);
  await reconciler.apply('a1', report(n2!, 'RUNNING'), v2);
  sent = cluster.take('a1');
  t.deepEqual(stops(sent), [old[1]]);
  t.deepEqual(starts(sent), []);
  reconciler.dispose();
  cluster.stop();
});

test('reconciler: old instances left after force_stop_old_instances_after are stopped', async (t) => {
  const { cluster, reconciler } = await setup();
  await cluster.connect('a1', 8);
  const rollout = { rolling_mode: true, force_stop_old_instances_after: 60 };
  const job = testJob({ num_instances: 2, rollout });
  await reconciler.reconcile(job);
  await reportAll(reconciler, job, 'RUNNING');
  const old = live(reconciler).map((i) => i.uuid);
  cluster.take('a1');
  const v2 = testJob({ num_instances: 2, rollout, processes: { app: { start_command: 'run --v2' } } }, { version_id: 2 });
  await reconciler.reconcile(v2);
  cluster.take('a1');
  cluster.clock.advance(60_000 - 1);
  await reconciler.reconcile(v2);
  t.deepEqual(stops(cluster.take('a1')), []);
  cluster.clock.advance(1);
  await reconciler.reconcile(v2);
  t.deepEqual(stops(cluster.take('a1')).sort(), [...old].sort());
  reconciler.dispose();
  cluster.stop();
});

test('reconciler: instances of a lost agent are removed as lost and replaced elsewhere at once, not counted as restarts', async (t) => {
  const { cluster, reconciler } = await setup();
  const { sessionId } = await cluster.connect('a1');
  const job = testJob();
  await reconciler.reconcile(job);
  const [first] = live(reconciler);
  await reconciler.apply('a1', report(first!.uuid, 'RUNNING'), job);
  await cluster.connect('a2');
  cluster.agents.disconnected('a1', sessionId, 'test');
  t.deepEqual(await reconciler.agentLost('a1', job), {});
  const gone = reconciler.instances().find((i) => i.uuid === first!.uuid)!;
  t.is(gone.state, 'REMOVED');
  t.true(gone.lost);
  t.true(gone.failed);
  t.regex(gone.reason, /instance manager host-a1 was lost/);
  t.deepEqual(live(reconciler).map((i) => i.agent_uuid), ['a2'], 'replaced without a restart delay');
  t.is(reconciler.restarts.notBefore, 0);
  reconciler.dispose();
  cluster.stop();
});

test('reconciler: a crashed instance is replaced after the restart delay, not before', async (t) => {
  const { cluster, reconciler, wakes } = await setup();
  await cluster.connect('a1');
  const job = testJob();
  await reconciler.reconcile(job);
  const [first] = live(reconciler);
  await reconciler.apply('a1', report(first!.uuid, 'RUNNING'), job);
  cluster.take('a1');
  await reconciler.apply('a1', report(first!.uuid, 'REMOVED', { exited: true, exitCode: 1, failed: true }), job);
  t.is(live(reconciler).length, 0, 'not before the delay');
  t.deepEqual(cluster.take('a1'), []);
  cluster.clock.advance(RESTART_BASE_DELAY_MS - 1);
  await reconciler.reconcile(job);
  t.is(live(reconciler).length, 0);
  cluster.clock.advance(1);
  await reconciler.reconcile(job);
  t.is(live(reconciler).length, 1);
  t.is(starts(cluster.take('a1')).length, 1);
  t.is(wakes(), 0, 'the timer is real time; the test moved the clock itself');
  reconciler.dispose();
  cluster.stop();
});

test('reconciler: restart mode "no" finishes the job once every instance ended', async (t) => {
  const { cluster, reconciler } = await setup();
  await cluster.connect('a1');
  const job = testJob({ restart: { restart_mode: 'no' } });
  await reconciler.reconcile(job);
  const [first] = live(reconciler);
  const outcome = await reconciler.apply('a1', report(first!.uuid, 'REMOVED', { exited: true, exitCode: 0 }), job);
  t.is(outcome.state, 'finished');
  t.is(live(reconciler).length, 0);
  reconciler.dispose();
  cluster.stop();
});

test('reconciler: a report from an agent that does not run the instance stops it there and changes nothing', async (t) => {
  const { cluster, reconciler } = await setup();
  await cluster.connect('a1');
  await cluster.connect('a2');
  const job = testJob();
  await reconciler.reconcile(job);
  const [first] = live(reconciler);
  const other = first!.agent_uuid === 'a1' ? 'a2' : 'a1';
  cluster.take(other);
  await reconciler.apply(other, report(first!.uuid, 'RUNNING'), job);
  t.deepEqual(stops(cluster.take(other)), [first!.uuid]);
  t.is(reconciler.instances()[0]!.state, 'NEW');
  reconciler.dispose();
  cluster.stop();
});

test('reconciler: an instance is told its log drains; a change of the drains is not a change of shape (nothing replaced)', async (t) => {
  const { cluster, reconciler } = await setup();
  await cluster.connect('a1');
  const drain = { uuid: 'd-1', url: 'syslog://127.0.0.1:514', conf: { priority: 13, protocol: 'udp' as const }, max_size: 300 };
  const job = testJob({ drains: [drain] });
  await reconciler.reconcile(job);
  const [placed] = live(reconciler);
  const [start] = cluster.take('a1');
  t.deepEqual(start?.start?.spec?.drains, [{ uuid: job.drains[0]!.uuid, url: 'syslog://127.0.0.1:514', priority: 13, protocol: 'udp', maxSize: 300 }]);
  await reportAll(reconciler, job, 'RUNNING');
  await reconciler.reconcile({ ...job, version_id: job.version_id + 1, drains: [] });
  t.deepEqual(live(reconciler).map((i) => i.uuid), [placed!.uuid], 'the same instance');
  t.deepEqual(cluster.take('a1').filter((m) => m.start || m.stop), [], 'nothing started or stopped');
  reconciler.dispose();
  cluster.stop();
});

test('reconciler: a container image runs only on an agent whose isolation gives it its own root (isolation:bwrap); else it waits and says why', async (t) => {
  const cluster = await new TestCluster().start();
  const image = { uuid: 'p-image', fqn: 'package::/t::img', rootFilesystem: true } as PackageSpec;
  const reconciler = new Reconciler(testJob().uuid, cluster.deps, { ...cluster.runDeps(), packagesFor: async () => [image] }, () => undefined);
  await cluster.connect('plain', 4, { systemTags: ['isolation:process'] });
  const job = testJob();
  await reconciler.reconcile(job);
  t.is(live(reconciler).length, 0);
  t.regex(reconciler.waitingReason ?? '', /hard scheduling tags isolation:bwrap/);
  await cluster.connect('isolated', 4, { systemTags: ['isolation:bwrap'] });
  await reconciler.reconcile(job);
  t.deepEqual(live(reconciler).map((i) => i.agent_uuid), ['isolated']);
  reconciler.dispose();
  cluster.stop();
});

/** Counts the store batches written from now on, and their sizes. */
function countBatches(cluster: TestCluster): number[] {
  const sizes: number[] = [];
  const store = cluster.deps.store;
  const inner = store.batch.bind(store);
  store.batch = (ops) => {
    sizes.push(ops.length);
    return inner(ops);
  };
  return sizes;
}

test('reconciler: the instances one reconcile starts are written in one store batch, each agent then told', async (t) => {
  const { cluster, reconciler } = await setup();
  for (const a of ['a1', 'a2', 'a3']) await cluster.connect(a);
  const job = testJob({ num_instances: 6 });
  const batches = countBatches(cluster);
  await reconciler.reconcile(job);
  t.deepEqual(batches, [6], 'one batch of six records');
  const placed = live(reconciler);
  t.is(placed.length, 6);
  for (const a of ['a1', 'a2', 'a3']) {
    t.is(placed.filter((i) => i.agent_uuid === a).length, 2, `two on ${a} (spread, each placement seeing the ones before)`);
    t.deepEqual(starts(cluster.take(a)).sort(), placed.filter((i) => i.agent_uuid === a).map((i) => i.uuid).sort());
  }
  reconciler.dispose();
  cluster.stop();
});

test('reconciler: placements see the resources the ones before them in the same reconcile took', async (t) => {
  const { cluster, reconciler } = await setup();
  await cluster.connect('big', 1); // room for 4 of 256 MiB
  await cluster.connect('small', 0.5); // room for 2
  const job = testJob({ num_instances: 8 });
  await reconciler.reconcile(job);
  const placed = live(reconciler);
  t.is(placed.length, 6, 'as many as fit');
  t.is(placed.filter((i) => i.agent_uuid === 'big').length, 4);
  t.is(placed.filter((i) => i.agent_uuid === 'small').length, 2);
  t.regex(reconciler.waitingReason ?? '', /no instance manager has room/);
  reconciler.dispose();
  cluster.stop();
});

test('reconciler: on a store that bounds its batches, new instances are written in batches of at most that many operations', async (t) => {
  const { cluster, reconciler } = await setup();
  await cluster.connect('a1', 64);
  Object.defineProperty(cluster.deps.store, 'maxBatchOps', { value: 4 });
  const batches = countBatches(cluster);
  await reconciler.reconcile(testJob({ num_instances: 10 }));
  t.deepEqual(batches, [4, 4, 2]);
  t.is(live(reconciler).length, 10);
  t.is(starts(cluster.take('a1')).length, 10);
  reconciler.dispose();
  cluster.stop();
});

test('reconciler: when writing new instances fails they leave the table (their resources free again) and no agent is told', async (t) => {
  const { cluster, reconciler } = await setup();
  await cluster.connect('a1');
  cluster.deps.store.batch = () => Promise.reject(new Error('disk full'));
  await t.throwsAsync(reconciler.reconcile(testJob({ num_instances: 3 })), { message: 'disk full' });
  t.deepEqual(reconciler.instances(), []);
  t.deepEqual(cluster.table.provisioned('a1').memory, 0);
  t.deepEqual(cluster.take('a1'), []);
  reconciler.dispose();
  cluster.stop();
});

test('reconciler: reports applied together write each changed instance once, in one batch, and the last report of each wins', async (t) => {
  const { cluster, reconciler } = await setup();
  await cluster.connect('a1');
  const job = testJob({ num_instances: 3 });
  await reconciler.reconcile(job);
  const placed = live(reconciler);
  const batches = countBatches(cluster);
  const reports = placed.flatMap((i) =>
    (['SETUP', 'STARTING', 'FIRST_RUNNING', 'RUNNING'] as const).map((state) => ({ agent: 'a1', report: report(i.uuid, state) })),
  );
  t.deepEqual(await reconciler.applyReports(reports, job), {});
  t.deepEqual(batches, [3], 'one batch, one record per instance');
  for (const i of placed) {
    const stored = JSON.parse((await cluster.deps.store.get(keys.instance(job.uuid, i.uuid)))!) as InstanceRecord;
    t.is(stored.state, 'RUNNING');
    t.is(cluster.table.get(i.uuid)!.state, 'RUNNING');
    t.is(typeof stored.running_since_ms, 'number');
  }
  reconciler.dispose();
  cluster.stop();
});

test('reconciler: a report of what the record holds already (an agent re-attaching) writes nothing, and the table\'s watchers still hear it', async (t) => {
  const { cluster, reconciler } = await setup();
  await cluster.connect('a1');
  const job = testJob({ num_instances: 2 });
  await reconciler.reconcile(job);
  const placed = live(reconciler);
  await reconciler.applyReports(placed.map((i) => ({ agent: 'a1', report: report(i.uuid, 'RUNNING') })), job);
  const before = placed.map((i) => cluster.table.get(i.uuid)!);
  const heard: string[] = [];
  cluster.table.watch((record, uuid) => heard.push(`${uuid}:${record?.state}`));
  const batches = countBatches(cluster);
  // The agent comes back and reports both as they are; then one of them exits.
  t.deepEqual(await reconciler.applyReports(placed.map((i) => ({ agent: 'a1', report: report(i.uuid, 'RUNNING') })), job), {});
  t.deepEqual(batches, [], 'nothing written');
  t.deepEqual(placed.map((i) => cluster.table.get(i.uuid)), before, 'the records kept as they were (their updated_ms too)');
  t.deepEqual(heard.sort(), placed.map((i) => `${i.uuid}:RUNNING`).sort(), 'each heard by the watchers, as an agent that restarted must be told its jobs\' drains, links and openings');
  await reconciler.applyReports([{ agent: 'a1', report: report(placed[0]!.uuid, 'RUNNING', { reason: 'health check passed again' }) }], job);
  t.deepEqual(batches, [1], 'a report that changes something is written');
  reconciler.dispose();
  cluster.stop();
});

test('reconciler: among reports applied together, a REMOVED one is applied in its place and one that errors the job stops the rest', async (t) => {
  const { cluster, reconciler } = await setup();
  await cluster.connect('a1');
  const job = testJob({ num_instances: 3, restart: { restart_mode: 'always', maximum_attempts: 1 } });
  await reconciler.reconcile(job);
  const [a, b, c] = live(reconciler);
  const failed = { exited: true, exitCode: 1, failed: true };
  const outcome = await reconciler.applyReports(
    [
      { agent: 'a1', report: report(a!.uuid, 'RUNNING') },
      { agent: 'a1', report: report(a!.uuid, 'REMOVED', failed) },
      { agent: 'a1', report: report(b!.uuid, 'REMOVED', failed) },
      { agent: 'a1', report: report(c!.uuid, 'RUNNING') },
    ],
    job,
  );
  t.is(outcome.state, 'errored');
  t.is(outcome.applied, 3, 'the report after the one that errored the job is left for the actor to apply after');
  t.is(cluster.table.get(a!.uuid)!.state, 'REMOVED');
  t.is(cluster.table.get(b!.uuid)!.state, 'REMOVED');
  t.is(cluster.table.get(c!.uuid)!.state, 'NEW');
  reconciler.dispose();
  cluster.stop();
});
