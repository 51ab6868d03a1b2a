import test, { type ExecutionContext } from 'ava';
import { ForbiddenError } from '../errors.js';
import { JobService } from '../jobs/job-service.js';
import { PolicyEngine } from '../policy/engine.js';
import { ReferenceResolver } from '../policy/references.js';
import { testDeps, testDestinations } from '../scheduler/cluster.test-fixture.js';
import { MemoryStore } from '../store/memory-store.js';
import type { BatchOp } from '../store/store.js';
import { QuotaService } from './quota-service.js';

const PKG = 'a0000000-0000-4000-8000-000000000001';
const MiB = 1024 * 1024;
const ctx = { principal: 'tom@platform.local', requestId: 'r' };

/** A store whose writes wait until `open()`: every admission of concurrent changes happens before any write ends. */
class GatedStore extends MemoryStore {
  #gate: Promise<void> | undefined;
  #open: (() => void) | undefined;
  hold(): void {
    this.#gate = new Promise((resolve) => (this.#open = resolve));
  }
  open(): void {
    this.#open?.();
    this.#gate = undefined;
  }
  override async batch(ops: BatchOp[]): Promise<void> {
    await this.#gate;
    return super.batch(ops);
  }
}

function setup(policy: string) {
  const store = new GatedStore();
  const deps = testDeps(undefined, store);
  const holder = { engine: PolicyEngine.build([{ name: 'q', text: policy }]) };
  const quotas = new QuotaService(holder);
  const jobs = new JobService(deps, { quotas, actorIdleMs: 60_000, cacheSize: 100, packageStates: async (ids) => new Map(ids.map((id) => [id, 'ready'])), destinations: testDestinations() });
  const references = new ReferenceResolver();
  references.register('package', { byUuid: async (ids) => new Map(ids.map((id) => [id, 'package::/p::app'])) });
  const refs = references.trusted();
  const create = (name: string, body: Record<string, unknown> = {}) =>
    jobs.create({ fqn: `job::/sandbox/tom::${name}`, packages: [{ uuid: PKG }], state: 'started', ...body }, ctx, refs);
  return { store, jobs, quotas, refs, create, holder };
}

const refusal = async (t: ExecutionContext, p: Promise<unknown>) => {
  const err = await t.throwsAsync(p, { instanceOf: ForbiddenError });
  return err!;
};

test('quotas: concurrent creates cannot overshoot a total together; a refusal names the quota, its limit and the use', async (t) => {
  const { store, jobs, quotas, create } = setup('quota::/sandbox/[name] { total.memory 1GB }');
  store.hold();
  // Eight jobs of 256 MiB at once: four fit in 1 GiB.
  const attempts = Array.from({ length: 8 }, (_, i) => create(`web${i}`));
  await new Promise((resolve) => setImmediate(resolve));
  store.open();
  const results = await Promise.allSettled(attempts);
  t.is(results.filter((r) => r.status === 'fulfilled').length, 4);
  const refused = results.flatMap((r) => (r.status === 'rejected' ? [r.reason as ForbiddenError] : []));
  t.is(refused.length, 4);
  t.true(refused.every((e) => e instanceof ForbiddenError));
  t.is(refused[0]!.message, 'quota total.memory of /sandbox/tom is 1 GiB (quota::/sandbox/[name]): 1 GiB is in use and this change needs 256 MiB more');
  t.like(refused[0]!.details, { quota: 'total.memory', namespace: '/sandbox/tom', limit: 1024 * MiB, in_use: 1024 * MiB, requested: 256 * MiB });
  t.like(quotas.usage('/sandbox/tom')[0], { name: 'total.memory', in_use: 1024 * MiB, limit: 1024 * MiB, unit: 'bytes' });
  await jobs.stop();
});

test('quotas: a change that does not raise use passes even over the quota; stopping and deleting give room back', async (t) => {
  const { jobs, quotas, refs, create, holder } = setup('quota::/sandbox/[name] { max.instances 3 total.instances 4 }');
  const a = await create('a', { num_instances: 3 });
  await refusal(t, create('b', { num_instances: 2 }));
  const b = await create('b', { num_instances: 1 });
  const err = await refusal(t, jobs.update(b.uuid, { ...jobs.inputOf(b), num_instances: 4 }, ctx, refs));
  t.regex(err.message, /^quota max\.instances of \/sandbox\/tom is 3 \(quota::\/sandbox\/\[name\]\): this job asks for 4 instances$/);
  // The quota made smaller than what runs: lowering and other changes still pass.
  holder.engine = PolicyEngine.build([{ name: 'q', text: 'quota::/sandbox/[name] { total.instances 2 }' }]);
  const tagged = await jobs.update(a.uuid, { ...jobs.inputOf(a), tags: { x: '1' } }, ctx, refs);
  t.true(tagged.changed);
  await jobs.update(a.uuid, { ...jobs.inputOf(a), num_instances: 2 }, ctx, refs);
  await refusal(t, jobs.update(b.uuid, { ...jobs.inputOf(b), num_instances: 2 }, ctx, refs));
  // A stop gives room: b may then grow to 2 once a is stopped.
  await jobs.update(a.uuid, { ...jobs.inputOf((await jobs.find(a.uuid))!), state: 'stopped' }, ctx, refs);
  await jobs.update(b.uuid, { ...jobs.inputOf((await jobs.find(b.uuid))!), num_instances: 2 }, ctx, refs);
  // A start is a raise like any other.
  await refusal(t, jobs.update(a.uuid, { ...jobs.inputOf((await jobs.find(a.uuid))!), state: 'started' }, ctx, refs));
  await jobs.delete(b.uuid, ctx);
  t.like(quotas.usage('/sandbox/tom')[0], { in_use: 0 });
  await jobs.update(a.uuid, { ...jobs.inputOf((await jobs.find(a.uuid))!), state: 'started' }, ctx, refs);
  t.like(quotas.usage('/sandbox/tom')[0], { in_use: 2 });
  await jobs.stop();
});

test('quotas: per-instance maximums, uncapped cpu under a cpu quota, and the room autoscaling is left', async (t) => {
  const { jobs, quotas, create } = setup('quota::/sandbox/tom { max.memory 512MB total.cpu 1000 total.memory 2GB }');
  const big = await refusal(t, create('big', { resources: { memory: 1024 * MiB, cpu: 100 } }));
  t.regex(big.message, /an instance of this job asks for 1 GiB$/);
  const uncapped = await refusal(t, create('uncapped'));
  t.regex(uncapped.message, /needs a cpu resource \(resources\.cpu 0 is uncapped\)$/);
  const web = await create('web', { resources: { memory: 256 * MiB, cpu: 200 }, num_instances: 2 });
  // cpu allows 5 instances of 200, memory 8 of 256 MiB: held at 5.
  const fit = quotas.fitInstances(web, 9);
  t.is(fit.to, 5);
  t.regex(fit.heldBy!, /^autoscaling held at 5 instances \(it asks for 9\): quota total\.cpu of \/sandbox\/tom is 1000 ms\/s \(quota::\/sandbox\/tom\), 400 ms\/s in use$/);
  t.is(quotas.note(web.uuid), fit.heldBy);
  t.deepEqual(quotas.fitInstances(web, 4), { to: 4 });
  t.is(quotas.note(web.uuid), undefined, 'a decision that is not held clears the note');
  t.deepEqual(quotas.fitInstances(web, 1), { to: 1 }, 'scaling down is never held');
  await jobs.stop();
});

test('quotas: the ledger is rebuilt from the started jobs of the store at restore', async (t) => {
  const { store, create, jobs } = setup('quota::/sandbox/tom { total.instances 2 }');
  await create('a', { num_instances: 2 });
  await jobs.stop();
  const deps = testDeps(undefined, store);
  const quotas = new QuotaService({ engine: PolicyEngine.build([{ name: 'q', text: 'quota::/sandbox/tom { total.instances 2 }' }]) });
  const again = new JobService(deps, { quotas, actorIdleMs: 60_000, cacheSize: 100, packageStates: async (ids) => new Map(ids.map((id) => [id, 'ready'])), destinations: testDestinations() });
  await again.restore();
  t.like(quotas.usage('/sandbox/tom')[0], { in_use: 2, limit: 2 });
  await again.stop();
});
