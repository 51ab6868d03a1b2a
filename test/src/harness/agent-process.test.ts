/**
 * The sweep that AgentProcess.dispose runs over an agent's data directory: nothing that names
 * the directory survives it, and it says so when it cannot make that true. And the check of the
 * host that it runs for every agent the harness starts: what the agent left there fails the test.
 */
import test from 'ava';
import { spawn, spawnSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AgentProcess, killProcessesUnder, processesUnder } from './agent-process.js';
import { testIsolation } from './cluster.js';
import { ControllerProcess } from './controller-process.js';
import { agentLeftovers, agentPrefixes, describeLeftovers } from './leftovers.js';
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

/** Runs a host command from the system's directories, throwing when it fails. */
function run(argv: string[]): void {
  const r = spawnSync(argv[0]!, argv.slice(1), { encoding: 'utf8', env: { ...process.env, PATH: '/usr/sbin:/usr/bin:/sbin:/bin' } });
  if (r.status !== 0) throw new Error(`${argv.join(' ')}: ${r.stderr}`);
}

test('dispose: an agent started with the harness\'s defaults fails its test, naming them, when a namespace (and its mount), a link or an nft table of its own is left on the host; one that keeps its instances does not', async (t) => {
  if (process.getuid?.() !== 0) {
    // Without root an agent makes none of these, and the test could not make them either.
    if (process.env['PLATFORM_REQUIRE_SYSTEM_TOOLS'] === '1') t.fail('this test needs root (namespaces, links, nft tables)');
    else t.pass('not root: nothing to check');
    return;
  }
  const controller = await ControllerProcess.start();
  t.teardown(() => controller.dispose());
  const api = await controller.admin();
  for (const keepInstancesOnExit of [false, true]) {
    const agent = await AgentProcess.start(controller, api, { isolation: testIsolation(t), keepInstancesOnExit });
    const p = agentPrefixes(agent.uuid);
    const ns = `${p.netns}left`;
    const link = `${p.bridge}lf`;
    const table = p.uidTable;
    // Whatever happens, nothing of this stays (the agent's own sweep at dispose removes these names too).
    t.teardown(() => {
      spawnSync('ip', ['netns', 'delete', ns], { stdio: 'ignore' });
      spawnSync('ip', ['link', 'delete', link], { stdio: 'ignore' });
      spawnSync('nft', ['delete', 'table', 'inet', table], { stdio: 'ignore' });
    });
    // Once the agent is gone (it removes what is its own and unused when it stops), the host holds these.
    t.is((await agent.stop()).code, 0);
    run(['ip', 'netns', 'add', ns]);
    run(['ip', 'link', 'add', link, 'type', 'bridge']);
    run(['nft', 'add', 'table', 'inet', table]);
    const left = describeLeftovers(agentLeftovers(agent.uuid));
    t.deepEqual(left, [`netns ${ns}`, `mount /run/netns/${ns}`, `link ${link}`, `nft table inet ${table}`]);
    if (keepInstancesOnExit) await agent.dispose();
    else {
      const err = await t.throwsAsync(agent.dispose());
      t.is(err!.message, `agent ${agent.uuid} stopped its instances and left on the host: ${left.join(', ')}`);
    }
    t.deepEqual(describeLeftovers(agentLeftovers(agent.uuid)), [], 'removed all the same');
  }
});
