import test from 'ava';
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { UsageBatch } from '@platform/proto';
import { JsonLogger, MemorySink } from '@platform/proto/common';
import { Registry } from 'prom-client';
import { Agent } from '../agent.js';
import { Cgroups } from '../isolation/cgroups.js';
import { FakeController } from '../test-support/fake-controller.js';
import { tempDir } from '../test-support/temp.js';
import { eventually } from '../test-support/wait.js';
import { readHostCpu, readHostMemory, readNetDev, readProcessGroups } from './probes.js';
import { UsageReporter, type MeasuredInstance } from './usage-reporter.js';

test('usage: host counters are read from /proc/stat, /proc/meminfo and /proc/net/dev', (t) => {
  const dir = tempDir(t, 'agent-usage-proc-');
  writeFileSync(join(dir, 'stat'), 'cpu  100 5 50 1000 20 1 2 3 0 0\ncpu0 50 2 25 500 10 0 1 1 0 0\ncpu1 50 3 25 500 10 1 1 2 0 0\nintr 1\n');
  writeFileSync(join(dir, 'meminfo'), 'MemTotal:       1000 kB\nMemFree:         100 kB\nMemAvailable:    400 kB\n');
  writeFileSync(
    join(dir, 'dev'),
    'Inter-|   Receive                                                |  Transmit\n' +
      ' face |bytes    packets errs drop fifo frame compressed multicast|bytes    packets errs drop fifo colls carrier compressed\n' +
      '    lo: 999 1 0 0 0 0 0 0 999 1 0 0 0 0 0 0\n' +
      '  eth0: 1000 10 0 0 0 0 0 0 2000 20 0 0 0 0 0 0\n' +
      '  eth1: 1 1 0 0 0 0 0 0 2 1 0 0 0 0 0 0\n',
  );
  // busy = user + nice + system + irq + softirq + steal = 161 ticks = 1.61 s
  t.deepEqual(readHostCpu(join(dir, 'stat')), { busyNs: 161 * 1e7, cores: 2 });
  t.deepEqual(readHostMemory(join(dir, 'meminfo')), { total: 1000 * 1024, used: 600 * 1024 });
  t.deepEqual(readNetDev(join(dir, 'dev')), { rxBytes: 1001, txBytes: 2002 });
  t.is(readHostCpu(join(dir, 'missing')), undefined);
});

/** A process spinning on a core, in a process group of its own (as instances are). */
function spinner(t: { teardown(fn: () => void): void }): number {
  const child = spawn(process.execPath, ['-e', 'for(;;){}'], { detached: true, stdio: 'ignore' });
  t.teardown(() => {
    try {
      process.kill(-child.pid!, 'SIGKILL');
    } catch {
      // gone
    }
  });
  return child.pid!;
}

function reporter(t: { teardown(fn: () => void): void }, instances: MeasuredInstance[], outlet: { open: boolean; got: UsageBatch[] }, opts: { maxBuffered?: number; batchSamples?: number } = {}) {
  const registry = new Registry();
  const r = new UsageReporter({
    instances: () => instances,
    outlet: { canSend: () => outlet.open, sendUsage: (b) => (outlet.open ? (outlet.got.push(b), true) : false) },
    cgroups: Cgroups.disabled('test'),
    dataDir: tempDir(t as never, 'agent-usage-data-'),
    registry,
    ...opts,
  });
  t.teardown(() => r.stop());
  return { r, registry };
}

test('usage: an instance without cgroups is measured from /proc: CPU as ns per second, resident memory', async (t) => {
  const pid = spinner(t);
  const root = tempDir(t, 'agent-usage-root-');
  writeFileSync(join(root, 'file'), Buffer.alloc(10_000, 1));
  const inst: MeasuredInstance = {
    uuid: randomUUID(), jobUuid: randomUUID(), jobFqn: 'job::/test::spin', running: true, pid, cgroups: [],
    resources: { memory: 256 * 1024 * 1024, disk: 0, network: 0 }, root, diskMonitored: undefined,
  };
  const outlet = { open: true, got: [] as UsageBatch[] };
  const { r, registry } = reporter(t, [inst], outlet);
  t.true((readProcessGroups(new Set([pid])).get(pid)?.memory ?? 0) > 0);
  r.sample(false);
  // The spinner uses about one core: wait until a sample says so (the walk of the root too).
  const s = await eventually(() => {
    const s = r.sample();
    const i = s.instances?.[0];
    return i && (i.cpuNs ?? 0) > 3e8 && (i.diskUsed ?? 0) > 0 ? s : undefined;
  }, 'a sample with the spinner busy', 30_000, 200);
  const i = s.instances![0]!;
  t.true((i.cpuNs ?? 0) < 1.5e9, `at most one core and a half: ${i.cpuNs}`);
  t.true((i.memoryUsed ?? 0) > 1024 * 1024, 'a node process has more than 1 MiB resident');
  t.is(i.memoryLimit, 256 * 1024 * 1024);
  t.is(i.diskUsed, 12_288, 'the file (10,000 bytes in three blocks), charged as the disk monitor charges it');
  t.false(i.networkMeasured);
  t.true((s.host?.cpuTotal ?? 0) >= 1e9);
  t.true((s.host?.memoryTotal ?? 0) > 0 && (s.host?.diskTotal ?? 0) > 0);
  r.flush();
  t.true(outlet.got.length > 0);
  const text = await registry.metrics();
  t.regex(text, new RegExp(`platform_agent_instance_cpu_ns_per_second\\{job="job::/test::spin",instance="${inst.uuid}"\\} \\d+`));
  t.regex(text, new RegExp(`platform_agent_instance_memory_limit_bytes\\{job="job::/test::spin",instance="${inst.uuid}"\\} 268435456`));
  t.regex(text, /platform_agent_host_usage\{resource="memory_total_bytes"\} [1-9]/);
  // Gone instances leave the gauges.
  inst.running = false;
  r.sample();
  t.notRegex(await registry.metrics(), new RegExp(inst.uuid));
});

test('usage: samples wait while the session is closed, the oldest beyond the bound are dropped and counted, the rest go in order', async (t) => {
  let now = 1_000_000;
  const outlet = { open: false, got: [] as UsageBatch[] };
  const registry = new Registry();
  const r = new UsageReporter({
    instances: () => [], outlet: { canSend: () => outlet.open, sendUsage: (b) => (outlet.open ? (outlet.got.push(b), true) : false) },
    cgroups: Cgroups.disabled('test'), dataDir: tempDir(t, 'agent-usage-data-'), registry, maxBuffered: 3, batchSamples: 2, now: () => now,
  });
  r.sample(false);
  for (let k = 1; k <= 5; k++) {
    now += 10_000;
    r.sample();
    r.flush();
  }
  t.is(r.buffered, 3);
  t.is(r.dropped, 2);
  t.deepEqual(outlet.got, []);
  outlet.open = true;
  r.flush();
  t.is(r.buffered, 0);
  t.deepEqual(outlet.got.map((b) => b.samples!.map((s) => s.timeMs)), [[1_030_000, 1_040_000], [1_050_000]]);
  t.true(outlet.got.every((b) => b.droppedTotal === 2));
  t.true(outlet.got[0]!.samples!.every((s) => s.intervalMs === 10_000));
  t.regex(await registry.metrics(), /platform_agent_usage_samples_dropped_total 2/);
});

test('usage (agent): UsageBatch messages on the stream for a running instance, kept across a controller restart', async (t) => {
  const ctl = new FakeController();
  await ctl.start();
  t.teardown(() => ctl.stop());
  const dataDir = tempDir(t, 'agent-usage-');
  const agent = await Agent.start({
    controller: ctl.address, dataDir, joinToken: ctl.secret, isolation: 'process', log: new JsonLogger(new MemorySink(), 'warn'), pollMs: 50,
    usageIntervalMs: 100,
  });
  t.teardown(() => agent.stop({ stopInstances: true }));
  await eventually(() => agent.session.state === 'welcomed', 'welcomed');
  const uuid = randomUUID();
  ctl.send({ start: { spec: { instanceUuid: uuid, jobUuid: 'job-1', jobFqn: 'job::/test::sleep', process: { startCommand: 'exec sleep 60' }, resources: { memory: 64 * 1024 * 1024 } } } });
  const usages = () => ctl.received.filter((r) => r.msg.usage).flatMap((r) => r.msg.usage!.samples ?? []);
  const mine = () => usages().flatMap((s) => (s.instances ?? []).filter((i) => i.instanceUuid === uuid).map((i) => ({ ...i, t: s.timeMs ?? 0 })));
  await eventually(() => mine().length >= 2, 'usage of the instance');
  t.is(mine()[0]!.jobUuid, 'job-1');
  t.is(mine()[0]!.memoryLimit, 64 * 1024 * 1024);
  t.true(mine().every((i) => (i.memoryUsed ?? 0) > 0));
  const text = await (await fetch(agent.metricsUrl)).text();
  t.regex(text, new RegExp(`platform_agent_instance_memory_bytes\\{job="job::/test::sleep",instance="${uuid}"\\} [1-9]`));

  // Down for a few samples: they come once the agent is back, in order, none dropped.
  const port = ctl.port;
  await ctl.stop();
  const downAt = Date.now();
  await eventually(() => agent.usage.buffered >= 3, 'samples buffered while down');
  const before = ctl.received.length;
  await ctl.start(port);
  await eventually(() => ctl.received.slice(before).some((r) => r.msg.usage && (r.msg.usage.samples ?? []).some((s) => (s.timeMs ?? 0) > downAt)), 'buffered samples after the reconnect');
  const times = usages().map((s) => s.timeMs ?? 0);
  t.deepEqual(times, [...times].sort((a, b) => a - b), 'samples in order');
  t.is(new Set(times).size, times.length, 'none twice');
  t.is(agent.usage.dropped, 0);
});
