import test from 'ava';
import type { Job, Package } from '@platform/controller';
import { ControllerProcess } from '../harness/controller-process.js';
import { archive, digestOf, unique } from '../harness/fixtures.js';
import { rawPut } from '../harness/upload.js';
import { eventually } from '../harness/wait.js';

const survivesKill9 = test.macro(async (t, args: string[], env: Record<string, string> = {}) => {
  const first = await ControllerProcess.start({ args, env });
  t.teardown(() => first.dispose());
  const api = await first.admin();
  if (env['PLATFORM_STORE_INLINE_COMMIT_MS'] === '0') {
    t.true((await api.get('/metrics')).text.includes('platform_store_commit_thread{thread="writer"} 1'), 'commits on the writer thread');
  }
  const ns = `/durable/${unique()}`;

  // Acknowledged before the stream starts: a package with its archive.
  const data = archive(50_000);
  const pkg = (await api.post<Package>('/packages', { fqn: `package::${ns}::pkg`, resource: { length: data.length, digest: digestOf(data) } })).body;
  t.is((await rawPut(`${first.url}/packages/resources/${pkg.uuid}`, [data], data.length, api.defaultHeaders)).status, 200);
  const target = (await api.post<Job>('/jobs', { fqn: `job::${ns}::target`, num_instances: 0 })).body;

  const created = new Map<string, string>(); // fqn -> uuid, acknowledged
  let lastAckedVersion = 1;
  let lastAckedInstances = 0;
  let stop = false;
  let n = 0;
  const writer = async (id: number) => {
    while (!stop) {
      n++;
      try {
        if (id % 2 === 0) {
          const fqn = `job::${ns}::w${id}n${n}`;
          const r = await api.post<Job>('/jobs', { fqn, num_instances: 1, tags: { n: String(n) } });
          if (r.status === 200) created.set(fqn, r.body.uuid);
        } else {
          const want = n;
          const r = await api.put<Job>(`/jobs/${target.uuid}`, { fqn: target.fqn, num_instances: want });
          if (r.status === 200 && r.body.version_id > lastAckedVersion) {
            lastAckedVersion = r.body.version_id;
            lastAckedInstances = r.body.num_instances;
          }
        }
      } catch {
        return; // the controller is gone: this write was never acknowledged
      }
    }
  };
  const writers = Array.from({ length: 6 }, (_, i) => writer(i));
  await eventually(() => created.size >= 150 && lastAckedVersion >= 100, { what: 'a stream of acknowledged writes', timeoutMs: 60_000 });
  const exit = await first.kill9();
  stop = true;
  await Promise.all(writers);
  t.is(exit.signal, 'SIGKILL');

  const second = await first.restart();
  t.teardown(() => second.dispose());
  const after = await second.admin();
  const listed = (await after.get<Job[]>(`/jobs?fqn=job::${ns}&matchPartialFQN=true`)).body;
  const byFqn = new Map(listed.map((j) => [j.fqn, j.uuid]));
  let missing = 0;
  for (const [fqn, uuid] of created) if (byFqn.get(fqn) !== uuid) missing++;
  t.is(missing, 0, `${missing} of ${created.size} acknowledged creates were lost`);
  const restored = (await after.get<Job>(`/jobs/${target.uuid}`)).body;
  t.true(restored.version_id >= lastAckedVersion, `version ${restored.version_id} < acknowledged ${lastAckedVersion}`);
  if (restored.version_id === lastAckedVersion) t.is(restored.num_instances, lastAckedInstances);
  const p = (await after.get<Package>(`/packages/${pkg.uuid}`)).body;
  t.is(p.state, 'ready');
  const back = await after.fetch(`/packages/resources/${pkg.uuid}`);
  t.deepEqual(Buffer.from(await back.arrayBuffer()), data);
  // Each acknowledged create has its audit record, and each record its job: one batch holds both.
  const records = (await after.get<{ fqn: string }[]>(`/audit?fqn=job::${ns}&event_type=job.create&limit=1000`)).body;
  const recorded = new Set(records.map((r) => r.fqn));
  for (const fqn of created.keys()) t.true(recorded.has(fqn), `no audit record for ${fqn}`);
  for (const fqn of recorded) if (fqn !== target.fqn) t.true(byFqn.has(fqn), `an audit record without its job: ${fqn}`);
  t.log(`${created.size} creates and ${lastAckedVersion - 1} updates acknowledged before kill -9; none lost`);
});

test('durability: every acknowledged write survives kill -9 of the controller', survivesKill9, []);
test('durability: with every commit on the writer thread, every acknowledged write survives kill -9 of the controller', survivesKill9, [], {
  PLATFORM_STORE_INLINE_COMMIT_MS: '0',
});
// Without fsync, writes go to the log from the main thread (no writer thread): still in the log,
// in the operating system's care, before they are acknowledged.
test('durability: with --no-sync too, every acknowledged write survives kill -9 of the controller', survivesKill9, ['--no-sync']);
