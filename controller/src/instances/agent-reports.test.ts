import test from 'ava';
import type { InstanceReport } from '@platform/proto';
import type { AgentRecord } from '../agents/agent-directory.js';
import { ActorRegistry } from '../actors/actor-registry.js';
import { silentLogger } from '@platform/proto/common';
import { ManualClock } from '../util/clock.js';
import type { JobActor } from '../jobs/job-actor.js';
import type { LogStore } from '../logs/log-store.js';
import type { InstanceRecord } from '../model/instance.js';
import { TestCluster, report } from '../scheduler/cluster.test-fixture.js';
import { AgentReports } from './agent-reports.js';

function record(uuid: string, extra: Partial<InstanceRecord> = {}): InstanceRecord {
  return {
    uuid, job_uuid: 'job1', job_version_id: 1, run_hash: 'h', agent_uuid: 'a1', host: 'host-a1', state: 'RUNNING',
    exited: false, exit_code: 0, failed: false, reason: '', ports: {},
    resources: { cpu: 0, memory: 0, disk: 0, network: 0, netmax: 0 }, created_ms: 0, updated_ms: 0, ...extra,
  };
}

/** What the JobActors were asked after a Welcome. */
interface Calls {
  reports: [string, InstanceReport][];
  missing: string[];
}

async function setup(): Promise<{ cluster: TestCluster; reports: AgentReports; calls: Calls; agent: AgentRecord }> {
  const cluster = await new TestCluster().start();
  const reports = new AgentReports(cluster.deps, cluster.agents, {} as LogStore, { packagesFor: async () => [] });
  const calls: Calls = { reports: [], missing: [] };
  const actor = {
    applyReport: async (agent: string, r: InstanceReport) => void calls.reports.push([agent, r]),
    instanceMissing: async (instance: string) => void calls.missing.push(instance),
  };
  reports.attach({ get: async () => actor, touch: () => undefined } as unknown as ActorRegistry<JobActor>);
  const agent = { uuid: 'a1', hostname: 'host-a1' } as AgentRecord;
  return { cluster, reports, calls, agent };
}

test('agent hello: the agent keeps its live instances that are still placed on it, and stops everything else', async (t) => {
  const { cluster, reports, calls, agent } = await setup();
  reports.table.put(record('keep'));
  reports.table.put(record('moved', { agent_uuid: 'a2' }));
  reports.table.put(record('removed', { state: 'REMOVED' }));
  reports.table.put(record('stopping', { stop: 'scale' }));
  const decision = await reports.hello(agent, ['keep', 'moved', 'removed', 'stopping', 'unknown'].map((u) => report(u, 'RUNNING')));
  t.deepEqual(decision.adopt, ['keep']);
  t.deepEqual(decision.stop, ['moved', 'removed', 'stopping', 'unknown']);
  t.deepEqual(calls.reports, [], 'nothing reaches the actors before the Welcome is sent');
  decision.afterWelcome?.();
  await new Promise((resolve) => setImmediate(resolve));
  t.deepEqual(calls.reports.map(([a, r]) => [a, r.instanceUuid]), [['a1', 'keep']], "the kept instance's state goes to its actor");
  cluster.stop();
});

test('agent hello: instances placed on the agent that it no longer lists are reported missing to their actors', async (t) => {
  const { cluster, reports, calls, agent } = await setup();
  reports.table.put(record('listed'));
  reports.table.put(record('forgotten'));
  reports.table.put(record('old', { state: 'REMOVED' }));
  reports.table.put(record('elsewhere', { agent_uuid: 'a2' }));
  const decision = await reports.hello(agent, [report('listed', 'RUNNING')]);
  t.deepEqual(decision.adopt, ['listed']);
  t.deepEqual(decision.stop, []);
  decision.afterWelcome?.();
  await new Promise((resolve) => setImmediate(resolve));
  t.deepEqual(calls.missing, ['forgotten']);
  cluster.stop();
});

test('agent hello: a one-off run is kept only while the controller follows it', async (t) => {
  const { cluster, reports, agent } = await setup();
  reports.table.put(record('followed', { run: { id: 'r1', package: 'p1' } }));
  reports.table.put(record('orphan', { run: { id: 'r2', package: 'p2' } }));
  reports.followRuns({ packageOf: (uuid) => (uuid === 'followed' ? 'p1' : undefined), runEnded: () => undefined });
  const decision = await reports.hello(agent, [report('followed', 'RUNNING'), report('orphan', 'RUNNING')]);
  t.deepEqual(decision.adopt, ['followed']);
  t.deepEqual(decision.stop, ['orphan']);
  cluster.stop();
});

test('reports of a job reach its actor in the order they came, also when the actor became live while the first was on its way to it', async (t) => {
  const cluster = await new TestCluster().start();
  t.teardown(() => cluster.stop());
  const reports = new AgentReports(cluster.deps, cluster.agents, {} as LogStore, { packagesFor: async () => [] });
  const applied: string[] = [];
  const actor = {
    id: 'job1', lastActiveMs: 0, busy: false, mailboxDepth: 0, stop: async () => undefined,
    applyReport: async (_agent: string, r: InstanceReport) => void applied.push(r.instanceUuid ?? ''),
  };
  let loaded!: () => void;
  const registry = new ActorRegistry<JobActor>({
    kind: 'job', clock: new ManualClock(), log: silentLogger, idleMs: 60_000,
    load: () => new Promise((resolve) => (loaded = () => resolve(actor as unknown as JobActor))),
  });
  reports.attach(registry);
  reports.report('a1', report('i1', 'RUNNING', { jobUuid: 'job1' }));
  loaded();
  // The actor is live once its activation's first step ran, before the first report is given to it.
  await null;
  t.truthy(registry.peek('job1'));
  reports.report('a1', report('i2', 'RUNNING', { jobUuid: 'job1' }));
  await new Promise((resolve) => setImmediate(resolve));
  t.deepEqual(applied, ['i1', 'i2']);
  // Live and nothing on its way: given at once.
  reports.report('a1', report('i3', 'RUNNING', { jobUuid: 'job1' }));
  t.deepEqual(applied, ['i1', 'i2', 'i3']);
});
