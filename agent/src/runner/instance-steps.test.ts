import test from 'ava';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { instanceStateName, type InstanceReport } from '@platform/proto';
import { IllegalTransitionError, JsonLogger, MemorySink, silentLogger } from '@platform/proto/common';
import { Cgroups } from '../isolation/cgroups.js';
import { ProcessDriver } from '../isolation/process.js';
import { AgentMetrics } from '../metrics/metrics.js';
import { PackageCache } from '../packages/cache.js';
import { Harness } from '../test-support/harness.js';
import { tempDir } from '../test-support/temp.js';
import type { InstanceContext, InstanceStep, RunnerDeps } from './context.js';
import { INSTANCE_MACHINE, InstanceRunner } from './instance.js';
import { PortAllocator } from './ports.js';
import { normalizeSpec } from './spec.js';
import { INSTANCE_STEPS } from './steps/index.js';

/** `step`, journaling each call before it does the real work; `release` optionally fails afterwards. */
function journaled(journal: string[], step: InstanceStep, failRelease?: string): InstanceStep {
  return {
    name: step.name,
    async prepare(ctx) {
      journal.push(`prepare ${step.name}`);
      await step.prepare?.(ctx);
    },
    started(ctx) {
      journal.push(`started ${step.name}`);
      step.started?.(ctx);
    },
    async release(ctx) {
      journal.push(`release ${step.name}`);
      await step.release?.(ctx);
      if (failRelease) throw new Error(failRelease);
    },
  };
}

test('runner: a failing setup step ends the setup at once, and the steps it prepared are released in reverse order', async (t) => {
  const journal: string[] = [];
  let seen: InstanceContext | undefined;
  const probe: InstanceStep = {
    name: 'probe',
    prepare(ctx) {
      seen = ctx;
      journal.push('prepare probe');
      throw new Error('the probe found nothing');
    },
    release: () => void journal.push('release probe'),
  };
  const steps = INSTANCE_STEPS.map((s) => journaled(journal, s));
  steps.splice(steps.findIndex((s) => s.name === 'ports') + 1, 0, probe);
  const h = new Harness(undefined, undefined, false, { steps });
  t.teardown(() => h.close());
  const spec = h.spec({ process: { startCommand: 'exec sleep 60' }, ports: [{ number: 0 }] });
  h.manager.start(spec);
  const removed = await h.waitState(spec.instanceUuid!, 'REMOVED');
  t.true(removed.failed);
  t.is(removed.reason, 'the probe found nothing');
  t.deepEqual(h.states(spec.instanceUuid!), ['NEW', 'SETUP', 'TEARDOWN', 'REMOVED']);
  t.deepEqual(journal, ['prepare logs', 'prepare packages', 'prepare ports', 'prepare probe', 'release probe', 'release ports', 'release packages', 'release logs']);
  t.is(seen?.rec.allocatedPorts.length, 0, 'the allocated port went back');
  t.regex(removed.ports?.[0] ?? '', /^127\.0\.0\.1:\d+$/, 'the port it had is still reported');
  t.false(existsSync(join(h.dir, 'instances', spec.instanceUuid!)));
});

test('runner: teardown releases every step even when some fail, logs each failure, and still removes the instance', async (t) => {
  const journal: string[] = [];
  const sink = new MemorySink();
  const steps = INSTANCE_STEPS.map((s) => journaled(journal, s, s.name === 'cgroups' || s.name === 'templates' ? `${s.name} would not go` : undefined));
  const h = new Harness(undefined, undefined, false, { steps, log: new JsonLogger(sink, 'debug') });
  t.teardown(() => h.close());
  const spec = h.spec({ process: { startCommand: 'exec sleep 60' } });
  h.manager.start(spec);
  await h.waitState(spec.instanceUuid!, 'RUNNING');
  const names = INSTANCE_STEPS.map((s) => s.name);
  t.deepEqual(journal, [...names.map((n) => `prepare ${n}`), ...names.map((n) => `started ${n}`)], 'every step heard of the start, once');
  h.manager.stop({ instanceUuid: spec.instanceUuid!, reason: 'test' });
  const removed = await h.waitState(spec.instanceUuid!, 'REMOVED');
  t.false(removed.failed, 'a failed release does not change how the instance ended');
  t.deepEqual(journal.filter((l) => l.startsWith('release')), [...names].reverse().map((n) => `release ${n}`));
  t.false(existsSync(join(h.dir, 'instances', spec.instanceUuid!)));
  const mine = sink.lines.filter((l) => l['instance'] === spec.instanceUuid);
  t.deepEqual(mine.filter((l) => l['msg'] === 'setup step failed to release').map((l) => l['step']), ['cgroups', 'templates']);
  const summary = mine.find((l) => l['msg'] === 'instance teardown incomplete');
  t.is((summary?.['err'] as { message?: string } | undefined)?.message, '2 step(s) failed to release: cgroups: cgroups would not go; templates: templates would not go');
  // Every state change is logged, from and to.
  t.deepEqual(
    mine.filter((l) => l['msg'] === 'instance state').map((l) => `${String(l['from'])}>${String(l['to'])}`),
    ['NEW>SETUP', 'SETUP>STARTING', 'STARTING>FIRST_RUNNING', 'FIRST_RUNNING>RUNNING', 'RUNNING>STOPPING', 'STOPPING>TEARDOWN', 'TEARDOWN>REMOVED'],
  );
});

test('runner: the instance table refuses what the diagram does not draw, with a typed error', (t) => {
  t.is(INSTANCE_MACHINE.check('SETUP', 'TEARDOWN'), 'TEARDOWN');
  t.is(INSTANCE_MACHINE.check('RUNNING', 'RUNNING'), 'RUNNING', 'a re-attached instance reports RUNNING again');
  for (const [from, to] of [['NEW', 'RUNNING'], ['SETUP', 'STOPPING'], ['STOPPING', 'RUNNING'], ['TEARDOWN', 'SETUP'], ['REMOVED', 'TEARDOWN'], ['RUNNING', 'STARTING_WAIT']] as const) {
    const err = t.throws(() => INSTANCE_MACHINE.check(from, to), { instanceOf: IllegalTransitionError });
    t.is(err.machine, 'instance');
    t.is(err.from, from);
    t.is(err.to, to);
  }
});

test('runner: a stop that arrives while the process is being spawned is carried out once it runs', async (t) => {
  const dir = tempDir(t, 'agent-runner-');
  const metrics = new AgentMetrics();
  const reports: InstanceReport[] = [];
  const stopAtStarting: { runner?: InstanceRunner } = {};
  const deps: RunnerDeps = {
    driver: new ProcessDriver(), cgroups: Cgroups.disabled('tests'), ports: new PortAllocator(), address: '127.0.0.1',
    cache: new PackageCache(join(dir, 'cache'), { fetch: () => { throw new Error('no archives here'); } }, metrics),
    log: silentLogger, metrics, now: Date.now, onFinalLogs: () => undefined, pollMs: 50,
    onReport(report) {
      reports.push(report);
      // STARTING is reported just before the spawn: the stop comes while it is under way.
      if (instanceStateName(report.state) === 'STARTING') void stopAtStarting.runner?.stop({ reason: 'test' });
    },
  };
  const runner = InstanceRunner.create(join(dir, 'instances'), normalizeSpec({ instanceUuid: 'spawning-1', jobUuid: 'job-1', process: { startCommand: 'exec sleep 60', stopTimeoutS: 30 } }), deps);
  stopAtStarting.runner = runner;
  await runner.start();
  await runner.done;
  const last = reports.at(-1)!;
  t.deepEqual(reports.map((r) => instanceStateName(r.state)), ['NEW', 'SETUP', 'STARTING', 'STOPPING', 'TEARDOWN', 'REMOVED']);
  t.true(last.stopRequested);
  t.false(last.failed);
  t.true(last.exited);
});
