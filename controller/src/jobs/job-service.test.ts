import test from 'ava';
import { testDeps } from '../scheduler/cluster.test-fixture.js';
import { keys } from '../store/keys.js';
import { JobService } from './job-service.js';

const TARGET = 'd0000000-0000-4000-8000-000000000001';
const LINKER = 'd0000000-0000-4000-8000-000000000002';

test('job service: a data directory from before the link and tag indexes gets them once, at restore', async (t) => {
  const deps = testDeps();
  // Jobs as an older controller stored them: no index entries, no marks.
  const job = (uuid: string, fqn: string, extra: object) => ({ uuid, fqn, name: fqn.split('::')[2], state: 'stopped', bindings: {}, tags: {}, ...extra });
  await deps.store.batch([
    { type: 'put', key: keys.job(TARGET), value: JSON.stringify(job(TARGET, 'job::/t::target', { tags: { tier: 'db' } })) },
    {
      type: 'put',
      key: keys.job(LINKER),
      value: JSON.stringify(job(LINKER, 'job::/t::linker', { bindings: { 'binding::/t::b': { name: 'backend', target_job_uuid: TARGET } } })),
    },
  ]);
  const service = new JobService(deps, { actorIdleMs: 60_000, cacheSize: 10, packageStates: async () => new Map() });
  t.is(await service.restore(), 0, 'nothing started');
  t.is(await deps.store.get(keys.jobLinkedBy(TARGET, LINKER)), '');
  t.is(await deps.store.get(keys.jobByTagValue('tier', 'db', 'job::/t::target')), TARGET);
  t.is(await deps.store.get(keys.meta('job-link-index')), '1');
  t.is(await deps.store.get(keys.meta('job-tag-index')), '1');
  // Built once: an entry removed later is not built again by the next restore.
  await deps.store.batch([{ type: 'del', key: keys.jobLinkedBy(TARGET, LINKER) }]);
  await new JobService(deps, { actorIdleMs: 60_000, cacheSize: 10, packageStates: async () => new Map() }).restore();
  t.is(await deps.store.get(keys.jobLinkedBy(TARGET, LINKER)), undefined);
});

test('job service: the started jobs are read from the actors in memory, not from the store', async (t) => {
  const deps = testDeps();
  const job = (uuid: string, fqn: string, state: string) => ({ uuid, fqn, name: fqn.split('::')[2], state, version_id: 1, bindings: {}, tags: {} });
  await deps.store.batch([
    { type: 'put', key: keys.job(TARGET), value: JSON.stringify(job(TARGET, 'job::/t::started', 'started')) },
    { type: 'put', key: keys.job(LINKER), value: JSON.stringify(job(LINKER, 'job::/t::stopped', 'stopped')) },
  ]);
  const service = new JobService(deps, { actorIdleMs: 60_000, cacheSize: 10, packageStates: async () => new Map() });
  t.is(await service.restore(), 1);
  let reads = 0;
  const { get, getMany, iterate, scan } = deps.store;
  deps.store.get = async (key) => (reads++, get.call(deps.store, key));
  deps.store.getMany = async (k) => (reads++, getMany.call(deps.store, k));
  deps.store.iterate = (r) => (reads++, iterate.call(deps.store, r));
  deps.store.scan = async (r) => (reads++, scan.call(deps.store, r));
  t.deepEqual(service.startedJobs().map((j) => j.fqn), ['job::/t::started']);
  t.is(reads, 0, 'nothing read from the store');
  // A stopped job in memory (activated by a read through its actor) is not listed.
  await service.actors.get(LINKER);
  t.deepEqual(service.startedJobs().map((j) => j.uuid), [TARGET]);
  await service.actors.stop();
});
