/**
 * A small cluster for unit tests of the scheduler and the JobActor: the in-memory store, a
 * ManualClock, predictable ids, a real AgentDirectory whose agents are fake connections that
 * record what the controller sends them, and the real InstanceTable. Not shipped (`*.test.*`).
 */
import type { ControllerMessage, Hello, InstanceReport, InstanceStateName } from '@platform/proto';
import { instanceStateNumber } from '@platform/proto';
import { DestinationPolicy, parseAllowList, silentLogger } from '@platform/proto/common';
import { AgentDirectory, type ClusterEvents, type HelloDecision } from '../agents/agent-directory.js';
import type { AuditTrail, Deps } from '../context.js';
import { parseJobInput, type Job } from '../model/job.js';
import { MemoryStore } from '../store/memory-store.js';
import { ManualClock } from '../util/clock.js';
import { InstanceTable } from './instance-table.js';
import type { RunDeps } from './reconciler.js';

export const GiB = 1024 ** 3;

const audit: AuditTrail = {
  entry: () => ({ type: 'put', key: 'audit/test', value: '' }),
  record: async () => undefined,
};

export function testDeps(clock = new ManualClock(), store = new MemoryStore()): Deps & { clock: ManualClock; store: MemoryStore } {
  let n = 0;
  return {
    store,
    clock,
    ids: { uuid: () => `00000000-0000-4000-8000-${String(++n).padStart(12, '0')}`, requestId: () => `r${++n}` },
    log: silentLogger,
    audit,
  };
}

/** The destination rules of a JobService (the defaults, plus `allow`: an allow-list). */
export function testDestinations(allow = ''): { drains: DestinationPolicy; metrics: DestinationPolicy } {
  const rule = (purpose: string) => new DestinationPolicy({ purpose, setting: '--allowed-destinations', allow: parseAllowList(allow) });
  return { drains: rule('log drains'), metrics: rule('http_metric urls') };
}

/** A job as the JobActor would hold it, from an API body (defaults applied). */
export function testJob(body: Record<string, unknown> = {}, server: Partial<Job> = {}): Job {
  const parsed = parseJobInput({ fqn: 'job::/t::web', processes: { app: { start_command: 'run' } }, ...body }, () => '00000000-0000-4000-8000-00000000ffff');
  return {
    uuid: 'j0000000-0000-4000-8000-000000000001',
    fqn: parsed.fqn,
    name: parsed.localName,
    ...parsed.spec,
    state: 'started',
    version_id: 1,
    created_at: '',
    updated_at: '',
    created_by: 'u',
    updated_by: 'u',
    ...server,
  };
}

export class TestCluster {
  readonly deps = testDeps();
  readonly table = new InstanceTable();
  readonly agents: AgentDirectory;
  /** What the controller sent to each agent, in order. */
  readonly sent: Map<string, ControllerMessage[]> = new Map();
  readonly waitingJobs = new Set<string>();
  /** What ClusterEvents.hello answers; tests may replace it. */
  onHello: ClusterEvents['hello'] = async () => ({ adopt: [], stop: [] });

  constructor() {
    this.agents = new AgentDirectory({
      store: this.deps.store,
      clock: this.deps.clock,
      log: silentLogger,
      heartbeatIntervalMs: 1000,
      lostAfterMs: 4000,
      reconnectGraceMs: 0,
    });
  }

  get clock(): ManualClock {
    return this.deps.clock;
  }

  async start(): Promise<this> {
    await this.agents.start({
      hello: (agent, instances) => this.onHello(agent, instances),
      report: () => undefined,
      logs: () => undefined,
      lost: () => undefined,
      capacityChanged: () => undefined,
    });
    return this;
  }

  /** An agent with `memoryGiB` of memory says hello; returns the controller's decision. */
  async connect(uuid: string, memoryGiB = 4, more: Partial<Hello> = {}): Promise<HelloDecision & { sessionId: string }> {
    const messages: ControllerMessage[] = [];
    this.sent.set(uuid, messages);
    return this.agents.hello(
      { agentUuid: uuid, hostname: `host-${uuid}`, total: { cpu: 4, memory: memoryGiB * GiB, disk: 100 * GiB, network: 1e9, netmax: 0 }, ...more } as Hello,
      { send: (m) => (messages.push(m), true), close: () => undefined },
    );
  }

  /** The messages sent to `agent` since the last call (and forgets them). */
  take(agent: string): ControllerMessage[] {
    const messages = this.sent.get(agent) ?? [];
    return messages.splice(0, messages.length);
  }

  runDeps(): RunDeps {
    return {
      table: this.table,
      agents: this.agents,
      packagesFor: async () => [],
      waiting: (job, waiting) => (waiting ? this.waitingJobs.add(job) : this.waitingJobs.delete(job)),
    };
  }

  stop(): void {
    this.agents.stop();
  }
}

/** An agent's report that `instance` reached `state`. */
export function report(instance: string, state: InstanceStateName, extra: Partial<InstanceReport> = {}): InstanceReport {
  return { instanceUuid: instance, state: instanceStateNumber(state), ...extra } as InstanceReport;
}
