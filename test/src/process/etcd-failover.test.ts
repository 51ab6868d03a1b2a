/**
 * Real controllers sharing one real etcd cluster of three members (with etcd's authentication on;
 * each controller given all three members): one active, the others
 * standing by. A standby answers the API by sending each request on to the active controller
 * (X-Request-Id and errors unchanged), and sends agents on to it. Killed with -9 during a stream
 * of writes while a job's instances run, the active one's place is taken within its lease: every
 * write it acknowledged is there, writes are acknowledged again within the bound, the agent
 * re-attaches its instances without restarting them, and its tokens stay valid. Stopped with
 * SIGSTOP past its lease and resumed, the old active one writes nothing more (its writes are
 * fenced by its election key) and stands by; nothing made meanwhile is overwritten. The
 * controllers share a blob directory, as they would a mount: an archive uploaded to the first
 * downloads from the second. An etcd member killed during a stream of writes (etcd's own leader)
 * costs no acknowledged write, and writes are acknowledged again within the bound.
 */
import test, { type ExecutionContext } from 'ava';
import type { Job, Package } from '@platform/controller';
import type { EtcdTestServer } from '@platform/controller/testing';
import { AgentProcess, type InstanceManager } from '../harness/agent-process.js';
import { commandJob, tarGz, uploadPackage } from '../harness/apps.js';
import { runningInstances, testIsolation } from '../harness/cluster.js';
import type { ControllerProcess } from '../harness/controller-process.js';
import { etcdController, testDir, testEtcd } from '../harness/etcd-cluster.js';
import { RouterProcess } from '../harness/router-process.js';
import { archive, digestOf, unique } from '../harness/fixtures.js';
import { rawPut } from '../harness/upload.js';
import { ApiClient } from '../harness/http.js';
import { eventually } from '../harness/wait.js';

/**
 * The lease of the active controller: short, so that a takeover is quick here
 * (PLATFORM_TEST_LEASE_TTL=5 measures the default's takeover).
 */
const LEASE_TTL_SECONDS = Number(process.env['PLATFORM_TEST_LEASE_TTL'] || 2);
/** The brief's bound for a takeover with default timings (a 5 s lease): writes acknowledged again within it. */
const TAKEOVER_BOUND_MS = 10_000;

interface Setup {
  etcd: EtcdTestServer;
  blobDir: string;
}

/** etcd of three members, and the blob directory the test's controllers share (a shared mount in production). */
async function setup(t: ExecutionContext): Promise<Setup | undefined> {
  const etcd = await testEtcd(t, 3);
  return etcd ? { etcd, blobDir: await testDir(t) } : undefined;
}

/** A controller on the test's etcd, disposed of (killed, its directory removed) when the test ends however it ends. */
async function controller(t: ExecutionContext, s: Setup, until: 'ready' | 'standby', dataDir?: string): Promise<ControllerProcess> {
  const proc = await etcdController(t, s.etcd, {
    blobDir: s.blobDir,
    until,
    ...(dataDir ? { dataDir } : {}),
    env: {
      PLATFORM_ETCD_LEASE_TTL: String(LEASE_TTL_SECONDS),
      PLATFORM_HEARTBEAT_INTERVAL_MS: '500',
      // Longer than a takeover and the agent's reconnection: its instances must not move.
      PLATFORM_AGENT_LOST_AFTER_MS: '20000',
    },
  });
  if (dataDir) proc.ownsDataDir = false; // the first process on it removes it
  return proc;
}

/** The test's etcd, an active controller, a standby and an admin client of the first; undefined when etcd is missing (skipped). */
async function pair(t: ExecutionContext): Promise<{ s: Setup; first: ControllerProcess; second: ControllerProcess; admin: ApiClient } | undefined> {
  t.timeout(5 * 60_000);
  const s = await setup(t);
  if (!s) return undefined;
  const first = await controller(t, s, 'ready');
  const second = await controller(t, s, 'standby');
  return { s, first, second, admin: await first.admin() };
}

/**
 * A stream of job creations, write `i` sent to `base(i, killed)`, until stopped; only acknowledged
 * ones count. `killed()` marks the moment a part of the cluster is gone: the first write sent after
 * it and acknowledged measures the stall, and until then the writes are 50 ms apart.
 */
function writeStream(admin: ApiClient, base: (i: number, killed: boolean) => string) {
  const acknowledged: string[] = [];
  let killedAt = 0;
  let firstAckAfterKill = 0;
  let stop = false;
  const writer = (async () => {
    for (let i = 0; !stop; i++) {
      const sentAfterKill = killedAt > 0;
      try {
        const r = await new ApiClient(base(i, sentAfterKill), admin.defaultHeaders).post<Job>('/v1/jobs', jobBody(`w${i}-${unique()}`));
        if (r.status === 200) {
          acknowledged.push(r.body.uuid);
          if (sentAfterKill && !firstAckAfterKill) firstAckAfterKill = Date.now();
        }
      } catch {
        // A connection to a killed process: not acknowledged.
      }
      if (killedAt && !firstAckAfterKill) await new Promise((resolve) => setTimeout(resolve, 50));
    }
  })();
  return {
    acknowledged,
    killed: () => void (killedAt = Date.now()),
    get killedAt() {
      return killedAt;
    },
    get firstAckAfterKill() {
      return firstAckAfterKill;
    },
    stop: async () => {
      stop = true;
      await writer;
    },
  };
}

const jobBody = (name: string) => ({ fqn: `job::/failover::${name}`, processes: { app: { start_command: 'sleep 1000' } } });

/** Waits for a log line of `proc` with `msg` after the first `after` lines. */
function logged(proc: ControllerProcess, msg: string | RegExp, after = 0): Promise<unknown> {
  return eventually(() => proc.lines.slice(after).some((l) => (typeof msg === 'string' ? l['msg'] === msg : msg.test(String(l['msg'])))), { timeoutMs: 60_000, what: `log line ${String(msg)}` });
}

test('etcd: kill -9 of the active controller during writes while instances run: a standby takes over with every acknowledged write, the agent re-attaches, nothing restarts', async (t) => {
  const p = await pair(t);
  if (!p) return;
  const { s, first, second, admin } = p;
  t.false(second.lines.some((l) => l['msg'] === 'controller ready'), 'the second stands by');

  // An agent given both controllers, and a job whose instances run on it.
  const agent = await AgentProcess.start({ grpcAddress: `${second.grpcAddress},${first.grpcAddress}` }, admin, { isolation: testIsolation(t) });
  t.teardown(() => agent.dispose());
  t.true(agent.lines.some((l) => l['msg'] === 'a standby controller sent this agent on to the active one'), 'the standby sent the agent on');
  const ns = `/failover/${unique()}`;
  const pkg = await uploadPackage(admin, ns, tarGz({ 'app/readme.txt': 'the app\n' }));
  const job = (await admin.post<Job>('/jobs', commandJob(`job::${ns}::sleeper`, pkg.uuid, 'exec sleep 600', { num_instances: 2, state: 'started' }))).body;
  const before = await runningInstances(admin, job.uuid, 2, 90_000);
  // A standalone router given only the standby: sent on to the active one, whose table it follows.
  const router = await RouterProcess.start({ grpcAddress: second.grpcAddress });
  t.teardown(async () => void (await router.kill9()));
  await eventually(() => router.linesWith('route table followed').length >= 1, { timeoutMs: 30_000, what: 'the router following the active controller' });
  t.is(router.linesWith('a standby controller sent this router on to the active one').length, 1);
  t.is(router.linesWith('route table followed')[0]!['controller'], first.grpcAddress);

  // A stream of writes to whichever controller answers; only acknowledged ones count.
  const writes = writeStream(admin, (_i, killed) => (killed ? second.url : first.url));
  const { acknowledged } = writes;
  await eventually(() => acknowledged.length >= 20, { timeoutMs: 60_000, what: '20 acknowledged writes' });
  const ackedBeforeKill = acknowledged.length;
  await first.kill9();
  writes.killed(); // it has exited
  const killedAt = writes.killedAt;
  await eventually(() => writes.firstAckAfterKill > 0 && acknowledged.length >= ackedBeforeKill + 5, { timeoutMs: 60_000, what: 'writes acknowledged again' });
  await writes.stop();
  const takeoverMs = writes.firstAckAfterKill - killedAt;
  t.log(`writes acknowledged again ${takeoverMs} ms after the kill (lease ${LEASE_TTL_SECONDS} s); ${ackedBeforeKill} before it, ${acknowledged.length} in all`);
  t.true(takeoverMs < TAKEOVER_BOUND_MS, `takeover took ${takeoverMs} ms`);
  t.true(second.lines.some((l) => l['msg'] === 'controller ready'), 'the standby leads');

  // Every acknowledged write is there; the token issued by the old active one is valid.
  const api = new ApiClient(second.url, admin.defaultHeaders);
  for (const uuid of acknowledged) t.is((await api.get<Job>(`/v1/jobs/${uuid}`)).status, 200, `acknowledged job ${uuid}`);
  // The agent re-attached its instances: the same ones, running, none started again.
  await eventually(async () => (await api.get<InstanceManager[]>('/instance_managers')).body.find((m) => m.uuid === agent.uuid && m.status === 'connected'), { timeoutMs: 60_000, what: 'the agent connected to the new active controller' });
  const after = await runningInstances(api, job.uuid, 2, 60_000);
  t.deepEqual(after.map((i) => i.uuid).sort(), before.map((i) => i.uuid).sort(), 'the same instances, not replaced');
  t.is(agent.lines.filter((l) => l['msg'] === 'instance starting').length, 2, 'the agent started the two instances once');
  t.false(agent.lines.some((l) => l['msg'] === 'instance stopping'), 'and stopped none');
  // The router follows the new active one: back to the address it was given, now the active one's.
  await eventually(() => router.linesWith('route table followed').some((l) => l['controller'] === second.grpcAddress), { timeoutMs: 60_000, what: 'the router following the new active controller' });
  // The archive uploaded to the old active one downloads from the new one (the shared blob directory).
  const download = await api.fetch(`/v1/packages/resources/${pkg.uuid}`);
  t.is(download.status, 200);
  t.is(digestOf(Buffer.from(await download.arrayBuffer())), pkg.resources[0]!.digest);

  // The killed controller, started again on its data directory, stands by, and answers by sending requests on.
  const again = await controller(t, s, 'standby', first.dataDir);
  t.false(again.lines.some((l) => l['msg'] === 'controller ready'));
  const through = new ApiClient(again.url, admin.defaultHeaders);
  t.is((await through.get<Job>(`/v1/jobs/${job.uuid}`)).body.uuid, job.uuid);
  // Its front answers as soon as it listens; its candidacy joins the election's list a moment later.
  type Cluster = { controllers: { id: string; api: string; active: boolean; since?: string }[] };
  const cluster = await eventually(
    async () => {
      const c = (await through.get<Cluster>('/v1/cluster/admin')).body;
      return c.controllers.length === 2 && c;
    },
    { timeoutMs: 30_000, what: 'both controllers listed' },
  );
  const active = cluster.controllers.filter((c) => c.active);
  t.is(active.length, 1);
  t.is(active[0]!.api, second.url);
  t.true(Date.parse(active[0]!.since ?? '') >= killedAt - 1_000, 'active since the takeover');
});

test('etcd: the active controller paused past its lease is fenced: a standby takes over, the resumed one writes nothing and stands by, nothing made meanwhile is overwritten', async (t) => {
  const p = await pair(t);
  if (!p) return;
  const { first, second, admin } = p;
  const before = await admin.post<Job>('/v1/jobs', jobBody(`before-${unique()}`));
  t.is(before.status, 200);

  // Through the standby: the request and its error come back as the active controller made them.
  const standby = new ApiClient(second.url, admin.defaultHeaders);
  const missing = await standby.get<{ request_id: string; resource_missing: boolean }>('/v1/jobs/00000000-0000-4000-8000-000000000000', { headers: { 'x-request-id': 'through-the-standby' } });
  t.is(missing.status, 404);
  t.is(missing.headers.get('x-request-id'), 'through-the-standby');
  t.is(missing.body.request_id, 'through-the-standby');
  t.true(missing.body.resource_missing);
  const viaStandby = await standby.post<Job>('/v1/jobs', jobBody(`via-standby-${unique()}`));
  t.is(viaStandby.status, 200);
  t.is((await admin.get<Job>(`/v1/jobs/${viaStandby.body.uuid}`)).status, 200);

  // A package whose staging is under way (no stager runs here: it waits in staging).
  const stager = await admin.post<Job>('/v1/jobs', { fqn: `job::/platform/stagers::${unique('s')}` });
  const pipeline = await admin.post<{ uuid: string }>('/v1/stagingpipelines', { fqn: `stagpipe::/failover::${unique()}`, stagers: [{ uuid: stager.body.uuid }] });
  const data = archive(10_000);
  const staged = (await admin.post<Package>('/v1/packages', { fqn: `package::/failover::${unique('p')}`, resource: { length: data.length, digest: digestOf(data) }, staging_pipeline: { uuid: pipeline.body.uuid } })).body;
  t.is((await rawPut(`${first.url}/v1/packages/resources/${staged.uuid}`, [data], data.length, admin.defaultHeaders)).status, 200);
  t.is((await admin.get<Package>(`/v1/packages/${staged.uuid}`)).body.state, 'staging');

  const lines = first.lines.length;
  first.child.kill('SIGSTOP');
  await logged(second, 'controller ready');
  const api = new ApiClient(second.url, admin.defaultHeaders);
  // Made while the old active one is paused: it must survive its return.
  const changed = await api.patch<Job>(`/v1/jobs/${before.body.uuid}`, { num_instances: 3 });
  t.is(changed.status, 200);
  const during = await api.post<Job>('/v1/jobs', jobBody(`during-${unique()}`));
  t.is(during.status, 200);

  first.child.kill('SIGCONT');
  await logged(first, /lost the lead/, lines);
  await logged(first, 'controller standing by', lines);
  t.is(first.child.exitCode, null, 'it stands by, it does not exit');
  // A write sent to the resumed one now: sent on to the active one (made there), not made by it.
  const sent = await admin.post<Job>('/v1/jobs', jobBody(`sent-on-${unique()}`), { headers: { 'x-request-id': 'to-the-old-active' } });
  t.is(sent.status, 200);
  t.is(sent.headers.get('x-request-id'), 'to-the-old-active');
  t.is((await api.get<Job>(`/v1/jobs/${sent.body.uuid}`)).status, 200);

  t.is((await api.get<Job>(`/v1/jobs/${before.body.uuid}`)).body.num_instances, 3, 'the change made during the pause stays');
  // The staging that ran under the old active controller ended failed, saying why.
  const failed = (await api.get<Package>(`/v1/packages/${staged.uuid}`)).body;
  t.is(failed.state, 'failed');
  t.regex(failed.error_message ?? '', /another took over/);
  t.is((await api.get<Job>(`/v1/jobs/${during.body.uuid}`)).status, 200);
});

test('etcd: every etcd member paused past the lease: the active controller stands by, and once etcd is back a controller leads again with every acknowledged write', async (t) => {
  const p = await pair(t);
  if (!p) return;
  const { s, first, second, admin } = p;
  const made = await admin.post<Job>('/v1/jobs', jobBody(`before-outage-${unique()}`));
  t.is(made.status, 200);
  const lines = [first.lines.length, second.lines.length];
  for (const m of s.etcd.members) process.kill(m.pid, 'SIGSTOP');
  try {
    // The active controller's lease cannot be kept alive: it stops its parts and stands by.
    await logged(first, /lost the lead/, lines[0]);
  } finally {
    for (const m of s.etcd.members) process.kill(m.pid, 'SIGCONT');
  }
  // etcd back: one of the two leads again and serves, through either address.
  await eventually(
    () => first.lines.slice(lines[0]).some((l) => l['msg'] === 'controller ready') || second.lines.slice(lines[1]).some((l) => l['msg'] === 'controller ready'),
    { timeoutMs: 60_000, what: 'a controller leading again' },
  );
  for (const base of [first.url, second.url]) {
    const api = new ApiClient(base, admin.defaultHeaders);
    const seen = await eventually(async () => {
      const r = await api.get<Job>(`/v1/jobs/${made.body.uuid}`);
      return r.status === 200 ? r : undefined;
    }, { timeoutMs: 30_000, what: `the job through ${base}` });
    t.is(seen.body.uuid, made.body.uuid);
  }
  const after = await new ApiClient(second.url, admin.defaultHeaders).post<Job>('/v1/jobs', jobBody(`after-outage-${unique()}`));
  t.is(after.status, 200);
});

test('etcd: the etcd leader killed with -9 during a stream of writes: the controllers carry on with the other two members, every acknowledged write is there', async (t) => {
  const p = await pair(t);
  if (!p) return;
  const { s, first, second, admin } = p;
  const lines = [first.lines.length, second.lines.length];

  // A stream of writes, half sent to each controller (the standby sends its half on).
  const writes = writeStream(admin, (i) => (i % 2 ? second.url : first.url));
  const { acknowledged } = writes;
  try {
    await eventually(() => acknowledged.length >= 20, { timeoutMs: 60_000, what: '20 acknowledged writes' });
    const leader = await s.etcd.leader();
    const ackedBeforeKill = acknowledged.length;
    await leader.kill();
    writes.killed(); // it has exited
    await eventually(() => writes.firstAckAfterKill > 0 && acknowledged.length >= ackedBeforeKill + 20, { timeoutMs: 60_000, what: 'writes acknowledged again' });
    const newLeader = await s.etcd.leader();
    t.not(newLeader.name, leader.name);
    const stallMs = writes.firstAckAfterKill - writes.killedAt;
    t.log(`etcd leader ${leader.name} killed: writes acknowledged again ${stallMs} ms after (${newLeader.name} leads etcd); ${ackedBeforeKill} before, ${acknowledged.length} in all`);
    t.true(stallMs < TAKEOVER_BOUND_MS, `writes stalled ${stallMs} ms`);
  } finally {
    await writes.stop();
  }
  // etcd extends its leases when its leader changes: the active controller kept the lead.
  t.false(first.lines.slice(lines[0]).some((l) => /lost the lead/.test(String(l['msg']))), 'the active controller kept the lead');
  t.false(second.lines.slice(lines[1]).some((l) => l['msg'] === 'controller ready'), 'the standby still stands by');
  for (const base of [first.url, second.url]) {
    const api = new ApiClient(base, admin.defaultHeaders);
    for (const uuid of acknowledged) t.is((await api.get<Job>(`/v1/jobs/${uuid}`)).status, 200, `acknowledged job ${uuid} through ${base}`);
  }
  const cluster = (await new ApiClient(second.url, admin.defaultHeaders).get<{ controllers: { api: string; active: boolean }[] }>('/v1/cluster/admin')).body;
  t.deepEqual(cluster.controllers.filter((c) => c.active).map((c) => c.api), [first.url]);
});
