/**
 * The README's walk-through, run as a user runs it: `npm start` at the repository root (its data
 * in temporary directories, ports chosen by the system), then every `sh` block of "Run an app"
 * (docs/api.md), verbatim and in order, in one bash in the repository, against that cluster, and
 * the README quick start's deploy with the platform command. Afterwards the
 * repository holds nothing new, and `kill -INT <pid of npm start>` stops the controller and the
 * agent.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chmod, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import test from 'ava';
import { eventually } from '../harness/wait.js';
import { claimAgentSubnetPool } from '../harness/subnet-slots.js';
import { freePort } from '../harness/net.js';
import { shellBlocks } from '../harness/readme.js';

const REPO = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

function missingTools(): string[] {
  return ['bash', 'curl', 'jq', 'tar', 'sha256sum', 'npm'].filter((tool) => spawnSync('sh', ['-c', `command -v ${tool}`]).status !== 0);
}

test('README: the walk-through runs verbatim against npm start, leaves nothing in the repository, and kill -INT to npm stops the cluster', async (t) => {
  const missing = missingTools();
  if (missing.length > 0) {
    if (process.env['PLATFORM_REQUIRE_SYSTEM_TOOLS'] === '1') throw new Error(`missing tools: ${missing.join(', ')}`);
    t.log(`skipped: ${missing.join(', ')} not installed`);
    t.pass();
    return;
  }
  // npm start builds first (its prestart), then the app is staged and run: minutes on a busy machine.
  t.timeout(6 * 60_000);
  const data = await mkdtemp(join(tmpdir(), 'platform-readme-'));
  // As for any agent data directory: a root agent's instance uids must pass through it.
  await chmod(data, 0o711);
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PLATFORM_DATA_DIR: join(data, 'controller'),
    PLATFORM_AGENT_DATA_DIR: join(data, 'agent'),
    PLATFORM_LISTEN: '127.0.0.1:0',
    PLATFORM_GRPC_LISTEN: '127.0.0.1:0',
    // The walk-through reaches the app through the router, on a port known free.
    PLATFORM_ROUTER_LISTEN: `127.0.0.1:${await freePort()}`,
    // Blocks for its agent that no other test's controller hands out at the same time.
    PLATFORM_AGENT_SUBNET_POOL: claimAgentSubnetPool(),
  };
  delete env['PLATFORM_ADMIN_PASSWORD'];
  delete env['PLATFORM_JOIN_TOKEN'];
  const gitStatus = () => spawnSync('git', ['status', '--porcelain', '--untracked-files=all'], { cwd: REPO, encoding: 'utf8' }).stdout;
  const before = gitStatus();

  const npm: ChildProcess = spawn('npm', ['start'], { cwd: REPO, env, stdio: ['ignore', 'pipe', 'pipe'] });
  const pids = new Set<number>();
  let api: string | undefined;
  const output: string[] = [];
  createInterface({ input: npm.stdout! }).on('line', (line) => {
    output.push(line);
    api ??= /^Platform API: (http:\/\/\S+)$/.exec(line)?.[1];
    // Not a terminal: npm start passes the processes' JSON lines on as they are.
    const json = /^(\{.*\})$/.exec(line)?.[1];
    if (json) {
      const pid = (JSON.parse(json) as { pid?: number }).pid;
      if (pid) pids.add(pid);
    }
  });
  createInterface({ input: npm.stderr! }).on('line', (line) => output.push(line));
  const npmExit = new Promise<number | null>((resolve) => npm.once('exit', (code) => resolve(code)));
  t.teardown(async () => {
    if (npm.exitCode === null) npm.kill('SIGKILL');
    for (const pid of pids) if (alive(pid)) process.kill(pid, 'SIGKILL');
    await rm(data, { recursive: true, force: true });
  });

  const url = await eventually(() => api, { timeoutMs: 120_000, what: `npm start printing the API URL (output so far:\n${output.join('\n')})` });
  const password = (await readFile(join(data, 'controller', 'admin-password'), 'utf8')).trim();
  const auth = `Basic ${Buffer.from(`admin:${password}`).toString('base64')}`;
  const token = ((await (await fetch(`${url}/v1/oauth2/token`, { method: 'POST', headers: { authorization: auth } })).json()) as { access_token: string }).access_token;
  await eventually(
    async () => {
      const managers = (await (await fetch(`${url}/instance_managers`, { headers: { authorization: `Bearer ${token}` } })).json()) as { status: string }[];
      return managers.some((m) => m.status === 'connected');
    },
    { timeoutMs: 60_000, what: 'the local agent connected' },
  );

  // The curl walk-through lives in docs/api.md; README's quick start deploys with the platform command (below).
  const blocks = shellBlocks(await readFile(join(REPO, 'docs', 'api.md'), 'utf8'), 'Run an app');
  t.is(blocks.length, 11, 'the set-up block, then one block per step 1 to 10');
  // The blocks as they are, one after the other in one shell; markers only separate their output.
  const script = blocks.map((b, i) => `echo '::block ${i}::'\n${b}`).join('\n') + '\necho "::work $WORK::"\n';
  // Not spawnSync: npm start's output must keep being read meanwhile.
  const bash = spawn('bash', ['-c', script], { cwd: REPO, env: { ...env, PLATFORM_LISTEN: new URL(url).host }, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  bash.stdout.on('data', (d: Buffer) => (out += d.toString('utf8')));
  bash.stderr.on('data', (d: Buffer) => (err += d.toString('utf8')));
  const killer = setTimeout(() => bash.kill('SIGKILL'), 240_000);
  await new Promise((resolve) => bash.once('close', resolve));
  clearTimeout(killer);
  t.log(out.length > 6000 ? `${out.slice(0, 3000)}\n...\n${out.slice(-3000)}` : out);
  if (err) t.log(err);
  const block = (i: number) => out.slice(out.indexOf(`::block ${i}::`), out.indexOf(`::block ${i + 1}::`) < 0 ? undefined : out.indexOf(`::block ${i + 1}::`));
  t.regex(block(1), /"status":"connected"/);
  t.regex(block(3), /"state":"uploading"/);
  t.regex(block(5), /"state":"ready"/);
  t.regex(block(5), /\[staging\] Staging is complete\./);
  t.regex(block(7), /"state":"RUNNING"/);
  t.regex(block(7), /hello from node/);
  t.regex(block(7), /"announced_routes":true/);
  t.regex(block(8), /^\[[0-9a-f]{8}\] listening on \d+$/m);
  // The text form may be read before the line of the request arrives; the tail has it.
  t.regex(block(8), /^data: .*"line":"GET \/"\}$/m);
  t.regex(block(9), /\{"state":"started","num_instances":2,"version_id":2\}/);
  t.regex(block(9), /\{"state":"stopped","num_instances":2,"version_id":3\}/);
  const work = /::work (.*)::/.exec(out)?.[1] ?? '';
  t.not(work, '');
  t.false(spawnSync('test', ['-e', work]).status === 0, 'the temporary directory is gone');
  t.is(gitStatus(), before, 'the walk-through left nothing in the repository');

  // README's quick start: log in and deploy the example app with the platform command (its
  // configuration in a HOME of the test's), then read it through the router and remove it.
  const quick = shellBlocks(await readFile(join(REPO, 'README.md'), 'utf8'), 'Quick start').filter((b) => b.includes('platform login'));
  t.is(quick.length, 1, 'one block deploys with the platform command');
  const home = join(data, 'home');
  const cli = spawn('bash', ['-c', quick[0]!], { cwd: REPO, env: { ...env, HOME: home, PLATFORM_LISTEN: new URL(url).host }, stdio: ['ignore', 'pipe', 'pipe'] });
  let cliOut = '';
  cli.stdout.on('data', (d: Buffer) => (cliOut += d.toString('utf8')));
  cli.stderr.on('data', (d: Buffer) => (cliOut += d.toString('utf8')));
  const cliKiller = setTimeout(() => cli.kill('SIGKILL'), 180_000);
  const cliCode = await new Promise<number | null>((resolve) => cli.once('close', resolve));
  clearTimeout(cliKiller);
  t.log(cliOut);
  t.is(cliCode, 0);
  t.regex(cliOut, /Logged in to http:\/\/127\.0\.0\.1:\d+ as admin/);
  t.regex(cliOut, /\[staging\] Staging is complete\./);
  t.regex(cliOut, /^hello is running: http:\/\/hello-[a-z0-9]{6}\.localhost:\d+\/$/m);
  t.regex(cliOut, /^hello from node$/m);
  t.regex(cliOut, /^\[[0-9a-f]{8}\] listening on \d+$/m);
  t.regex(cliOut, /^job::\/sandbox\/admin::hello deleted$/m);
  t.is(gitStatus(), before, 'the quick start left nothing in the repository');

  // A signal to npm's own process stops the whole cluster.
  t.true(pids.size >= 2, `the pids of the controller and the agent were seen (${[...pids].join(', ')})`);
  process.kill(npm.pid!, 'SIGINT');
  await npmExit;
  await eventually(() => [...pids].every((pid) => !alive(pid)), { timeoutMs: 30_000, what: 'the controller and the agent to exit' });
  t.truthy(output.find((l) => l.includes('"msg":"controller stopped"')));
  t.truthy(output.find((l) => l.includes('"msg":"agent stopped"')));
});
