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
 * to the store: the two windows in which a delete of the secret may come.
 */
function setup() {
  const deps = testDeps();
  const hooks: { beforeResolved?: () => Promise<void>; beforeInstallWritten?: () => Promise<void> } = {};
  const late: { secrets?: SecretService } = {};
  const jobs = new JobService(deps, {
    actorIdleMs: 60_000,
    cacheSize: 10,
    packageStates: async () => new Map(),
    destinations: testDestinations(),
    secrets: { hold: (s) => late.secrets!.hold(s) },
  });
  const refs: ReferenceCheck = { resolve: async () => [] };
  const secrets = new SecretService(deps, SecretCipher.of(randomBytes(32)), jobs, { trusted: refs });
  late.secrets = secrets;
  const lookup = secrets.referenceLookup();
  const jobRefs: ReferenceCheck = {
    resolve: async (list) => {
      const found = await lookup.byFqn!(list.map((r) => r.fqn!));
      const answer = list.map((r) => ({ ...r, uuid: found.get(r.fqn!)!, fqn: r.fqn! }));
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
