import test from 'ava';
import type { ChangeContext } from '../context.js';
import { ConflictError, NotFoundError, PreconditionFailedError, RequiresRestartError } from '../errors.js';
import { parseJobInput, type Job } from '../model/job.js';
import { TestCluster, report } from '../scheduler/cluster.test-fixture.js';
import { keys } from '../store/keys.js';
import { JobActor } from './job-actor.js';

const ctx: ChangeContext = { principal: 'user@test', requestId: 'r1' };
const PACKAGE = '5a1c2a9e-3b4d-4e5f-8a7b-9c0d1e2f3a4b';

function parsed(body: Record<string, unknown> = {}): ReturnType<typeof parseJobInput> {
  let n = 0;
  return parseJobInput(
    { fqn: 'job::/t::web', packages: [{ uuid: PACKAGE }], processes: { app: { start_command: 'run' } }, ...body },
    () => `d0000000-0000-4000-8000-${String(++n).padStart(12, '0')}`,
  );
}

async function stored(cluster: TestCluster, uuid: string): Promise<Job | undefined> {
  const value = await cluster.deps.store.get(keys.job(uuid));
  return value === undefined ? undefined : (JSON.parse(value) as Job);
}

async function setup(): Promise<TestCluster> {
  const cluster = await new TestCluster().start();
  await cluster.connect('a1');
  return cluster;
}

test('job actor: a started job is persisted with its index entries, then placed', async (t) => {
  const cluster = await setup();
  const actor = await JobActor.create(parsed({ state: 'started' }), ctx, cluster.deps, cluster.runDeps());
  t.is(actor.job.state, 'started');
  t.is(actor.job.version_id, 1);
  t.deepEqual(await stored(cluster, actor.id), actor.job);
  t.is(await cluster.deps.store.get(keys.jobByFqn('job::/t::web')), actor.id);
  t.is(await cluster.deps.store.get(keys.jobByPackage(PACKAGE, actor.id)), '');
  await actor.reconcile(); // queued behind the reconcile that create posted
  t.is(cluster.table.ofJob(actor.id).length, 1);
  t.true(actor.busy, 'a started job holds itself in memory');
  await actor.stop();
  cluster.stop();
});

test('job actor: concurrent updates are applied one at a time, version_id advancing by one per real change', async (t) => {
  const cluster = await setup();
  const actor = await JobActor.create(parsed(), ctx, cluster.deps);
  const [a, b, same] = await Promise.all([
    actor.update(parsed({ tags: { a: '1' } }), ctx),
    actor.update(parsed({ tags: { a: '1', b: '2' } }), ctx),
    actor.update(parsed({ tags: { a: '1', b: '2' } }), ctx),
  ]);
  t.deepEqual([a.job.version_id, b.job.version_id, same.job.version_id], [2, 3, 3]);
  t.deepEqual([a.changed, b.changed, same.changed], [true, true, false]);
  t.deepEqual((await stored(cluster, actor.id))?.tags, { a: '1', b: '2' });
  await actor.stop();
  cluster.stop();
});

test('job actor: an update for another version is refused and changes nothing', async (t) => {
  const cluster = await setup();
  const actor = await JobActor.create(parsed(), ctx, cluster.deps);
  await t.throwsAsync(actor.update(parsed({ tags: { a: '1' } }), ctx, [7]), { instanceOf: PreconditionFailedError });
  t.is((await stored(cluster, actor.id))?.version_id, 1);
  const ok = await actor.update(parsed({ tags: { a: '1' } }), ctx, [1]);
  t.is(ok.job.version_id, 2);
  await actor.stop();
  cluster.stop();
});

test('job actor: the resources of a started job cannot change', async (t) => {
  const cluster = await setup();
  const actor = await JobActor.create(parsed({ state: 'started' }), ctx, cluster.deps, cluster.runDeps());
  const err = await t.throwsAsync(actor.update(parsed({ state: 'started', resources: { memory: 512 * 1024 * 1024 } }), ctx), { instanceOf: RequiresRestartError });
  t.regex(err.message, /memory 268435456 -> 536870912/);
  t.is(actor.job.version_id, 1);
  await actor.stop();
  cluster.stop();
});

test('job actor: a crash loop puts the job in errored (persisted, told) and stops placing', async (t) => {
  const cluster = await setup();
  const actor = await JobActor.create(parsed({ state: 'started', restart: { restart_mode: 'always', maximum_attempts: 1 } }), ctx, cluster.deps, cluster.runDeps());
  const changes: Job[] = [];
  actor.onSystemChange = (job) => changes.push(job);
  await actor.reconcile();
  const crash = async (): Promise<void> => {
    const [instance] = cluster.table.ofJob(actor.id).filter((i) => i.state !== 'REMOVED');
    t.truthy(instance, 'an instance was placed');
    await actor.applyReport('a1', report(instance!.uuid, 'REMOVED', { exited: true, exitCode: 3, failed: true, reason: 'exit code 3' }));
  };
  await crash();
  t.is(actor.job.state, 'started');
  cluster.clock.advance(60_000); // past the restart delay
  await actor.reconcile();
  await crash();
  t.is(actor.job.state, 'errored');
  t.is(actor.job.version_id, 2);
  t.regex(actor.message ?? '', /failed 2 times in a row \(maximum_attempts 1\): exit code 3/);
  t.is((await stored(cluster, actor.id))?.state, 'errored');
  t.deepEqual(changes.map((j) => j.state), ['errored']);
  cluster.clock.advance(60_000);
  await actor.reconcile();
  t.is(cluster.table.ofJob(actor.id).filter((i) => i.state !== 'REMOVED').length, 0, 'an errored job places nothing');
  t.false(actor.busy, 'nothing left to watch: the actor may be passivated');
  await actor.stop();
  cluster.stop();
});

test('job actor: a deleted job is gone from the store, its instances are told to stop, and later changes are refused', async (t) => {
  const cluster = await setup();
  const actor = await JobActor.create(parsed({ state: 'started' }), ctx, cluster.deps, cluster.runDeps());
  await actor.reconcile();
  const [instance] = cluster.table.ofJob(actor.id);
  cluster.take('a1');
  await actor.delete(ctx);
  t.is(await stored(cluster, actor.id), undefined);
  t.is(await cluster.deps.store.get(keys.jobByFqn('job::/t::web')), undefined);
  t.is(await cluster.deps.store.get(keys.instance(actor.id, instance!.uuid)), undefined);
  t.deepEqual(cluster.take('a1').map((m) => m.stop?.instanceUuid), [instance!.uuid]);
  await t.throwsAsync(actor.update(parsed(), ctx), { instanceOf: NotFoundError });
  t.false(actor.busy);
  await actor.stop();
  cluster.stop();
});

test('job actor: a job with more instances than the store takes in one batch (etcd\'s --max-txn-ops) is deleted whole', async (t) => {
  const cluster = await setup();
  const store = cluster.deps.store;
  const actor = await JobActor.create(parsed({ state: 'started', num_instances: 12 }), ctx, cluster.deps, cluster.runDeps());
  await actor.reconcile();
  const instances = cluster.table.ofJob(actor.id);
  t.is(instances.length, 12);
  // From here on, as etcd does: a batch of more than 8 operations is refused.
  Object.defineProperty(store, 'maxBatchOps', { value: 8 });
  const batch = store.batch.bind(store);
  store.batch = (ops) => (ops.length > 8 ? Promise.reject(new Error(`${ops.length} operations`)) : batch(ops));
  await actor.delete(ctx);
  t.is(await stored(cluster, actor.id), undefined);
  t.is(await cluster.deps.store.get(keys.jobByFqn('job::/t::web')), undefined);
  for (const i of instances) t.is(await store.get(keys.instance(actor.id, i.uuid)), undefined);
  await actor.stop();
  cluster.stop();
});

test('job actor: a link is indexed under its target, which is not deleted until the link goes', async (t) => {
  const cluster = await setup();
  const target = await JobActor.create(parsed(), ctx, cluster.deps);
  const linker = await JobActor.create(parsed({ fqn: 'job::/t::linker' }), ctx, cluster.deps);
  const link = { uuid: 'b0000000-0000-4000-8000-000000000001', name: 'backend', job_fqn: 'job::/t::linker', target_job_uuid: target.id };
  await linker.changeBindings(() => ({ bindings: { 'binding::/t::backend': link }, ops: [] }), ctx);
  t.is(await cluster.deps.store.get(keys.jobLinkedBy(target.id, linker.id)), '');
  const refused = await t.throwsAsync(target.delete(ctx), { instanceOf: ConflictError });
  t.regex(refused!.message, /target of links from job::\/t::linker; unlink them first/);
  t.truthy(await stored(cluster, target.id), 'the target is kept');
  // The linking job's own delete takes its index entries with it.
  await linker.delete(ctx);
  t.is(await cluster.deps.store.get(keys.jobLinkedBy(target.id, linker.id)), undefined);
  await target.delete(ctx);
  t.is(await stored(cluster, target.id), undefined);
  cluster.stop();
});

test('job actor: reports that queue up behind the one being applied are applied together, in one store batch', async (t) => {
  const cluster = await setup();
  const actor = await JobActor.create(parsed({ state: 'started', num_instances: 3 }), ctx, cluster.deps, cluster.runDeps());
  await actor.reconcile();
  const instances = cluster.table.ofJob(actor.id);
  t.is(instances.length, 3);
  const sizes: number[] = [];
  const store = cluster.deps.store;
  const inner = store.batch.bind(store);
  store.batch = (ops) => {
    sizes.push(ops.length);
    return inner(ops);
  };
  const states = ['NEW', 'SETUP', 'STARTING', 'FIRST_RUNNING', 'RUNNING'] as const;
  await Promise.all(instances.flatMap((i) => states.map((s) => actor.applyReport('a1', report(i.uuid, s)))));
  // The first report alone when the mailbox starts it at once ([1, 3]); all in one batch when it waits for a time slice ([3]).
  t.true(sizes.length <= 2 && sizes.reduce((a, b) => a + b, 0) <= 4, `batches of ${sizes.join(', ')}: one record per instance in the batch of those queued`);
  t.deepEqual(cluster.table.ofJob(actor.id).map((i) => i.state), ['RUNNING', 'RUNNING', 'RUNNING']);
  await actor.stop();
  cluster.stop();
});
