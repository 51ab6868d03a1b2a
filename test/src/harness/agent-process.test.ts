/**
 * The sweep that AgentProcess.dispose runs over an agent's data directory: nothing that names
 * the directory survives it, and it says so when it cannot make that true.
 */
import test from 'ava';
import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { killProcessesUnder, processesUnder } from './agent-process.js';
import { eventually } from './wait.js';

async function tempDir(t: { teardown(fn: () => Promise<void>): void }): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'platform-kill-under-test-'));
  await writeFile(join(dir, 'f'), '');
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

/** Kills `pid` at teardown when the test left it (a failed assertion must not leave it running). */
function killAtTeardown(t: { teardown(fn: () => void): void }, pid: number | undefined): void {
  t.teardown(() => {
    try {
      if (pid !== undefined) process.kill(pid, 'SIGKILL');
    } catch {
      // ended
    }
  });
}

test('killProcessesUnder: a process started by one it killed, after it listed /proc, is killed too', async (t) => {
  const dir = await tempDir(t);
  // A parent naming the directory that keeps starting children naming it (as a bwrap starts its
  // sandbox's init): whatever one listing of /proc sees, some children come after it.
  const parent = spawn('/bin/sh', ['-c', 'while :; do tail -f /dev/null "$0/f" & sleep 0.002; done', dir], { stdio: 'ignore', cwd: '/' });
  // Teardowns run last first: the starter goes before the sweep.
  t.teardown(async () => {
    for (const { pid } of await processesUnder(dir)) process.kill(pid, 'SIGKILL');
  });
  killAtTeardown(t, parent.pid);
  await eventually(async () => (await processesUnder(dir)).length > 20, { timeoutMs: 10_000, what: 'children running' });
  t.true((await killProcessesUnder(dir)) > 20);
  t.deepEqual(await processesUnder(dir), [], 'nothing naming the directory runs any more');
});

test('killProcessesUnder: throws, naming them, when processes under the directory keep running', async (t) => {
  const dir = await tempDir(t);
  // A supervisor that does not name the directory (it reads it from its environment) and restarts
  // a child in it as soon as that one is killed: the sweep cannot end it.
  const supervisor = spawn('/bin/sh', ['-c', 'while :; do tail -f /dev/null "$D/f"; done'], { stdio: 'ignore', cwd: '/', env: { ...process.env, D: dir } });
  // Teardowns run last first: the starter goes before the sweep.
  t.teardown(async () => {
    for (const { pid } of await processesUnder(dir)) process.kill(pid, 'SIGKILL');
  });
  killAtTeardown(t, supervisor.pid);
  await eventually(async () => (await processesUnder(dir)).length > 0, { timeoutMs: 10_000, what: 'the child running' });
  const err = await t.throwsAsync(killProcessesUnder(dir, 300));
  t.regex(err!.message, new RegExp(`processes under ${dir} still run after 300 ms of SIGKILLs: \\d+ tail -f /dev/null ${dir}/f`));
});
