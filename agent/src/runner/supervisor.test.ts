import test, { type ExecutionContext } from 'ava';
import { spawn } from 'node:child_process';
import { closeSync, openSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { JsonLogger, MemorySink } from '@platform/proto/common';
import { groupAlive } from '../isolation/launch.js';
import { readProcStat } from '../isolation/procfs.js';
import { tempDir } from '../test-support/temp.js';
import { eventually } from '../test-support/wait.js';
import { ProcessSupervisor, type ExitStatus } from './supervisor.js';

/** Every timer of the supervisor is unref'd: the test holds the event loop while it waits. */
function holdLoop(t: ExecutionContext): void {
  const timer = setInterval(() => undefined, 60_000);
  t.teardown(() => clearInterval(timer));
}

/** A supervised `/bin/sh -c script` as the runner starts one (the wrapper, its own group), logging to `out`. */
async function supervise(t: ExecutionContext, script: string) {
  holdLoop(t);
  const dir = tempDir(t, 'agent-supervisor-');
  const out = join(dir, 'out');
  const sink = new MemorySink();
  const exits: ExitStatus[] = [];
  const fd = openSync(out, 'a');
  let sup: ProcessSupervisor;
  try {
    sup = await ProcessSupervisor.spawn(
      { command: { argv: ['/bin/sh', '-c', script], cwd: dir }, stdoutFd: fd, stderrFd: fd, exitFile: join(dir, 'exit-code'), cgroupProcsFiles: [] },
      // The process driver's view: the wrapper is the only machinery.
      { exitFile: join(dir, 'exit-code'), infrastructure: (pid) => new Set([pid]), log: new JsonLogger(sink, 'debug'), pollMs: 10, onExit: (s) => void exits.push(s) },
    );
  } finally {
    closeSync(fd);
  }
  t.teardown(() => {
    sup.kill();
    sup.dispose();
  });
  const text = (): string => readFileSync(out, 'utf8');
  return { sup, exits, sink, dir, text };
}

test('supervisor: an exit is reported once, with the status the wrapper recorded', async (t) => {
  const { sup, exits } = await supervise(t, 'exit 3');
  t.true(await sup.waitExit(30_000));
  t.true(sup.exited);
  t.deepEqual(exits, [{ exitCode: 3 }]);
  t.true(await sup.waitExit(0), 'waiting after the exit resolves at once');
});

test('supervisor: a graceful stop that is ignored escalates to SIGKILL of the whole group after the stop timeout', async (t) => {
  // The application ignores SIGTERM, and has a child of its own in the group.
  const { sup, exits, sink, text } = await supervise(t, 'trap "" TERM; sleep 60 & echo ready; while :; do sleep 0.05; done');
  await eventually(() => text().includes('ready'), 'the application trapping TERM');
  const t0 = Date.now();
  sup.terminate();
  sup.armKill(0.5);
  t.true(await sup.waitExit(30_000));
  t.true(Date.now() - t0 >= 450, 'SIGTERM alone did not end it');
  t.deepEqual(exits, [{ exitCode: 137, signal: 'SIGKILL' }], 'the wrapper itself was killed: no status recorded');
  await eventually(() => !groupAlive(sup.pid), 'every process of the group gone');
  t.true(sink.lines.some((l) => l['msg'] === 'stop timeout: killing' && l['stop_timeout_s'] === 0.5));
});

test('supervisor: SIGTERM reaches the application, not the wrapper, and a stop command that fails falls back to it', async (t) => {
  const { sup, exits, dir, text, sink } = await supervise(t, 'trap "echo bye; exit 0" TERM; echo ready; while :; do sleep 0.05; done');
  await eventually(() => text().includes('ready'), 'the application trapping TERM');
  t.not(sup.appPid(), sup.pid);
  const fd = openSync(join(dir, 'stop-out'), 'a');
  try {
    sup.runStopCommand({ argv: ['/bin/sh', '-c', 'exit 4'], cwd: dir, stdout: fd, stderr: fd }, 30);
  } finally {
    closeSync(fd);
  }
  t.true(await sup.waitExit(30_000));
  t.deepEqual(exits, [{ exitCode: 0 }]);
  t.true(text().includes('bye'));
  t.true(sink.lines.some((l) => l['msg'] === 'stop command failed; sending SIGTERM' && l['exit_code'] === 4));
});

test('supervisor: a process of an earlier agent run is re-attached by pid and start time, and its end seen by polling', async (t) => {
  holdLoop(t);
  const child = spawn('/bin/sh', ['-c', 'exec sleep 60'], { detached: true, stdio: 'ignore' });
  await new Promise((resolve) => child.once('spawn', resolve));
  const pid = child.pid!;
  t.teardown(() => void (child.exitCode === null && child.kill('SIGKILL')));
  const exits: ExitStatus[] = [];
  const dir = tempDir(t, 'agent-supervisor-');
  const sup = ProcessSupervisor.attach(pid, readProcStat(pid)!.startTime, {
    exitFile: join(dir, 'exit-code'), infrastructure: (p) => new Set([p]), log: new JsonLogger(new MemorySink()), pollMs: 10, onExit: (s) => void exits.push(s),
  });
  t.teardown(() => sup.dispose());
  t.false(await sup.waitExit(300), 'still running');
  sup.kill();
  t.true(await sup.waitExit(30_000));
  t.deepEqual(exits, [{ exitCode: 137 }], 'no exit file, no child: the status is unknown');
});
