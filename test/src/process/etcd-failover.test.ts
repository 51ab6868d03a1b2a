/**
 * Two real controllers sharing one real etcd (with etcd's authentication on): one leads, the
 * other waits as a candidate. Killed with -9 during a stream of writes, the leader's place is
 * taken within its lease; every write it acknowledged is there, and its tokens stay valid.
 * Stopped with SIGSTOP past its lease and resumed, the old leader writes nothing more (its
 * writes are fenced by its election key) and exits, and nothing made meanwhile is overwritten.
 * The controllers share a blob directory, as they would a mount: an archive uploaded to the
 * first downloads from the second.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test, { type ExecutionContext } from 'ava';
import type { Job } from '@platform/controller';
import { etcdAvailable, startEtcd, type EtcdTestServer } from '@platform/controller/testing';
import { ControllerProcess, type PlatformProcess } from '../harness/controller-process.js';
import { digestOf } from '../harness/fixtures.js';
import { ApiClient } from '../harness/http.js';
import { createPackage } from '../harness/packages.js';
import { eventually } from '../harness/wait.js';

/** The lease of the leading controller: short, so that a takeover is quick here. */
const LEASE_TTL_SECONDS = 2;

/** etcd, and the blob directory the test's controllers share (a shared mount in production). */
async function etcdOrSkip(t: ExecutionContext): Promise<(EtcdTestServer & { blobDir: string }) | undefined> {
  if (!etcdAvailable()) {
    if (process.env['PLATFORM_REQUIRE_SYSTEM_TOOLS'] === '1') throw new Error('etcd is required (PLATFORM_REQUIRE_SYSTEM_TOOLS=1): apt-get install etcd-server');
    t.log('SKIPPED: etcd is not installed (apt-get install etcd-server)');
    t.pass();
    return undefined;
  }
  const etcd = await startEtcd();
  t.teardown(() => etcd.stop());
  const blobDir = await mkdtemp(join(tmpdir(), 'platform-blobs-'));
  t.teardown(() => rm(blobDir, { recursive: true, force: true }));
  return Object.assign(etcd, { blobDir });
}

function controllerEnv(etcd: EtcdTestServer, blobDir: string): Record<string, string> {
  return {
    PLATFORM_BLOB_DIR: blobDir,
    PLATFORM_STORE: `etcd://${etcd.endpoint}`,
    PLATFORM_ETCD_USER: etcd.auth.username,
    PLATFORM_ETCD_PASSWORD: etcd.auth.password,
    PLATFORM_ETCD_LEASE_TTL: String(LEASE_TTL_SECONDS),
    PLATFORM_STAGER_LAUNCHER: 'none',
  };
}

/** Starts a controller; the promise resolves once it leads (a candidate waits). Disposed at the end of the test. */
function candidate(t: ExecutionContext, etcd: EtcdTestServer & { blobDir: string }, dataDir?: string): { ready: Promise<ControllerProcess>; process?: PlatformProcess } {
  const c: { ready: Promise<ControllerProcess>; process?: PlatformProcess } = { ready: Promise.resolve(undefined as never) };
  c.ready = ControllerProcess.start({ env: controllerEnv(etcd, etcd.blobDir), readyTimeoutMs: 90_000, onSpawn: (p) => (c.process = p), ...(dataDir ? { dataDir } : {}) });
  // A candidate that never led is killed too: no controller outlives its test.
  t.teardown(async () => {
    const led = await c.ready.catch(() => undefined);
    if (led) await led.dispose();
    else await c.process?.kill9();
  });
  return c;
}

const jobBody = (name: string) => ({ fqn: `job::/failover::${name}`, processes: { app: { start_command: 'sleep 1000' } } });

test('etcd: kill -9 of the active controller during writes: the candidate leads within the lease, with every acknowledged write and the old tokens', async (t) => {
  t.timeout(4 * 60_000);
  const etcd = await etcdOrSkip(t);
  if (!etcd) return;
  const first = await candidate(t, etcd).ready;
  const second = candidate(t, etcd);
  const admin = await first.admin();
  t.true(first.lines.some((l) => l['msg'] === 'this controller leads'));
  const pkg = await createPackage(admin, '/failover', { upload: true });

  // A stream of writes; the leader dies in the middle of it. Only acknowledged ones count.
  const acknowledged: string[] = [];
  let stop = false;
  const writer = (async () => {
    for (let i = 0; !stop; i++) {
      try {
        const r = await admin.post<Job>('/v1/jobs', jobBody(`w${i}`));
        if (r.status === 200) acknowledged.push(r.body.uuid);
      } catch {
        return; // the connection to the killed leader
      }
    }
  })();
  await eventually(() => acknowledged.length >= 20, { timeoutMs: 60_000, what: '20 acknowledged writes' });
  const killedAt = Date.now();
  await first.kill9();
  stop = true;
  await writer;

  const next = await second.ready;
  const takeoverMs = Date.now() - killedAt;
  t.log(`the candidate led and served ${takeoverMs} ms after the kill (lease ${LEASE_TTL_SECONDS} s); ${acknowledged.length} writes acknowledged before it`);
  t.true(takeoverMs < 30_000);

  // The token the old leader issued is valid at the new one (the signing keys live in etcd).
  const old = new ApiClient(next.url, admin.defaultHeaders);
  for (const uuid of acknowledged) t.is((await old.get<Job>(`/v1/jobs/${uuid}`)).status, 200, `acknowledged job ${uuid}`);
  const after = await old.post<Job>('/v1/jobs', jobBody('after-takeover'));
  t.is(after.status, 200);
  // The archive taken by the old leader downloads from the new one (the shared blob directory).
  const download = await old.fetch(`/v1/packages/resources/${pkg.uuid}`);
  t.is(download.status, 200);
  t.is(digestOf(Buffer.from(await download.arrayBuffer())), pkg.resources[0]!.digest);

  // The killed controller, started again on its data directory, waits as a candidate.
  const again = candidate(t, etcd, first.dataDir);
  let readyAgain = false;
  void again.ready.then(() => (readyAgain = true), () => undefined);
  // It says it waits, and does not lead while the leader lives.
  await eventually(() => again.process?.lines.some((l) => l['msg'] === 'waiting to lead the controllers on etcd'), { timeoutMs: 30_000, what: 'the restarted controller waiting to lead' });
  t.false(readyAgain);
  // It leads once the leader stops (a graceful stop resigns: no wait for the lease).
  await next.stop();
  const third = await again.ready;
  t.is((await new ApiClient(third.url, admin.defaultHeaders).get<Job>(`/v1/jobs/${after.body.uuid}`)).status, 200);
});

test('etcd: an active controller paused past its lease is fenced: the candidate leads, the resumed one writes nothing and exits, nothing made meanwhile is overwritten', async (t) => {
  t.timeout(4 * 60_000);
  const etcd = await etcdOrSkip(t);
  if (!etcd) return;
  const first = await candidate(t, etcd).ready;
  const second = candidate(t, etcd);
  const admin = await first.admin();
  const before = await admin.post<Job>('/v1/jobs', jobBody('before-pause'));
  t.is(before.status, 200);

  first.child.kill('SIGSTOP');
  const next = await second.ready;
  const api = new ApiClient(next.url, admin.defaultHeaders);
  // Made while the old leader is paused: it must survive the old leader's return.
  const changed = await api.patch<Job>(`/v1/jobs/${before.body.uuid}`, { num_instances: 3 });
  t.is(changed.status, 200);
  const during = await api.post<Job>('/v1/jobs', jobBody('during-pause'));
  t.is(during.status, 200);

  first.child.kill('SIGCONT');
  // A write sent to the resumed old leader: refused (503, fenced) or not answered at all (it is stopping).
  const stale = await admin.post<Job>('/v1/jobs', jobBody('stale-write')).catch(() => undefined);
  if (stale) t.not(stale.status, 200, 'the old leader acknowledged a write after losing its lease');
  const exit = await first.exited;
  t.is(exit.code, 1, 'the old leader exits 1 once it sees its lease gone');
  t.true(first.lines.some((l) => /lost the lead/.test(String(l['msg']))));

  t.is((await api.get<Job>(`/v1/jobs/${before.body.uuid}`)).body.num_instances, 3);
  t.is((await api.get<Job>(`/v1/jobs/${during.body.uuid}`)).status, 200);
  const all = (await api.get<Job[]>('/v1/jobs?fqn=job::/failover::*')).body;
  t.false(JSON.stringify(all).includes('stale-write'), 'a write of the fenced leader landed');
});
