import { randomBytes } from 'node:crypto';
import test from 'ava';
import { JobService } from '../jobs/job-service.js';
import type { Job } from '../model/job.js';
import type { ReferenceCheck } from '../policy/references.js';
import { testDeps, testDestinations } from '../scheduler/cluster.test-fixture.js';
import { keys } from '../store/keys.js';
import type { BatchOp } from '../store/store.js';
import { SecretCipher } from './secret-cipher.js';
import { SecretService } from './secret-service.js';

const ctx = { principal: 'admin', requestId: 'r' };

/**
 * A job service and a secret service on one memory store, wired as the controller wires them;
 * `beforeResolved` runs while a job's secrets are being resolved (after the lookup, before the
 * answer), `beforeInstallWritten` while the batch that installs a secret in a job is on its way
 * to the store, `whileChecking` after a started job's secrets are held and before it is written:
 * the windows in which a delete or a new version of the secret may come.
 */
function setup() {
  const deps = testDeps();
  const hooks: { beforeResolved?: () => Promise<void>; beforeInstallWritten?: () => Promise<void>; whileChecking?: () => Promise<void> } = {};
  const late: { secrets?: SecretService } = {};
  const jobs = new JobService(deps, {
    actorIdleMs: 60_000,
    cacheSize: 10,
    // Asked after a job's secrets are held, before it is written (a started job's packages).
    packageStates: async (ids) => {
      const hook = hooks.whileChecking;
      hooks.whileChecking = undefined;
      await hook?.();
      return new Map(ids.map((id) => [id, 'ready']));
    },
    destinations: testDestinations(),
    secrets: { hold: (s) => late.secrets!.hold(s) },
  });
  // The controller's own changes (rolling jobs to a new version) resolve as the jobs' do.
  const trusted: ReferenceCheck = { resolve: (list) => jobRefs.resolve(list) };
  const secrets = new SecretService(deps, SecretCipher.of(randomBytes(32)), jobs, { trusted });
  late.secrets = secrets;
  const lookup = secrets.referenceLookup();
  const jobRefs: ReferenceCheck = {
    resolve: async (list) => {
      const found = await lookup.byFqn!(list.map((r) => r.fqn!));
      const answer = list.map((r) => (r.type === 'secret' ? { ...r, uuid: found.get(r.fqn!)!, fqn: r.fqn! } : { ...r, uuid: r.uuid!, fqn: `package::/t::${r.uuid}` }));
      const hook = hooks.beforeResolved;
      hooks.beforeResolved = undefined;
      await hook?.();
      return answer;
    },
  };
  const batch = deps.store.batch.bind(deps.store);
  deps.store.batch = async (ops: readonly BatchOp[]) => {
    if (ops.some((op) => op.type === 'put' && op.key.startsWith('idx/secret-job/'))) {
      const hook = hooks.beforeInstallWritten;
      hooks.beforeInstallWritten = undefined;
      await hook?.();
    }
    return batch(ops);
  };
  return { deps, jobs, secrets, jobRefs, hooks };
}

const body = (name: string) => ({ fqn: `job::/t::${name}`, processes: { app: { start_command: 'run' } }, secrets: [{ fqn: 'secret::/t::db', env: 'DB_PASSWORD' }] });

/** The secret of every job's `secrets` exists, and every job that has one is in its index. */
async function consistent(deps: ReturnType<typeof testDeps>, secrets: SecretService, job: Job | undefined): Promise<void> {
  if (!job) return;
  for (const s of job.secrets) {
    if (!secrets.get(s.uuid)) throw new Error(`job ${job.fqn} refers to secret ${s.fqn} (${s.uuid}), which is gone`);
    if ((await deps.store.get(keys.secretJob(s.uuid, job.uuid))) === undefined) throw new Error(`job ${job.fqn} is not in the index of ${s.fqn}`);
  }
}

test('secrets: a delete while a job installing the secret is being checked wins, and the job change is refused (400) without a trace', async (t) => {
  const { deps, jobs, secrets, jobRefs, hooks } = setup();
  t.teardown(() => jobs.stop());
  const secret = await secrets.create({ fqn: 'secret::/t::db', value: 'hunter2' }, ctx);
  let deleted: unknown = 'not run';
  hooks.beforeResolved = async () => {
    deleted = await secrets.delete(secret.uuid, ctx).catch((err: unknown) => err);
  };
  const err = await t.throwsAsync(jobs.create(body('racing'), ctx, jobRefs), { message: 'secrets: secret secret::/t::db does not exist' });
  t.like(err, { kind: 'invalid' });
  t.is(deleted, undefined, 'the delete went through');
  t.is(await jobs.findByFqn('job::/t::racing'), undefined, 'no job refers to the missing secret');
  t.deepEqual(await deps.store.scan({ prefix: keys.secretJobsPrefix(secret.uuid) }), [], 'nor an index entry');
});

test('secrets: a delete while the job installing the secret is being written is refused (409); the job has it', async (t) => {
  const { deps, jobs, secrets, jobRefs, hooks } = setup();
  t.teardown(() => jobs.stop());
  const secret = await secrets.create({ fqn: 'secret::/t::db', value: 'hunter2' }, ctx);
  let deleted: unknown = 'not run';
  hooks.beforeInstallWritten = async () => {
    deleted = await secrets.delete(secret.uuid, ctx).catch((err: unknown) => err);
  };
  const job = await jobs.create(body('written'), ctx, jobRefs);
  t.like(deleted, { kind: 'conflict', message: 'secret secret::/t::db is being installed in a job now, and a secret installed in a job cannot be deleted; take it out of that job first' });
  t.truthy(secrets.get(secret.uuid), 'the secret is kept');
  await t.notThrowsAsync(consistent(deps, secrets, await jobs.find(job.uuid)));
  // Once written, the index refuses the delete; taken out of the job, the secret may go.
  await t.throwsAsync(secrets.delete(secret.uuid, ctx), { message: /is installed in job::\/t::written; take it out of those jobs first/ });
  await jobs.update(job.uuid, { ...jobs.inputOf(job), secrets: [] }, ctx, jobRefs);
  await t.notThrowsAsync(secrets.delete(secret.uuid, ctx));
});

test('secrets: an update of a job that adds the secret races a delete the same way (refused one or the other, never both through)', async (t) => {
  const { deps, jobs, secrets, jobRefs, hooks } = setup();
  t.teardown(() => jobs.stop());
  const secret = await secrets.create({ fqn: 'secret::/t::db', value: 'hunter2' }, ctx);
  const job = await jobs.create({ ...body('plain'), secrets: [] }, ctx, jobRefs);
  let deleted: unknown = 'not run';
  hooks.beforeInstallWritten = async () => {
    deleted = await secrets.delete(secret.uuid, ctx).catch((err: unknown) => err);
  };
  await jobs.update(job.uuid, { ...jobs.inputOf(job), secrets: body('plain').secrets }, ctx, jobRefs);
  t.like(deleted, { kind: 'conflict' });
  await t.notThrowsAsync(consistent(deps, secrets, await jobs.find(job.uuid)));
});

test('secrets: a new version made while a job installing the secret is being written reaches the job (its roll could not see it yet)', async (t) => {
  const { jobs, secrets, jobRefs, hooks } = setup();
  t.teardown(() => jobs.stop());
  const secret = await secrets.create({ fqn: 'secret::/t::db', value: 'hunter2' }, ctx);
  hooks.beforeInstallWritten = async () => {
    await secrets.update(secret.uuid, { value: 'changed' }, ctx);
  };
  const job = await jobs.create(body('rolled'), ctx, jobRefs);
  t.is(job.secrets[0]!.version, 1, 'written with the version it was checked with');
  await secrets.settled();
  const now = (await jobs.find(job.uuid))!;
  t.is(now.secrets[0]!.version, 2, 'then rolled to the new one');
  t.is(now.version_id, 2);

  // A started job that has it already: a new version whose roll is written while a change of
  // the job (holding the version before) is being checked; that change, written after, is rolled again.
  const pkg = '00000000-0000-4000-8000-00000000beef';
  const started = await jobs.update(job.uuid, { ...jobs.inputOf(now), packages: [{ uuid: pkg }], state: 'started' }, ctx, jobRefs);
  t.is(started.job.secrets[0]!.version, 2);
  hooks.whileChecking = async () => {
    await secrets.update(secret.uuid, { value: 'changed again' }, ctx);
    t.is((await jobs.find(job.uuid))!.secrets[0]!.version, 3, 'the roll of the new version is written first');
  };
  const scaled = await jobs.update(job.uuid, { ...jobs.inputOf((await jobs.find(job.uuid))!), num_instances: 2 }, ctx, jobRefs);
  t.is(scaled.job.secrets[0]!.version, 2, 'the change was checked with the version before');
  await secrets.settled();
  const last = (await jobs.find(job.uuid))!;
  t.is(last.num_instances, 2);
  t.is(last.secrets[0]!.version, 3, 'rolled again to the new version');
});
