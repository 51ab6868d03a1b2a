import test from 'ava';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Cgroups } from './cgroups.js';
import { Harness } from '../test-support/harness.js';
import { requireTool } from '../test-support/system.js';
import { eventually } from '../test-support/wait.js';

const cgroups = Cgroups.detect();

test('cgroups: an instance runs in its own groups with its memory and cpu limits; they are removed with it', async (t) => {
  if (!requireTool(t, cgroups.available, `writable cgroups (${cgroups.reason})`, false)) return;
  const h = new Harness(undefined, cgroups);
  t.teardown(() => h.close());
  const spec = h.spec({ process: { startCommand: 'exec sleep 60' }, resources: { memory: 64 * 1024 * 1024, cpu: 250 } });
  h.manager.start(spec);
  await h.waitState(spec.instanceUuid!, 'RUNNING');
  const runner = h.manager.get(spec.instanceUuid!)!;
  const dirs = runner.record.cgroups;
  t.true(dirs.length > 0);
  if (cgroups.version === 'v1') {
    t.is(readFileSync(join(dirs[0]!, 'memory.limit_in_bytes'), 'utf8').trim(), String(64 * 1024 * 1024));
    t.is(readFileSync(join(dirs[1]!, 'cpu.cfs_quota_us'), 'utf8').trim(), '25000');
  } else {
    t.is(readFileSync(join(dirs[0]!, 'memory.max'), 'utf8').trim(), String(64 * 1024 * 1024));
    t.is(readFileSync(join(dirs[0]!, 'cpu.max'), 'utf8').trim(), '25000 100000');
  }
  // RUNNING (no required ports) is reported once the wrapper is spawned; it joins its groups as its
  // first step, before it starts the application: on a busy host that can come a little later.
  const pids = await eventually(() => {
    const now = cgroups.pids(dirs);
    return now.includes(runner.record.pid!) && now.length >= 2 ? now : undefined;
  }, 'the wrapper and its child (the application) in the groups', 15_000).catch(() => cgroups.pids(dirs));
  t.true(pids.includes(runner.record.pid!), 'the wrapper joined the groups');
  t.true(pids.length >= 2, 'and its child (the application) is in them too');
  h.manager.stop({ instanceUuid: spec.instanceUuid! });
  await h.waitState(spec.instanceUuid!, 'REMOVED');
  for (const d of dirs) t.false(existsSync(d));
});

test('cgroups: the memory limit is enforced (an instance allocating past it is killed and fails)', async (t) => {
  if (!requireTool(t, cgroups.available, 'writable cgroups', false)) return;
  const h = new Harness(undefined, cgroups);
  t.teardown(() => h.close());
  const hog = `const a = []; for (let i = 0; i < 400; i++) { a.push(Buffer.alloc(1024 * 1024, 1)); } console.log('survived');`;
  const spec = h.spec({ process: { startCommandRaw: [process.execPath, '-e', hog] }, resources: { memory: 96 * 1024 * 1024 } });
  h.manager.start(spec);
  const removed = await h.waitState(spec.instanceUuid!, 'REMOVED');
  t.true(removed.failed);
  t.is(removed.exitCode, 137, 'killed by the OOM killer (SIGKILL)');
  // The last log lines are handed over at teardown, before REMOVED is reported.
  t.false(h.text(spec.instanceUuid!).includes('survived'));
});
