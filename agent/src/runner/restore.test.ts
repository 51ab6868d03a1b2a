import test from 'ava';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { readProcStat } from '../isolation/procfs.js';
import { Harness, TEST_UIDS } from '../test-support/harness.js';
import { eventually } from '../test-support/wait.js';
import { normalizeSpec } from './spec.js';
import type { InstanceRecord } from './instance.js';

function deadPid(): number {
  const r = spawnSync('/bin/sh', ['-c', 'echo $$']);
  return Number(r.stdout.toString().trim());
}

function plant(h: Harness, uuid: string, over: Partial<InstanceRecord>, exitCode?: number): string {
  const dir = join(h.dir, 'instances', uuid);
  mkdirSync(join(dir, 'root'), { recursive: true });
  mkdirSync(join(dir, 'logs'), { recursive: true });
  const rec: InstanceRecord = {
    version: 1, spec: normalizeSpec({ instanceUuid: uuid, jobUuid: 'job-1', jobVersionId: 3 }), state: 'RUNNING',
    createdMs: 1, stateTimeMs: 2, cgroups: [], ports: {}, allocatedPorts: [], stopRequested: false,
    exited: false, exitCode: 0, failed: false, reason: '', pid: deadPid(), pidStart: 12345, ...over,
  };
  writeFileSync(join(dir, 'instance.json'), JSON.stringify(rec));
  if (exitCode !== undefined) writeFileSync(join(dir, 'exit-code'), `${exitCode}\n`);
  return dir;
}

test('restore: an instance whose process vanished while the agent was down is reported lost and removed', async (t) => {
  const h = new Harness();
  t.teardown(() => h.close());
  const dir = plant(h, 'lost-1', {});
  h.open = false; // as at agent start: no session yet
  h.manager.recover();
  const hello = h.manager.helloInstances();
  await eventually(() => !existsSync(dir), 'the instance directory removed');
  const all = h.manager.helloInstances();
  const rep = all.find((r) => r.instanceUuid === 'lost-1');
  t.truthy(rep, `the Hello lists it (${hello.length})`);
  t.true(rep!.failed);
  t.is(rep!.reason, 'lost while the agent was down');
  t.is(rep!.jobVersionId, 3);
  h.manager.delivered(all);
  t.deepEqual(h.manager.helloInstances(), []);
});

test('restore: an instance that exited while the agent was down reports its recorded exit code', async (t) => {
  const h = new Harness();
  t.teardown(() => h.close());
  plant(h, 'exited-1', {}, 4);
  plant(h, 'stopped-1', { state: 'STOPPING', stopRequested: true }, 143);
  h.manager.recover();
  const a = await h.waitState('exited-1', 'REMOVED');
  t.true(a.failed);
  t.true(a.exited);
  t.is(a.exitCode, 4);
  t.is(a.reason, 'exited with code 4 while the agent was down');
  const b = await h.waitState('stopped-1', 'REMOVED');
  t.false(b.failed);
  t.is(b.exitCode, 143);
});

test('restore: a directory without a readable record is removed', (t) => {
  const h = new Harness();
  t.teardown(() => h.close());
  const dir = join(h.dir, 'instances', 'junk');
  mkdirSync(dir, { recursive: true });
  h.manager.recover();
  t.false(existsSync(dir));
});

test('restore: a re-attached instance keeps its uid; the agent does not hand it out again', async (t) => {
  const h = new Harness(undefined, undefined, true);
  const sleeper = spawn('sleep', ['60'], { stdio: 'ignore', detached: true }); // its own group, as a wrapper's
  t.teardown(async () => {
    sleeper.kill('SIGKILL');
    await h.close();
  });
  await new Promise((r) => sleeper.once('spawn', r));
  const ids = h.identities!;
  const uid = TEST_UIDS.first + TEST_UIDS.count - 1;
  plant(h, 'attached-1', { pid: sleeper.pid!, pidStart: readProcStat(sleeper.pid!)!.startTime, identity: { uid, gid: uid } });
  h.manager.recover();
  t.is(h.manager.get('attached-1')?.state, 'RUNNING', 're-attached');
  const handed: number[] = [];
  for (;;) {
    try {
      handed.push(ids.allocate());
    } catch {
      break;
    }
  }
  for (const u of handed) ids.release(u);
  t.true(handed.length > 0);
  t.false(handed.includes(uid), 'its uid is reserved');
});
