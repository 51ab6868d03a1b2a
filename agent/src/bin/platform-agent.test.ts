import test, { type ExecutionContext } from 'ava';
import { probeBwrap } from '../isolation/bwrap.js';
import { nodeHostPaths, requireTool } from '../test-support/system.js';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { instanceStateName, PROTOCOL_VERSION, type InstanceSpec } from '@platform/proto';
import { FakeController } from '../test-support/fake-controller.js';
import { AgentProcess } from '../test-support/agent-process.js';
import { makeTarGz, sha256Digest } from '../test-support/tar.js';
import { eventually } from '../test-support/wait.js';
import { isSameProcessAlive } from '../isolation/procfs.js';
import { killGroup } from '../isolation/launch.js';
import { tempDir } from '../test-support/temp.js';

const APP = `
const http = require('node:http');
let n = 0;
const s = http.createServer((q, r) => { n++; console.log('request ' + n); r.end('hello ' + process.env.INSTANCE); });
s.listen(Number(process.env.PORT), '127.0.0.1', () => console.log('listening'));
process.on('SIGTERM', () => { console.log('bye'); process.exit(0); });
`;

function spec(ctl: FakeController, over: Partial<InstanceSpec> = {}): InstanceSpec {
  const archive = makeTarGz([{ path: '/app/app.js', body: APP }]);
  const digest = sha256Digest(archive);
  ctl.blobs.set(digest, archive);
  const uuid = randomUUID();
  return {
    instanceUuid: uuid, jobUuid: randomUUID(), jobFqn: 'job::/test::web', jobVersionId: 2,
    packages: [{ uuid: randomUUID(), fqn: 'package::/test::web', digest, length: archive.length, installPath: '/', hostPaths: nodeHostPaths() }],
    process: { name: 'app', startCommand: `exec ${process.execPath} app.js`, stopTimeoutS: 10 },
    ports: [{ number: 0 }],
    environment: { INSTANCE: uuid },
    ...over,
  };
}

async function get(addr: string): Promise<string> {
  return (await fetch(`http://${addr}/`)).text();
}

async function scenario(t: ExecutionContext, isolation: 'process' | 'bwrap'): Promise<void> {
  const ctl = new FakeController();
  await ctl.start();
  const dataDir = tempDir(t, 'agent-bin-');
  // Agents on one host need uid ranges of their own (the two scenarios run at once).
  const uids = isolation === 'bwrap' ? '2100000000-2100000999' : '2100001000-2100001999';
  const args = ['--controller', ctl.address, '--data-dir', dataDir, '--tags', 'ssd,edge', '--datacenter', 'dc1', '--isolation', isolation, '--log-level', 'debug', '--instance-uids', uids];
  const env = { PLATFORM_JOIN_TOKEN: ctl.secret };
  let agent = AgentProcess.start(args, env);
  const agents: AgentProcess[] = [agent];
  t.teardown(async () => {
    for (const a of agents) a.child.kill('SIGKILL');
    await ctl.stop();
    // Instances outlive their agent by design: a test that failed half way must not leave them.
    for (const uuid of existsSync(join(dataDir, 'instances')) ? readdirSync(join(dataDir, 'instances')) : []) {
      try {
        const rec = JSON.parse(readFileSync(join(dataDir, 'instances', uuid, 'instance.json'), 'utf8')) as { pid?: number; pidStart?: number };
        if (rec.pid && rec.pidStart && isSameProcessAlive(rec.pid, rec.pidStart)) killGroup(rec.pid);
      } catch {
        // no record (never started) or already gone
      }
    }
  });

  // Hello
  const hello = await eventually(() => ctl.hellos[0], 'Hello');
  t.is(hello.protocolVersion, PROTOCOL_VERSION);
  t.regex(hello.agentUuid!, /^[0-9a-f-]{36}$/);
  t.deepEqual(hello.tags, ['ssd', 'edge']);
  t.is(hello.datacenter, 'dc1');
  t.is(hello.isolation, isolation);
  t.is(hello.total?.cpu, availableParallelism() * 1000);
  t.true((hello.total?.memory ?? 0) > 0 && (hello.total?.disk ?? 0) > 0);
  t.true(hello.systemTags!.includes(`isolation:${isolation}`));
  t.deepEqual(hello.instances ?? [], []);
  await eventually(() => ctl.received.some((r) => r.msg.heartbeat), 'a heartbeat');
  const metricsUrl = (await eventually(() => agent.logged('agent started'), 'started line'))['metrics'] as string;
  const chosen = agent.logged('isolation driver chosen');
  if (process.getuid?.() === 0) t.regex(String(chosen?.['instances_run_as']), /^their own uid in 21000\d+-21000\d+$/);
  if (isolation === 'process') t.regex(String(agent.logged('the process driver is for trusted hosts only')?.['does_not_isolate']), /no namespaces and no seccomp/);
  t.regex(await (await fetch(metricsUrl)).text(), /platform_agent_session_connects_total 1/);

  // Start an instance
  const s = spec(ctl);
  const uuid = s.instanceUuid!;
  ctl.send({ start: { spec: s } });
  const running = await eventually(() => ctl.reports(uuid).find((r) => instanceStateName(r.state) === 'RUNNING'), 'RUNNING', 60_000);
  const addr = running.ports![0]!;
  t.is(await get(addr), `hello ${uuid}`);
  await eventually(() => ctl.logLines(uuid).some((l) => l.text === 'request 1'), 'log line request 1');
  t.is(ctl.logLines(uuid).filter((l) => l.text === 'listening').length, 1);

  // Files
  ctl.send({ listFiles: { requestId: 'f1', instanceUuid: uuid, path: '/app' } });
  const files = await eventually(() => ctl.received.find((r) => r.msg.files?.requestId === 'f1')?.msg.files ?? undefined, 'FilesReply');
  t.deepEqual(files.entries?.map((e) => e.name), ['app.js']);
  ctl.send({ listFiles: { requestId: 'f2', instanceUuid: uuid, path: '../..' } });
  t.is((await eventually(() => ctl.received.find((r) => r.msg.files?.requestId === 'f2')?.msg.files ?? undefined, 'FilesReply 2')).errorKind, 'invalid');

  // kill -9 the agent: the instance keeps running and logging
  agent.child.kill('SIGKILL');
  await agent.exited;
  t.is(await get(addr), `hello ${uuid}`, 'still serving without its agent');
  agent = AgentProcess.start(args, env);
  agents.push(agent);
  const hello2 = await eventually(() => ctl.hellos[1], 'second Hello', 60_000);
  t.is(hello2.agentUuid, hello.agentUuid, 'the uuid is kept across restarts');
  const listed = hello2.instances?.find((i) => i.instanceUuid === uuid);
  t.is(instanceStateName(listed?.state), 'RUNNING');
  t.is(listed?.ports?.[0], addr);
  t.truthy(agent.logged('instance re-attached') ?? (await eventually(() => agent.logged('instance re-attached'), 're-attached line')));
  await eventually(() => ctl.logLines(uuid).some((l) => l.text === 'request 2'), 'the line written while the agent was down');
  t.is(ctl.logLines(uuid).filter((l) => l.text === 'request 1').length, 1, 'no line sent twice');
  t.is(ctl.logLines(uuid).filter((l) => l.text === 'listening').length, 1, 'no line sent twice');

  // The controller goes away and comes back: the agent reconnects with its instances
  const port = ctl.port;
  await ctl.stop();
  await get(addr);
  await ctl.start(port);
  const hello3 = await eventually(() => ctl.hellos[2], 'Hello after controller restart', 60_000);
  t.is(instanceStateName(hello3.instances?.find((i) => i.instanceUuid === uuid)?.state), 'RUNNING');
  await eventually(() => ctl.logLines(uuid).some((l) => l.text === 'request 3'), 'line written while disconnected');

  // Stop it
  ctl.send({ stop: { instanceUuid: uuid, reason: 'test' } });
  const removed = await eventually(() => ctl.reports(uuid).find((r) => instanceStateName(r.state) === 'REMOVED'), 'REMOVED', 60_000);
  t.true(removed.stopRequested);
  t.false(removed.failed);
  t.is(removed.exitCode, 0);
  await eventually(() => ctl.logLines(uuid).some((l) => l.text === 'bye'), 'bye line');
  t.false(existsSync(join(dataDir, 'instances', uuid)));

  // SIGTERM: the agent exits 0 and leaves a running instance running; the next agent re-attaches.
  const s2 = spec(ctl);
  ctl.send({ start: { spec: s2 } });
  const r2 = await eventually(() => ctl.reports(s2.instanceUuid!).find((r) => instanceStateName(r.state) === 'RUNNING'), 'RUNNING 2', 60_000);
  const rec = JSON.parse(readFileSync(join(dataDir, 'instances', s2.instanceUuid!, 'instance.json'), 'utf8')) as { pid: number; pidStart: number };
  agent.child.kill('SIGTERM');
  const exit = await agent.exited;
  t.is(exit.code, 0);
  t.truthy(agent.logged('agent stopped'));
  t.true(isSameProcessAlive(rec.pid, rec.pidStart));
  t.is(await get(r2.ports![0]!), `hello ${s2.instanceUuid}`);
  const helloCount = ctl.hellos.length;
  agent = AgentProcess.start(args, env);
  agents.push(agent);
  const hello4 = await eventually(() => ctl.hellos[helloCount], 'Hello after SIGTERM restart', 60_000);
  t.is(instanceStateName(hello4.instances?.find((i) => i.instanceUuid === s2.instanceUuid)?.state), 'RUNNING');
  ctl.send({ stop: { instanceUuid: s2.instanceUuid!, force: true } });
  await eventually(() => ctl.reports(s2.instanceUuid!).find((r) => instanceStateName(r.state) === 'REMOVED'), 'REMOVED 2', 60_000);
  t.false(isSameProcessAlive(rec.pid, rec.pidStart));
  agent.child.kill('SIGTERM');
  t.is((await agent.exited).code, 0);
}

test('agent binary (process): Hello, start, logs, files, kill -9 and re-attach, controller restart, stop, SIGTERM leaves instances running', (t) => scenario(t, 'process'));

test('agent binary (bwrap): the same with bubblewrap isolation', async (t) => {
  const probe = probeBwrap();
  if (!requireTool(t, probe.ok, 'bubblewrap')) return;
  await scenario(t, 'bwrap');
});

test('agent binary: usage errors exit 2; a missing join secret is refused', async (t) => {
  const a = AgentProcess.start(['--isolation', 'vm'], { PLATFORM_JOIN_TOKEN: 'x' });
  t.is((await a.exited).code, 2);
  t.regex(a.stderr, /--isolation: "vm" is not bwrap or process/);
  const b = AgentProcess.start([]);
  t.is((await b.exited).code, 2);
  t.regex(b.stderr, /join secret is missing/);
  const u = AgentProcess.start(['--instance-uids', '100-200'], { PLATFORM_JOIN_TOKEN: 'x' });
  t.is((await u.exited).code, 2);
  t.regex(u.stderr, /--instance-uids: "100-200": the range must start at 1000 or above/);
  const c = AgentProcess.start(['--version']);
  t.is((await c.exited).code, 0);
});

test('agent binary: a refused Welcome is logged and retried; a wrong join secret keeps it retrying', async (t) => {
  const ctl = new FakeController();
  await ctl.start();
  let refuse = true;
  ctl.welcome = (h) => (refuse ? { refused: 'duplicate session' } : { heartbeatIntervalMs: 200, adopt: (h.instances ?? []).map((i) => i.instanceUuid ?? '') });
  const dataDir = tempDir(t, 'agent-bin-');
  const agent = AgentProcess.start(['--controller', ctl.address, '--data-dir', dataDir, '--isolation', 'process'], { PLATFORM_JOIN_TOKEN: ctl.secret });
  t.teardown(async () => {
    agent.child.kill('SIGKILL');
    await ctl.stop();
  });
  await eventually(() => agent.logged('the controller refused this agent; retrying later'), 'refusal logged');
  refuse = false;
  await eventually(() => agent.logged('connected to the controller'), 'connected after the refusal', 60_000);
  t.pass();
  const bad = AgentProcess.start(['--controller', ctl.address, '--data-dir', tempDir(t, 'agent-bin-'), '--isolation', 'process', '--log-level', 'debug'], { PLATFORM_JOIN_TOKEN: 'wrong' });
  t.teardown(() => bad.child.kill('SIGKILL'));
  await eventually(() => bad.logged('the controller refused the join secret; retrying'), 'warned once');

  t.is(bad.child.exitCode, null);
});
