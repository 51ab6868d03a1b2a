/**
 * The disk resource and hostile archives, through a real controller and a real agent:
 * a compression bomb stops at the job's disk resource, an archive whose symlinks chain out of
 * the instance root is refused, an instance that writes past its disk resource is stopped; each
 * with the reason in the instance and in the job's health, and nothing left on the agent's disk.
 */
import test, { type ExecutionContext } from 'ava';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Job } from '@platform/controller';
import { commandJob, tarGz, uploadPackage } from '../harness/apps.js';
import { instancesOf, jobInState, startCluster, type ApiInstance, type TestCluster } from '../harness/cluster.js';
import { unique } from '../harness/fixtures.js';
import type { ApiClient } from '../harness/http.js';
import { eventually } from '../harness/wait.js';

const MiB = 1024 * 1024;

/** A gzip tar made by the system's tar from a tree that `build` lays out, members in the order given. */
function tarOf(build: (dir: string) => void, members: string[]): Buffer {
  const dir = mkdtempSync(join(tmpdir(), 'platform-disk-'));
  try {
    build(dir);
    return execFileSync('tar', ['-C', dir, '--no-recursion', '-czf', '-', ...members], { maxBuffer: 64 * MiB });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

interface Health {
  uuid: string;
  message?: string;
}

/** A job that fails twice ends `errored`; its health then carries the instances' reason. */
const FAIL_FAST = { restart: { restart_mode: 'failure', maximum_attempts: 1 }, state: 'started' };

async function failedInstance(api: ApiClient, job: string): Promise<ApiInstance> {
  return eventually(async () => (await instancesOf(api, job)).find((i) => i.state === 'REMOVED' && i.failed), {
    timeoutMs: 60_000,
    what: `a failed instance of ${job}`,
  });
}

async function healthMessage(api: ApiClient, job: string): Promise<string> {
  await jobInState(api, job, 'errored');
  const [health] = (await api.get<Health[]>(`/jobs/health?ids=${job}`)).body;
  return health?.message ?? '';
}

/** The agent keeps nothing of a failed instance: its instances directory ends empty. */
async function nothingLeft(t: ExecutionContext, cluster: TestCluster): Promise<void> {
  const dir = join(cluster.agents[0]!.dataDir, 'instances');
  await eventually(() => readdirSync(dir).length === 0, { timeoutMs: 10_000, what: `${dir} empty` });
  t.deepEqual(readdirSync(dir), []);
}

test('disk: a compression bomb stops at the job disk resource; the reason reaches the instance and the job health', async (t) => {
  const cluster = await startCluster(t, [{}]);
  const { api } = cluster;
  const ns = `/disk/${unique()}`;
  // 8 sparse files of 16 MiB: 128 MiB of zeros in a gzip tar of about 130 KB (about 1000:1).
  const names = Array.from({ length: 8 }, (_, i) => `app/zero${i}`);
  const bomb = tarOf((dir) => {
    mkdirSync(join(dir, 'app'));
    for (const n of names) {
      writeFileSync(join(dir, n), '');
      truncateSync(join(dir, n), 16 * MiB); // sparse: nothing written here
    }
  }, ['app', ...names]);
  t.true(bomb.length < 1 * MiB, `${bomb.length} bytes`);
  t.log(`bomb: ${bomb.length} bytes compressed, ${names.length * 16} MiB extracted`);
  const pkg = await uploadPackage(api, ns, bomb);
  const job = (await api.post<Job>('/jobs', commandJob(`job::${ns}::bomb`, pkg.uuid, 'sleep 60', { ...FAIL_FAST, resources: { disk: 32 * MiB } }))).body;

  const failed = await failedInstance(api, job.uuid);
  t.regex(failed.reason ?? '', /^package package::.*: file \/app\/zero\d \(16 MiB\) would exceed the job's disk resource of 32 MiB \([\d.]+ MiB extracted before it\); extraction stopped$/);
  t.log(`instance reason: ${failed.reason}`);
  t.regex(await healthMessage(api, job.uuid), /instances failed 2 times in a row \(maximum_attempts 1\): package .* would exceed the job's disk resource of 32 MiB/);
  await nothingLeft(t, cluster);
});

test('disk: an archive whose symlinks chain out of the root is refused with the reason, nothing extracted stays', async (t) => {
  const cluster = await startCluster(t, [{}]);
  const { api } = cluster;
  const ns = `/links/${unique()}`;
  // The archive: each link alone looks inside; resolved one through the other, `l` is
  // four levels above the instance root.
  const chain = tarOf((dir) => {
    mkdirSync(join(dir, 'app/a/b'), { recursive: true });
    writeFileSync(join(dir, 'app/ok.txt'), 'fine');
    symlinkSync('../../..', join(dir, 'app/a/b/s'));
    symlinkSync('a/b/s/../../../..', join(dir, 'app/l'));
  }, ['app', 'app/ok.txt', 'app/a', 'app/a/b', 'app/a/b/s', 'app/l']);
  const pkg = await uploadPackage(api, ns, chain);
  const job = (await api.post<Job>('/jobs', commandJob(`job::${ns}::chain`, pkg.uuid, 'sleep 60', FAIL_FAST))).body;

  const failed = await failedInstance(api, job.uuid);
  t.regex(failed.reason ?? '', /symlink \/app\/l -> a\/b\/s\/\.\.\/\.\.\/\.\.\/\.\. points outside the root \(resolved through \/app\/a\/b\/s -> \.\.\/\.\.\/\.\.\)/);
  t.regex(await healthMessage(api, job.uuid), /points outside the root/);
  await nothingLeft(t, cluster);
});

test('disk: an instance that writes past its disk resource is stopped with the reason in the job health', async (t) => {
  const cluster = await startCluster(t, [{ env: { PLATFORM_AGENT_DISK_CHECK_MS: '200' } }]);
  const { api } = cluster;
  const ns = `/fill/${unique()}`;
  const pkg = await uploadPackage(api, ns, tarGz({ 'app/README': 'writes until stopped' }));
  // 1 MiB a step into its own root, forever.
  const fill = 'cd /app; i=0; while :; do head -c 1048576 /dev/zero > f$i; i=$((i+1)); sleep 0.02; done';
  const job = (await api.post<Job>('/jobs', commandJob(`job::${ns}::fill`, pkg.uuid, fill, { ...FAIL_FAST, resources: { disk: 16 * MiB } }))).body;

  const failed = await failedInstance(api, job.uuid);
  t.regex(failed.reason ?? '', /^used more than the job's disk resource of 16 MiB \(at least [\d.]+ MiB measured in the instance root\); stopped$/);
  t.log(`instance reason: ${failed.reason}`);
  t.regex(await healthMessage(api, job.uuid), /instances failed 2 times in a row .*: used more than the job's disk resource of 16 MiB/);
  await nothingLeft(t, cluster);
});
