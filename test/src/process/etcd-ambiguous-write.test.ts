/**
 * A write whose answer is lost: a real controller on a real etcd, reaching etcd through a relay
 * on loopback that lets the controller's requests through but loses etcd's answers for a while
 * (as a network that drops one direction). etcd writes the change; the controller does not hear
 * it. Whatever the controller then answers, its memory must agree with etcd: GET answers what
 * etcd holds (not a job's version from before), the same POST meets the job it made, and a
 * started job that etcd holds runs (the scheduler takes it up).
 *
 * - Answers lost longer than the controller may seek the outcome (PLATFORM_ETCD_RESOLVE_MS):
 *   the client is answered 503 with retry; the controller stands down and leads again from
 *   etcd, and then serves what etcd holds.
 * - Answers lost for less: the outcome is learnt once etcd answers again (the write's receipt):
 *   the client is answered 200, and the controller keeps the lead. */
import { get as httpGet } from 'node:http';
import test, { type ExecutionContext } from 'ava';
import type { Job } from '@platform/controller';
import type { ControllerProcess } from '../harness/controller-process.js';
import { etcdController, testDir, testEtcd } from '../harness/etcd-cluster.js';
import { commandJob, tarGz, uploadPackage } from '../harness/apps.js';
import { unique } from '../harness/fixtures.js';
import type { ApiClient } from '../harness/http.js';
import { TcpRelay } from '../harness/net.js';
import { eventually } from '../harness/wait.js';

/** Bound of one call to etcd: the write's answer is missed after it. */
const TIMEOUT_MS = 2_000;
/**
 * The lease: long enough that losing answers for the test's seconds does not lose it (the
 * client gives a lease up after twice its TTL without answers): the controller keeps the lead
 * unless it stands down itself.
 */
const LEASE_TTL_SECONDS = 15;

interface Setup {
  relay: TcpRelay;
  controller: ControllerProcess;
  admin: ApiClient;
  /** Reads etcd directly, not through the relay. */
  etcdJob: (fqn: string) => Promise<Job | undefined>;
  /** A package for the jobs (a job without one cannot be started). */
  pkg: string;
}

async function setup(t: ExecutionContext, resolveMs: number): Promise<Setup | undefined> {
  t.timeout(4 * 60_000);
  const etcd = await testEtcd(t, 1);
  if (!etcd) return undefined;
  const relay = await TcpRelay.start(etcd.endpoint);
  t.teardown(() => relay.close());
  const controller = await etcdController(t, etcd, {
    blobDir: await testDir(t),
    until: 'ready',
    env: {
      PLATFORM_STORE: `etcd://${relay.address}`,
      PLATFORM_ETCD_TIMEOUT_MS: String(TIMEOUT_MS),
      PLATFORM_ETCD_RESOLVE_MS: String(resolveMs),
      PLATFORM_ETCD_LEASE_TTL: String(LEASE_TTL_SECONDS),
    },
  });
  const etcdJob = async (fqn: string) => {
    const uuid = await etcd.get(`/platform/idx/job-fqn/${fqn}`);
    if (uuid === undefined) return undefined;
    const job = await etcd.get(`/platform/job/${uuid}`);
    return job === undefined ? undefined : (JSON.parse(job) as Job);
  };
  const admin = await controller.admin();
  const pkg = await uploadPackage(admin, '/ambiguous', tarGz({ 'app/readme.txt': 'the app\n' }));
  return { relay, controller, admin, etcdJob, pkg: pkg.uuid };
}

/**
 * The job `fqn` (stopped) of the setup's package; its start command holds `marker`, which only
 * the write of its record carries to etcd (the reads before it name the job by its FQN).
 */
const jobBody = (s: Setup, fqn: string, marker: string, state: 'started' | 'stopped') => commandJob(fqn, s.pkg, `exec sleep 1000 # ${marker}`, { state });

function logged(proc: ControllerProcess, msg: string | RegExp, after: number): boolean {
  return proc.lines.slice(after).some((l) => (typeof msg === 'string' ? l['msg'] === msg : msg.test(String(l['msg']))));
}

/** Eventually GET answers job `uuid` as etcd holds it (its version and instances), within less than an idle actor's life. */
async function servesWhatEtcdHolds(t: ExecutionContext, s: Setup, fqn: string): Promise<Job> {
  const held = await s.etcdJob(fqn);
  if (!held) throw new Error(`etcd does not hold ${fqn}`);
  const served = await eventually(
    async () => {
      const r = await s.admin.get<Job>(`/v1/jobs/${held.uuid}`);
      return r.status === 200 && r.body.version_id === held.version_id && r.body;
    },
    { timeoutMs: 30_000, what: `the controller serving job ${held.uuid} as etcd holds it (version ${held.version_id})` },
  ).catch(async (err: unknown) => {
    const r = await s.admin.get<Job>(`/v1/jobs/${held.uuid}`);
    t.log(`GET answers ${r.status}, version ${r.body.version_id}, ${r.body.num_instances} instances; etcd holds version ${held.version_id}, ${held.num_instances} instances: ${r.text.slice(0, 200)}`);
    throw err;
  });
  t.is(served.num_instances, held.num_instances);
  return served;
}

/** The same POST again meets the job: 409, as GET says it exists. */
async function postedAgain(t: ExecutionContext, s: Setup, fqn: string, marker: string): Promise<void> {
  const again = await s.admin.post<{ duplicate_key: boolean }>('/v1/jobs', jobBody(s, fqn, marker, 'started'));
  t.is(again.status, 409);
  t.true(again.body.duplicate_key);
}

/** The started job `uuid` runs: the scheduler seeks an instance manager for it (the test has no agent). */
function runs(s: Setup, uuid: string, after: number): Promise<unknown> {
  return eventually(() => s.controller.lines.slice(after).some((l) => l['msg'] === 'instances wait for an instance manager' && l['job'] === uuid), {
    timeoutMs: 30_000,
    what: `the scheduler placing job ${uuid}`,
  });
}

/**
 * Asks `url` over a new connection every 25 ms until stopped: what each try met (a status, or
 * the connection's error code), to show the API address never refused a connection.
 */
function probe(url: string, headers: Record<string, string>) {
  const seen = new Map<string, number>();
  let stop = false;
  const count = (what: string) => seen.set(what, (seen.get(what) ?? 0) + 1);
  const running = (async () => {
    while (!stop) {
      await new Promise<void>((resolve) => {
        const req = httpGet(url, { agent: false, headers, timeout: 5_000 }, (res) => {
          count(String(res.statusCode));
          res.resume();
          res.on('end', resolve);
          res.on('error', resolve);
        });
        req.on('timeout', () => req.destroy(new Error('timeout')));
        req.on('error', (err: NodeJS.ErrnoException) => {
          count(err.code ?? err.message);
          resolve();
        });
      });
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  })();
  return {
    seen,
    stop: async () => {
      stop = true;
      await running;
      return Object.fromEntries(seen);
    },
  };
}

test('etcd: a change whose answers are lost past the bound: 503 with retry, the controller stands down and leads again from etcd, and then serves the change etcd holds', async (t) => {
  const s = await setup(t, 2_000);
  if (!s) return;
  const { relay, controller, admin } = s;
  const fqn = `job::/ambiguous::${unique('changed')}`;
  const made = await admin.post<Job>('/v1/jobs', jobBody(s, fqn, 'first', 'stopped'));
  t.is(made.status, 200);
  const after = controller.lines.length;
  // The API address answers all along: before, during and after the stand-down.
  const probing = probe(`${controller.url}/v1/jobs/${made.body.uuid}`, admin.defaultHeaders);
  t.teardown(() => probing.stop());
  const marker = unique('change-of');
  relay.dropAnswersAfter(marker);
  let answer;
  try {
    answer = await admin.patch<{ try_again_in_ms?: number; message: string }>(`/v1/jobs/${made.body.uuid}`, { num_instances: 3, processes: { app: { start_command: `exec sleep 1000 # ${marker}` } } });
  } finally {
    relay.heal();
  }
  t.log(`answered ${answer.status} (${answer.body.message}); ${relay.dropped} bytes of etcd's answers lost`);
  t.is(answer.status, 503);
  t.is(answer.body.try_again_in_ms, 1000);
  t.truthy(answer.headers.get('retry-after'));
  // etcd wrote it all the same: the request reached it, only its answer was lost.
  t.is((await s.etcdJob(fqn))?.num_instances, 3, 'etcd holds the change');
  await servesWhatEtcdHolds(t, s, fqn);
  t.true(logged(controller, /stands down: its memory may disagree with etcd/, after), 'the controller stood down');
  t.true(logged(controller, 'controller ready', after), 'and leads again');
  const seen = await probing.stop();
  t.log(`the API address while the controller stood down and led again: ${JSON.stringify(seen)}`);
  t.is(seen['ECONNREFUSED'], undefined, 'no connection refused');
  t.true((seen['503'] ?? 0) > 0, 'answered 503 (retry) while it did not lead');
  // It writes on from what etcd holds.
  const next = await admin.patch<Job>(`/v1/jobs/${made.body.uuid}`, { num_instances: 4 });
  t.is(next.status, 200);
  t.is((await s.etcdJob(fqn))?.num_instances, 4);
});

test('etcd: a started job whose creation\'s answers are lost past the bound: 503 with retry; once the controller leads again from etcd the job runs, GET serves it, the same POST meets it', async (t) => {
  const s = await setup(t, 2_000);
  if (!s) return;
  const { relay, controller, admin } = s;
  const after = controller.lines.length;
  const fqn = `job::/ambiguous::${unique('lost')}`;
  const marker = unique('write-of');
  relay.dropAnswersAfter(marker);
  let answer;
  try {
    answer = await admin.post<{ try_again_in_ms?: number; message: string }>('/v1/jobs', jobBody(s, fqn, marker, 'started'));
  } finally {
    relay.heal();
  }
  t.log(`answered ${answer.status} (${answer.body.message}); ${relay.dropped} bytes of etcd's answers lost`);
  t.is(answer.status, 503);
  t.is(answer.body.try_again_in_ms, 1000);
  const held = await s.etcdJob(fqn);
  if (!held) return t.fail('etcd holds the job: the request reached it, only its answer was lost');
  await runs(s, held.uuid, after);
  await servesWhatEtcdHolds(t, s, fqn);
  await postedAgain(t, s, fqn, marker);
  t.true(logged(controller, /stands down: its memory may disagree with etcd/, after), 'the controller stood down');
  t.is(controller.child.exitCode, null);
});

test('etcd: a write whose answers are lost for less than the bound: its outcome is learnt from its receipt, the client is answered 200, the job runs, the controller keeps the lead', async (t) => {
  const s = await setup(t, 30_000);
  if (!s) return;
  const { relay, controller, admin } = s;
  const after = controller.lines.length;
  const fqn = `job::/ambiguous::${unique('late')}`;
  const marker = unique('write-of');
  relay.dropAnswersAfter(marker);
  const answer = admin.post<Job>('/v1/jobs', jobBody(s, fqn, marker, 'started'));
  try {
    // The write's own call has given up: its outcome is sought. Then etcd answers again.
    await eventually(() => logged(controller, 'etcd did not answer a write: its outcome is sought by its receipt', after), { timeoutMs: 30_000, what: 'the outcome sought' });
  } finally {
    relay.heal();
  }
  const r = await answer;
  t.is(r.status, 200);
  t.is((await s.etcdJob(fqn))?.uuid, r.body.uuid);
  await runs(s, r.body.uuid, after);
  await servesWhatEtcdHolds(t, s, fqn);
  await postedAgain(t, s, fqn, marker);
  t.false(logged(controller, /stands down/, after), 'no stand-down');
  t.false(logged(controller, 'controller ready', after), 'the lead kept');
  t.false(logged(controller, /lost the lead/, after));
});
