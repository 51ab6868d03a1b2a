import test from 'ava';
import { AuditLog } from '../audit/audit-log.js';
import type { Patch } from '../audit/patches.js';
import { JobService } from '../jobs/job-service.js';
import { testDeps, testDestinations, testJob } from '../scheduler/cluster.test-fixture.js';
import { keys } from '../store/keys.js';
import { AppTokens } from './app-tokens.js';
import { TokenService } from './tokens.js';

/** A job service on the memory store and app tokens of its jobs, signed by a real token service. */
async function setup(deps = testDeps()) {
  const jobs = new JobService(deps, { actorIdleMs: 60_000, cacheSize: 10, packageStates: async () => new Map(), destinations: testDestinations() });
  const tokens = await TokenService.fromStore(deps.store, 'https://cluster.test', deps.clock);
  const pushed: string[] = [];
  const appTokens = new AppTokens({
    tokens,
    nowMs: () => deps.clock.nowMs(),
    findJob: (uuid) => jobs.find(uuid),
    startedJobs: () => jobs.startedJobs(),
    pushFiles: (_job, files) => pushed.push(...files.map((f) => Buffer.from(f.content ?? '').toString())),
    apiUrl: () => 'http://api.test',
    ttlSeconds: 600,
  });
  const refs = { resolve: async () => [] };
  const ctx = { principal: 'admin', requestId: 'r' };
  const problemOf = async (token: string) => appTokens.problem(await tokens.verify(token));
  return { deps, jobs, appTokens, refs, ctx, pushed, problemOf };
}

test('app tokens: a token stays dead once the setting is removed, even when it is given again within the token\'s lifetime', async (t) => {
  const { jobs, appTokens, refs, ctx, problemOf } = await setup();
  t.teardown(() => jobs.stop());
  const created = await jobs.create({ fqn: 'job::/t::app', processes: { app: { start_command: 'run' } }, app_token: true }, ctx, refs);
  const job = (await jobs.find(created.uuid))!;
  const first = appTokens.environmentFor(job)['PLATFORM_API_TOKEN']!;
  t.is(await problemOf(first), undefined, 'good while the setting is on');
  t.false('app_token_since' in (await jobs.render([job], false))[0]!, 'the turn is the controller\'s own: not served');

  await jobs.update(job.uuid, { ...jobs.inputOf(job), app_token: false }, ctx, refs);
  t.is(await problemOf(first), 'the job job::/t::app no longer has app tokens (app_token is off)');
  // Given again before the first token expires (and before any renewal tick): a new turn.
  await jobs.update(job.uuid, { ...jobs.inputOf((await jobs.find(job.uuid))!), app_token: true }, ctx, refs);
  t.is(await problemOf(first), 'the app_token setting of the job job::/t::app was removed since this token was issued; its instances have a new one');
  const again = (await jobs.find(job.uuid))!;
  const second = appTokens.environmentFor(again)['PLATFORM_API_TOKEN']!;
  t.not(second, first, 'a token of the new turn, not the one remembered from the last');
  t.is(await problemOf(second), undefined);
  t.deepEqual(appTokens.filesFor(again).map((f) => Buffer.from(f.content ?? '').toString()), [second]);

  // Other changes keep the turn: the token of this one stays good.
  await jobs.update(job.uuid, { ...jobs.inputOf(again), num_instances: 3 }, ctx, refs);
  t.is(await problemOf(second), undefined);
});

test('app tokens: a job written before turns were kept keeps its tokens until the setting is removed', async (t) => {
  const deps = testDeps();
  // As an older controller stored it: app_token on, no app_token_since.
  const old = testJob({ fqn: 'job::/t::old', app_token: true }, { uuid: '00000000-0000-4000-8000-0000000000aa', state: 'stopped' });
  await deps.store.batch([
    { type: 'put', key: keys.job(old.uuid), value: JSON.stringify(old) },
    { type: 'put', key: keys.jobByFqn(old.fqn), value: old.uuid },
  ]);
  const { jobs, appTokens, refs, ctx, problemOf } = await setup(deps);
  t.teardown(() => jobs.stop());
  const job = (await jobs.find(old.uuid))!;
  t.is(job.app_token_since, undefined);
  const token = appTokens.environmentFor(job)['PLATFORM_API_TOKEN']!;
  t.is(await problemOf(token), undefined, 'still good after the upgrade');
  await jobs.update(job.uuid, { ...jobs.inputOf(job), app_token: false }, ctx, refs);
  await jobs.update(job.uuid, { ...jobs.inputOf((await jobs.find(job.uuid))!), app_token: true }, ctx, refs);
  t.regex((await problemOf(token))!, /was removed since this token was issued/);
});

test('app tokens: the audit log\'s patches of a job show what its answers show, not the turn kept for the tokens', async (t) => {
  const base = testDeps();
  const deps = { ...base, audit: new AuditLog(base) };
  const { jobs, refs, ctx } = await setup(deps);
  t.teardown(() => jobs.stop());
  const created = await jobs.create({ fqn: 'job::/t::audited', processes: { app: { start_command: 'run' } } }, ctx, refs);
  const on = async (app_token: boolean) => {
    await jobs.update(created.uuid, { ...jobs.inputOf((await jobs.find(created.uuid))!), app_token }, ctx, refs);
    base.clock.advance(1_000);
  };
  await on(true);
  await on(false);
  await on(true);
  t.not((await jobs.find(created.uuid))!.app_token_since, undefined, 'the turn is kept');
  const items = (await deps.audit.query({ eventType: 'job.update', fqn: 'job::/t::audited', limit: 10, offset: 0, reverse: true })).items;
  const patches = items.map((i) => i.audit_payload['patches'] as Patch[]);
  t.is(patches.length, 3);
  for (const [i, value] of [true, false, true].entries()) {
    t.true(patches[i]!.some((p) => p.path === 'job/app_token' && p.value === value), JSON.stringify(patches[i]));
  }
  // Every patched path is one the job's answer has (the fields of a served job, or below them).
  const shown = (await jobs.render([(await jobs.find(created.uuid))!], false))[0]!;
  for (const p of patches.flat()) t.true(p.path.split('/')[1]! in shown, `${p.op} ${p.path} is not in the served job`);
});
