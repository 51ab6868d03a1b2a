import test from 'ava';
import { testDeps, testDestinations } from '../scheduler/cluster.test-fixture.js';
import { keys } from '../store/keys.js';
import { parseJobInput, type Job } from '../model/job.js';
import { JobService, StartedJobs } from './job-service.js';

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
  const service = new JobService(deps, { actorIdleMs: 60_000, cacheSize: 10, packageStates: async () => new Map(), destinations: testDestinations() });
  t.is(await service.restore(), 0, 'nothing started');
  t.is(await deps.store.get(keys.jobLinkedBy(TARGET, LINKER)), '');
  t.is(await deps.store.get(keys.jobByTagValue('tier', 'db', 'job::/t::target')), TARGET);
  t.is(await deps.store.get(keys.meta('job-link-index')), '1');
  t.is(await deps.store.get(keys.meta('job-tag-index')), '1');
  // Built once: an entry removed later is not built again by the next restore.
  await deps.store.batch([{ type: 'del', key: keys.jobLinkedBy(TARGET, LINKER) }]);
  await new JobService(deps, { actorIdleMs: 60_000, cacheSize: 10, packageStates: async () => new Map(), destinations: testDestinations() }).restore();
  t.is(await deps.store.get(keys.jobLinkedBy(TARGET, LINKER)), undefined);
});

test('job service: restore activates the started jobs several at a time, not one store read after the other', async (t) => {
  const deps = testDeps();
  const uuid = (i: number) => `d0000000-0000-4000-8000-${String(i).padStart(12, '0')}`;
  await deps.store.batch(
    Array.from({ length: 50 }, (_, i) => ({
      type: 'put' as const,
      key: keys.job(uuid(i)),
      value: JSON.stringify({ uuid: uuid(i), fqn: `job::/t::j${i}`, name: `j${i}`, state: 'started', version_id: 1, bindings: {}, tags: {} }),
    })),
  );
  // Each read of a record waits until the reads under way are let go together, as from etcd.
  let reading = 0;
  let most = 0;
  let waiters: (() => void)[] = [];
  const { get } = deps.store;
  deps.store.get = async (key) => {
    if (!key.startsWith(keys.job(''))) return get.call(deps.store, key);
    reading++;
    most = Math.max(most, reading);
    await new Promise<void>((resolve) => waiters.push(resolve));
    reading--;
    return get.call(deps.store, key);
  };
  const release = setInterval(() => {
    const now = waiters;
    waiters = [];
    for (const w of now) w();
  }, 1);
  t.teardown(() => clearInterval(release));
  const service = new JobService(deps, { actorIdleMs: 60_000, cacheSize: 100, packageStates: async () => new Map(), destinations: testDestinations() });
  t.is(await service.restore(), 50);
  t.true(most >= 16, `at most ${most} read at once`);
  t.is(service.startedJobs().length, 50);
  await service.actors.stop();
});

test('job service: the started jobs are read from the actors in memory, not from the store', async (t) => {
  const deps = testDeps();
  const job = (uuid: string, fqn: string, state: string) => ({ uuid, fqn, name: fqn.split('::')[2], state, version_id: 1, bindings: {}, tags: {} });
  await deps.store.batch([
    { type: 'put', key: keys.job(TARGET), value: JSON.stringify(job(TARGET, 'job::/t::started', 'started')) },
    { type: 'put', key: keys.job(LINKER), value: JSON.stringify(job(LINKER, 'job::/t::stopped', 'stopped')) },
  ]);
  const service = new JobService(deps, { actorIdleMs: 60_000, cacheSize: 10, packageStates: async () => new Map(), destinations: testDestinations() });
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

test('job service: drains and http_metric urls at refused addresses are refused (400 naming the field and the address) and nothing is made; what an update keeps is not judged again', async (t) => {
  const deps = testDeps();
  const refs = { resolve: async () => [] };
  const ctx = { principal: 'admin', requestId: 'r' };
  const strict = new JobService(deps, { actorIdleMs: 60_000, cacheSize: 10, packageStates: async () => new Map(), destinations: testDestinations() });
  t.teardown(() => strict.actors.stop());
  const refusals: [Record<string, unknown>, RegExp][] = [
    [{ drains: [{ url: 'syslog://127.0.0.1:514' }] }, /^drains\[0\]\.url: log drains may not reach 127\.0\.0\.1:514: 127\.0\.0\.1 is a loopback address/],
    [{ drains: [{ url: 'syslog://logs.example.com:514' }, { url: 'syslog://[fe80::1]:514' }] }, /^drains\[1\]\.url: .*fe80::1 is a link-local address/],
    [{ drains: [{ url: 'syslog://localhost:514', conf: { protocol: 'udp' } }] }, /^drains\[0\]\.url: log drains may not reach localhost:514: it resolves to /],
    [{ monitoring: { load: { type: 'http_metric', config: { url: 'http://169.254.169.254/latest/meta-data/' } } } }, /^monitoring\.load\.config\.url: http_metric urls may not reach 169\.254\.169\.254:80: /],
    [{ monitoring: { load: { type: 'http_metric', config: { url: 'https://[::ffff:127.0.0.1]/x' } } } }, /^monitoring\.load\.config\.url: http_metric urls may not reach \[::ffff:7f00:1\]:443: ::ffff:7f00:1 is a loopback address/],
  ];
  for (const [fields, message] of refusals) {
    const err = await t.throwsAsync(strict.create({ fqn: 'job::/t::refused', ...fields }, ctx, refs), { message });
    t.like(err, { kind: 'invalid' });
  }
  t.is(await strict.findByFqn('job::/t::refused'), undefined, 'nothing made');
  t.throws(() => parseJobInput({ fqn: 'job::/t::x', monitoring: { m: { type: 'http_metric', config: { url: 'ftp://x/' } } } }, () => 'u'), { message: /scheme "ftp" is not supported/ });
  // $INSTANCE urls reach the job's own instances: not judged. Listed addresses pass.
  const listed = new JobService(deps, { actorIdleMs: 60_000, cacheSize: 10, packageStates: async () => new Map(), destinations: testDestinations('127.0.0.1:514') });
  t.teardown(() => listed.actors.stop());
  const job = await listed.create(
    { fqn: 'job::/t::kept', drains: [{ url: 'syslog://127.0.0.1:514' }], monitoring: { load: { type: 'http_metric', config: { url: 'http://$INSTANCE:8080/load' } } } },
    ctx,
    refs,
  );
  // Under the stricter rule, an update keeping the drain passes; adding another refused one does not.
  const body = { ...strict.inputOf(job), num_instances: 2 };
  t.is((await strict.update(job.uuid, body, ctx, refs)).job.num_instances, 2);
  await t.throwsAsync(strict.update(job.uuid, { ...body, drains: [...job.drains, { url: 'syslog://127.0.0.2:514' }] }, ctx, refs), { message: /^drains\[1\]\.url: .*127\.0\.0\.2 is a loopback address/ });
});

test('job service: a job created without starting keeps no actor in memory; its next change activates one from the read cache', async (t) => {
  const deps = testDeps();
  const refs = { resolve: async () => [] };
  const ctx = { principal: 'admin', requestId: 'r' };
  const service = new JobService(deps, { actorIdleMs: 60_000, cacheSize: 10, packageStates: async () => new Map(), destinations: testDestinations() });
  t.teardown(() => service.actors.stop());
  const jobs: Job[] = [];
  for (let i = 0; i < 3; i++) jobs.push(await service.create({ fqn: `job::/t::made${i}` }, ctx, refs));
  // Posting many jobs kept an actor (some 0.9 KB besides the record) for each until actorIdleMs.
  t.is(service.actors.size, 0);
  let reads = 0;
  const { get, getMany } = deps.store;
  deps.store.get = async (key) => (key === keys.job(jobs[1]!.uuid) && reads++, get.call(deps.store, key));
  deps.store.getMany = async (k) => (k.includes(keys.job(jobs[1]!.uuid)) && reads++, getMany.call(deps.store, k));
  const updated = await service.update(jobs[1]!.uuid, { ...service.inputOf(jobs[1]!), num_instances: 2 }, ctx, refs);
  t.is(updated.job.num_instances, 2);
  t.is(updated.job.version_id, 2);
  t.is(reads, 0, 'the record came from the read cache');
  t.is((await service.find(jobs[1]!.uuid))?.num_instances, 2);
  t.is((await service.find(jobs[0]!.uuid))?.version_id, 1);
});

test('job service: restore activates the started jobs only, whatever the text of the others', async (t) => {
  const deps = testDeps();
  const job = (uuid: string, fqn: string, state: string, tags: Record<string, string> = {}) => ({ uuid, fqn, name: fqn.split('::')[2], state, version_id: 1, bindings: {}, tags });
  const marks = [
    { type: 'put' as const, key: keys.meta('job-tag-index'), value: '1' },
    { type: 'put' as const, key: keys.meta('job-link-index'), value: '1' },
  ];
  await deps.store.batch([
    ...marks,
    { type: 'put', key: keys.job(TARGET), value: JSON.stringify(job(TARGET, 'job::/t::started', 'started')) },
    // Stopped, with the started job's text in a tag (a key that ends in it, and a value): never activated.
    { type: 'put', key: keys.job(LINKER), value: JSON.stringify(job(LINKER, 'job::/t::stopped', 'stopped', { 'a\\"state': '"state":"started"' })) },
  ]);
  const service = new JobService(deps, { actorIdleMs: 60_000, cacheSize: 10, packageStates: async () => new Map(), destinations: testDestinations() });
  t.is(await service.restore(), 1);
  t.deepEqual([...service.actors.live()].map((a) => a.job.uuid), [TARGET]);
  await service.actors.stop();
});

test('job service: restore takes the started jobs a term\'s start read for the routes, and reads no job record again', async (t) => {
  const deps = testDeps();
  const job = (uuid: string, fqn: string, state: string, tags: Record<string, string> = {}) => ({ uuid, fqn, name: fqn.split('::')[2], state, version_id: 1, bindings: {}, tags });
  const values = [
    JSON.stringify(job(TARGET, 'job::/t::started', 'started')),
    // Stopped, with the started job's text in a tag: not taken.
    JSON.stringify(job(LINKER, 'job::/t::stopped', 'stopped', { 'a\\"state': '"state":"started"' })),
  ];
  await deps.store.batch([
    { type: 'put', key: keys.meta('job-tag-index'), value: '1' },
    { type: 'put', key: keys.meta('job-link-index'), value: '1' },
    { type: 'put', key: keys.job(TARGET), value: values[0]! },
    { type: 'put', key: keys.job(LINKER), value: values[1]! },
  ]);
  const read = new StartedJobs();
  for (const v of values) read.take(v);
  t.deepEqual(read.jobs.map((j) => j.uuid), [TARGET]);
  let jobReads = 0;
  const { get, iterate } = deps.store;
  deps.store.get = async (key) => {
    if (key.startsWith(keys.job(''))) jobReads++;
    return get.call(deps.store, key);
  };
  deps.store.iterate = (range) => {
    if ('prefix' in range && range.prefix === keys.jobPrefix) jobReads++;
    return iterate.call(deps.store, range);
  };
  const service = new JobService(deps, { actorIdleMs: 60_000, cacheSize: 10, packageStates: async () => new Map(), destinations: testDestinations() });
  t.is(await service.restore([], read), 1);
  t.is(jobReads, 0, 'neither the jobs nor the started job\'s record read again');
  t.deepEqual([...service.actors.live()].map((a) => a.job.uuid), [TARGET]);
  await service.actors.stop();
});
