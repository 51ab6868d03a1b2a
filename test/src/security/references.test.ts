/**
 * Every reference in a body is authorised for the caller (controller/src/policy/references.ts):
 * mallory cannot use alice's package, run alice's job as her stager, or stage with alice's
 * pipeline, and the answer for "not yours" is the answer for "does not exist".
 */
import test from 'ava';
import { randomUUID } from 'node:crypto';
import type { ApiErrorBody, AuditLogItem, Job, Package, StagingPipeline } from '@platform/controller';
import { appJob, archive, digestOf, unique } from '../harness/fixtures.js';
import type { ApiClient, Reply } from '../harness/http.js';
import { createPackage } from '../harness/packages.js';
import { useController } from '../harness/suite.js';

const suite = useController(test);
const PASSWORD = 'a long enough password';

/** Two users with their sandboxes, and alice's job, package and pipeline. */
async function world() {
  const alice = unique('alice');
  const mallory = unique('mallory');
  const a = await suite.api().createUser(alice, PASSWORD);
  const m = await suite.api().createUser(mallory, PASSWORD);
  const pkg = await createPackage(a, `/sandbox/${alice}`, { upload: true });
  const job = (await a.post<Job>('/v1/jobs', appJob(`job::/sandbox/${alice}::${unique('j')}`))).body;
  const pipe = (await a.post<StagingPipeline>('/v1/stagingpipelines', { fqn: `stagpipe::/sandbox/${alice}::${unique('pipe')}`, stagers: [{ uuid: job.uuid }] })).body;
  return { alice, mallory, a, m, pkg, job, pipe };
}

/** The parts of a refusal that must not tell "not yours" from "not there": all but the names. */
function shape(r: Reply<ApiErrorBody>, ...names: string[]): unknown {
  let message = r.body.message;
  for (const n of names) message = message.split(n).join('<id>');
  const { request_id: _r, error_details: _d, message: _m, ...flags } = r.body;
  return { status: r.status, message, flags };
}

async function denials(fqn: string): Promise<AuditLogItem[]> {
  return (await suite.api().get<AuditLogItem[]>(`/v1/audit?event_type=policy.access.denied&fqn=${encodeURIComponent(fqn)}`)).body;
}

test('references: a job may name only packages its creator may use; others answer as missing', async (t) => {
  const { mallory, m, pkg } = await world();
  const mine = await createPackage(m, `/sandbox/${mallory}`, { upload: true });
  const fqn = `job::/sandbox/${mallory}::${unique('thief')}`;
  const body = (uuid: string) => appJob(fqn, { packages: [{ uuid }], processes: { app: { start_command: 'cat /app/secret.txt' } } });

  const theirs = await m.post<ApiErrorBody>('/v1/jobs', body(pkg.uuid));
  const nowhere = randomUUID();
  const missing = await m.post<ApiErrorBody>('/v1/jobs', body(nowhere));
  t.is(theirs.status, 400, theirs.text);
  t.deepEqual(shape(theirs, pkg.uuid), shape(missing, nowhere), 'not yours reads as not there');
  t.regex(theirs.body.message, /^packages: no package with uuid/);
  t.false(theirs.text.includes(pkg.fqn), 'the FQN of the package does not leak');
  t.is((await m.get<Job[]>(`/v1/jobs?fqn=${encodeURIComponent(fqn)}`)).body.length, 0, 'nothing was created');
  // The denial is audited as any other: `use` on the package's FQN.
  const recorded = await denials(pkg.fqn);
  t.true(recorded.some((i) => JSON.stringify(i).includes('"use"')), JSON.stringify(recorded));

  // Her own package is fine, and then a PUT cannot swap alice's in.
  const ok = await m.post<Job>('/v1/jobs', body(mine.uuid));
  t.is(ok.status, 200, ok.text);
  const put = await m.put<ApiErrorBody>(`/v1/jobs/${ok.body.uuid}`, body(pkg.uuid));
  t.is(put.status, 400, put.text);
  t.deepEqual(shape(put, pkg.uuid), shape(await m.put<ApiErrorBody>(`/v1/jobs/${ok.body.uuid}`, body(nowhere)), nowhere));
  const still = (await m.get<Job>(`/v1/jobs/${ok.body.uuid}`)).body;
  t.deepEqual(
    still.packages.filter((p) => p.source === 'user').map((p) => p.uuid),
    [mine.uuid],
  );
});

test('references: a package the caller may read but not use answers 403 naming the claim; `use` lets it through', async (t) => {
  const { alice, mallory, m, pkg } = await world();
  const doc = unique('lend');
  const grant = async (text: string, version: number) => {
    const r = await suite.api().put('/v1/policy', { docs: [{ name: doc, for_version: version, text }] });
    t.is(r.status, 200, r.text);
  };
  await grant(`package::/sandbox/${alice} { if (auth_server@platform->name == "${mallory}") { permit read } }`, 0);
  const fqn = `job::/sandbox/${mallory}::${unique('borrow')}`;
  const refused = await m.post<ApiErrorBody>('/v1/jobs', appJob(fqn, { packages: [{ uuid: pkg.uuid }] }));
  t.is(refused.status, 403, refused.text);
  t.deepEqual(refused.body.missing_claims, [`permit use on ${pkg.fqn}`]);
  await grant(`package::/sandbox/${alice} { if (auth_server@platform->name == "${mallory}") { permit read, use } }`, 1);
  const allowed = await m.post<Job>('/v1/jobs', appJob(fqn, { packages: [{ uuid: pkg.uuid }] }));
  t.is(allowed.status, 200, allowed.text);
  // Taking the grant away again: the job's next change must pass the check again.
  await grant('', 2);
  const put = await m.put<ApiErrorBody>(`/v1/jobs/${allowed.body.uuid}`, appJob(fqn, { packages: [{ uuid: pkg.uuid }], num_instances: 2 }));
  t.is(put.status, 400, put.text);
});

test("references: a pipeline may name only stager jobs the caller may start; alice's job stays hers to delete", async (t) => {
  const { mallory, m, a, job } = await world();
  const fqn = `stagpipe::/sandbox/${mallory}::${unique('pipe')}`;
  const theirs = await m.post<ApiErrorBody>('/v1/stagingpipelines', { fqn, stagers: [{ uuid: job.uuid }] });
  const nowhere = randomUUID();
  const missing = await m.post<ApiErrorBody>('/v1/stagingpipelines', { fqn, stagers: [{ uuid: nowhere }] });
  t.is(theirs.status, 400, theirs.text);
  t.deepEqual(shape(theirs, job.uuid), shape(missing, nowhere));
  t.regex(theirs.body.message, /^stagers: no job with uuid/);
  t.false(theirs.text.includes(job.fqn));
  const recorded = await denials(job.fqn);
  t.true(recorded.some((i) => JSON.stringify(i).includes('"start"')), JSON.stringify(recorded));

  // Her own pipeline cannot take alice's job in by a PUT either.
  const own = await m.post<StagingPipeline>('/v1/stagingpipelines', { fqn, stagers: [] });
  t.is(own.status, 200, own.text);
  const put = await m.put<ApiErrorBody>(`/v1/stagingpipelines/${own.body.uuid}`, { fqn, stagers: [{ uuid: job.uuid }] });
  t.is(put.status, 400, put.text);
  t.deepEqual((await m.get<StagingPipeline>(`/v1/stagingpipelines/${own.body.uuid}`)).body.stagers, []);
  // Alice's job is in no pipeline of mallory's: she can delete it (she has her own pipeline to change first).
  const pipes = (await a.get<StagingPipeline[]>('/v1/stagingpipelines')).body.filter((p) => p.stagers.some((s) => s.uuid === job.uuid));
  for (const p of pipes) t.is((await a.delete(`/v1/stagingpipelines/${p.uuid}`)).status, 200);
  const del = await a.delete(`/v1/jobs/${job.uuid}`);
  t.is(del.status, 200, del.text);
});

test("references: a package may name only a staging pipeline the caller may use, by uuid or by FQN", async (t) => {
  const { mallory, m, pipe } = await world();
  const data = archive();
  const body = (extra: Record<string, unknown>) => ({
    fqn: `package::/sandbox/${mallory}::${unique('p')}`,
    resources: [{ length: data.length, digest: digestOf(data) }],
    ...extra,
  });
  const nowhere = randomUUID();
  const byUuid = await m.post<ApiErrorBody>('/v1/packages', body({ staging_pipeline: { uuid: pipe.uuid } }));
  const byUuidMissing = await m.post<ApiErrorBody>('/v1/packages', body({ staging_pipeline: { uuid: nowhere } }));
  t.is(byUuid.status, 400, byUuid.text);
  t.deepEqual(shape(byUuid, pipe.uuid), shape(byUuidMissing, nowhere));
  t.regex(byUuid.body.message, /^staging_pipeline: no staging pipeline with uuid/);

  const otherFqn = pipe.fqn.replace(/::[^:]+$/, `::${unique('none')}`);
  const byFqn = await m.post<ApiErrorBody>('/v1/packages', body({ staging_pipeline_fqn: pipe.fqn }));
  const byFqnMissing = await m.post<ApiErrorBody>('/v1/packages', body({ staging_pipeline_fqn: otherFqn }));
  t.is(byFqn.status, 400, byFqn.text);
  t.deepEqual(shape(byFqn, pipe.fqn), shape(byFqnMissing, otherFqn));

  // Her own uuid with alice's FQN: refused like a missing one, not "they differ" (which would confirm alice's).
  const own = (await m.post<StagingPipeline>('/v1/stagingpipelines', { fqn: `stagpipe::/sandbox/${mallory}::${unique('pipe')}`, stagers: [] })).body;
  const mixed = await m.post<ApiErrorBody>('/v1/packages', body({ staging_pipeline: { uuid: own.uuid }, staging_pipeline_fqn: pipe.fqn }));
  const mixedMissing = await m.post<ApiErrorBody>('/v1/packages', body({ staging_pipeline: { uuid: own.uuid }, staging_pipeline_fqn: otherFqn }));
  t.is(mixed.status, 400);
  t.deepEqual(shape(mixed, pipe.fqn), shape(mixedMissing, otherFqn));
  // And her own pipeline is accepted.
  const ok = await m.post<Package>('/v1/packages', body({ staging_pipeline: { uuid: own.uuid } }));
  t.is(ok.status, 200, ok.text);
  t.is(ok.body.staging_pipeline_fqn, own.fqn);
  t.is((await m.get<Package[]>(`/v1/packages?fqn=${encodeURIComponent(`package::/sandbox/${mallory}`)}&matchPartialFQN=true`)).body.length, 1);
});

test('references: the administrator may refer to anything; the platform namespace is usable by all', async (t) => {
  const { alice, a, pkg, job } = await world();
  // The built-in pipelines (stagpipe::/platform) are everyone's to use, by uuid and by FQN.
  const builtin = (await a.get<StagingPipeline[]>('/v1/stagingpipelines')).body.find((p) => p.fqn.startsWith('stagpipe::/platform::'));
  if (builtin) {
    const data = archive();
    const staged = await a.post<Package>('/v1/packages', {
      fqn: `package::/sandbox/${alice}::${unique('p')}`,
      resources: [{ length: data.length, digest: digestOf(data) }],
      staging_pipeline: { uuid: builtin.uuid },
      staging_pipeline_fqn: builtin.fqn,
    });
    t.is(staged.status, 200, staged.text);
  } else t.log('no built-in pipelines on this host: the platform namespace case is skipped');
  const admin: ApiClient = suite.api();
  const j = await admin.post<Job>('/v1/jobs', appJob(`job::/sandbox/${alice}::${unique('adm')}`, { packages: [{ uuid: pkg.uuid }] }));
  t.is(j.status, 200, j.text);
  const p = await admin.post<StagingPipeline>('/v1/stagingpipelines', { fqn: `stagpipe::/ops::${unique('pipe')}`, stagers: [{ uuid: job.uuid }] });
  t.is(p.status, 200, p.text);
});

test("references: a job's dependencies resolve only among packages its principal may use (no package planted by another user)", async (t) => {
  const { alice, mallory, a, m } = await world();
  const runtime = unique('rt');
  // Mallory provides the runtime alice's package needs, at a version that would win any tie.
  const data = archive();
  const planted = await m.post<Package>('/v1/packages', {
    fqn: `package::/sandbox/${mallory}::${unique('planted')}`,
    resources: [{ length: data.length, digest: digestOf(data) }],
    provides: [{ type: 'runtime', name: runtime }, { type: 'runtime', name: `${runtime}-99` }],
  });
  t.is(planted.status, 200, planted.text);
  const uploaded = await m.fetch(`/v1/packages/resources/${planted.body.uuid}`, { method: 'PUT', body: data, headers: { 'content-type': 'application/octet-stream' } });
  t.is(uploaded.status, 200);
  const app = archive();
  const needs = await a.post<Package>('/v1/packages', {
    fqn: `package::/sandbox/${alice}::${unique('app')}`,
    resources: [{ length: app.length, digest: digestOf(app) }],
    dependencies: [{ type: 'runtime', name: runtime }],
  });
  t.is(needs.status, 200, needs.text);
  t.is((await a.fetch(`/v1/packages/resources/${needs.body.uuid}`, { method: 'PUT', body: app, headers: { 'content-type': 'application/octet-stream' } })).status, 200);
  const job = await a.post<Job>('/v1/jobs', appJob(`job::/sandbox/${alice}::${unique('j')}`, { packages: [{ uuid: needs.body.uuid }] }));
  t.is(job.status, 200, job.text);
  const shown = (await a.get<Job>(`/v1/jobs/${job.body.uuid}`)).body;
  t.false(shown.packages.some((p) => p.uuid === planted.body.uuid), JSON.stringify(shown.packages));
  // What alice may use does satisfy it: the same runtime from a namespace she is given `use` on.
  const doc = unique('share');
  t.is((await suite.api().put('/v1/policy', { docs: [{ name: doc, for_version: 0, text: `package::/sandbox/${mallory} { if (auth_server@platform->name == "${alice}") { permit read, use } }` }] })).status, 200);
  const now = (await a.get<Job>(`/v1/jobs/${job.body.uuid}`)).body;
  t.true(now.packages.some((p) => p.uuid === planted.body.uuid && p.source === 'system'), JSON.stringify(now.packages));
});
