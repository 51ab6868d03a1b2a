/**
 * An agent simulator (as Kubernetes' kubemark or Nomad's nomad-nodesim): thousands of simulated
 * instance managers in one process, each with a real gRPC session of its own with a controller
 * (simulated-agent.ts), for tests and benchmarks of the controller at a scale that real agents
 * on one machine cannot reach.
 *
 *   const sim = new AgentSimulator({ grpcAddress: controller.grpcAddress, joinToken });
 *   await sim.start(50, { total: { cpu: 8000, memory: 16 * GiB }, tags: ['zone-a'] });
 *   await sim.waitFor(() => sim.count('RUNNING') === 200);
 *   sim.kill(3);                       // agent 3's host is gone
 *   sim.exit(instanceUuid, 1);          // an instance's process exits with code 1
 *   await sim.close();
 *
 * Each agent dials over a TCP connection of its own (grpc-js's local subchannel pool), as real
 * hosts do; `sharedConnection` multiplexes every stream on one connection instead.
 */
import { randomUUID } from 'node:crypto';
import { createAgentServiceClient, instanceStateName, type AgentServiceClient, type ControllerMessage, type InstanceReport, type InstanceStateName, type Resources } from '@platform/proto';
import { eventually, type EventuallyOptions } from '../harness/wait.js';
import { SimulatedAgent, type SimulatedInstance } from './simulated-agent.js';

const GiB = 1024 ** 3;

export interface FleetOptions {
  /** What each agent offers; default 16 cores, 64 GiB of memory, 1 TiB of disk. */
  total?: Resources;
  tags?: string[];
  datacenter?: string;
  /** Time from a StartInstance to RUNNING (default 0: one turn later). */
  startDelayMs?: number;
  /** Hostnames are `<prefix>-<index>` (default "sim"). */
  hostnamePrefix?: string;
}

export interface SimulatorOptions {
  /** The controller's gRPC address (host:port). */
  grpcAddress: string;
  joinToken: string;
  /** Every agent's stream on one TCP connection (default: a connection per agent). */
  sharedConnection?: boolean;
}

/** When each start of an instance reached an agent, and when it reported RUNNING. */
export interface StartTiming {
  instance: string;
  agent: string;
  startedAtMs: number;
  runningAtMs?: number;
}

export class AgentSimulator {
  readonly agents: SimulatedAgent[] = [];
  /** StartInstance messages received, in order (a start for an instance already there counts again). */
  readonly starts: StartTiming[] = [];
  readonly #startOf = new Map<string, StartTiming>();
  readonly #jobOf = new Map<string, string>();
  readonly #clients: AgentServiceClient[] = [];
  #shared: AgentServiceClient | undefined;
  /** Reports sent, by state name (REMOVED included). */
  readonly reported = new Map<InstanceStateName, number>();

  constructor(readonly o: SimulatorOptions) {}

  #client(): AgentServiceClient {
    const options = {
      // As the real agent (agent/src/agent.ts).
      'grpc.keepalive_time_ms': 10_000,
      'grpc.keepalive_timeout_ms': 5_000,
      'grpc.keepalive_permit_without_calls': 1,
      'grpc.initial_reconnect_backoff_ms': 200,
      'grpc.max_reconnect_backoff_ms': 5_000,
    };
    if (this.o.sharedConnection) return (this.#shared ??= createAgentServiceClient(this.o.grpcAddress, undefined, options));
    const client = createAgentServiceClient(this.o.grpcAddress, undefined, { ...options, 'grpc.use_local_subchannel_pool': 1 });
    this.#clients.push(client);
    return client;
  }

  /**
   * Adds `count` agents and connects them; resolves once every one of them is welcomed (within
   * `timeoutMs`). Answers the new agents.
   */
  async start(count: number, fleet: FleetOptions = {}, timeoutMs = 60_000): Promise<SimulatedAgent[]> {
    const added: SimulatedAgent[] = [];
    const total = fleet.total ?? { cpu: 16_000, memory: 64 * GiB, disk: 1024 * GiB, network: 0, netmax: 0 };
    for (let n = 0; n < count; n++) {
      const index = this.agents.length;
      const agent = new SimulatedAgent({
        uuid: randomUUID(),
        hostname: `${fleet.hostnamePrefix ?? 'sim'}-${index}`,
        ...(fleet.datacenter ? { datacenter: fleet.datacenter } : {}),
        tags: fleet.tags ?? [],
        total,
        joinToken: this.o.joinToken,
        client: this.#client(),
        ...(fleet.startDelayMs !== undefined ? { startDelayMs: fleet.startDelayMs } : {}),
        onMessage: (a, m) => this.#onMessage(a, m),
        onReport: (a, r, sent) => this.#onReport(a, r, sent),
      });
      this.agents.push(agent);
      added.push(agent);
      agent.connect();
    }
    await this.waitFor(() => added.every((a) => a.welcomes > 0), { timeoutMs, what: `${count} simulated agents welcomed` });
    return added;
  }

  #onMessage(agent: SimulatedAgent, message: ControllerMessage): void {
    const uuid = message.start?.spec?.instanceUuid;
    if (!uuid) return;
    const timing: StartTiming = { instance: uuid, agent: agent.uuid, startedAtMs: Date.now() };
    this.starts.push(timing);
    this.#startOf.set(uuid, timing);
    this.#jobOf.set(uuid, message.start?.spec?.jobUuid ?? '');
  }

  #onReport(_agent: SimulatedAgent, report: InstanceReport, sent: boolean): void {
    if (!sent) return;
    const state = instanceStateName(report.state);
    if (!state) return;
    this.reported.set(state, (this.reported.get(state) ?? 0) + 1);
    if (state === 'RUNNING') {
      const timing = this.#startOf.get(report.instanceUuid ?? '');
      if (timing && timing.runningAtMs === undefined) timing.runningAtMs = Date.now();
    }
  }

  /** The agent at `index` (in the order they were started). */
  agent(index: number): SimulatedAgent {
    const agent = this.agents[index];
    if (!agent) throw new Error(`no simulated agent ${index} (${this.agents.length} started)`);
    return agent;
  }

  /** The job of an instance some agent was told to start (whether or not it still runs). */
  jobOf(instanceUuid: string): string | undefined {
    return this.#jobOf.get(instanceUuid);
  }

  /** The agent that runs `instanceUuid`, if any. */
  agentOf(instanceUuid: string): SimulatedAgent | undefined {
    return this.agents.find((a) => a.instances.has(instanceUuid));
  }

  /** Every live instance of every agent (of one job when given). */
  instances(jobUuid?: string): SimulatedInstance[] {
    const all: SimulatedInstance[] = [];
    for (const a of this.agents) for (const i of a.instances.values()) if (jobUuid === undefined || i.spec.jobUuid === jobUuid) all.push(i);
    return all;
  }

  /** How many live instances are in `state` now, over every agent (of one job when given). */
  count(state: InstanceStateName, jobUuid?: string): number {
    let n = 0;
    for (const a of this.agents) for (const i of a.instances.values()) if (i.state === state && (jobUuid === undefined || i.spec.jobUuid === jobUuid)) n++;
    return n;
  }

  /** Agent `index`'s host is gone (see SimulatedAgent.kill). */
  kill(index: number): SimulatedAgent {
    const agent = this.agent(index);
    agent.kill();
    return agent;
  }

  /** Agent `index` loses its stream and reconnects after `downMs` (its backoff by default). */
  disconnect(index: number, downMs?: number): SimulatedAgent {
    const agent = this.agent(index);
    agent.disconnect(downMs);
    return agent;
  }

  /** The process of `instanceUuid` exits with `exitCode`; false when no agent runs it. */
  exit(instanceUuid: string, exitCode = 0, reason?: string): boolean {
    return this.agentOf(instanceUuid)?.exit(instanceUuid, exitCode, reason) ?? false;
  }

  /** Sessions that ended without the agents asking, by reason, over every agent. */
  drops(): Map<string, number> {
    const all = new Map<string, number>();
    for (const a of this.agents) for (const [why, n] of a.drops) all.set(why, (all.get(why) ?? 0) + n);
    return all;
  }

  /** Every connected agent sends a usage sample; answers how many did. */
  reportUsage(): number {
    let n = 0;
    for (const a of this.agents) if (a.reportUsage()) n++;
    return n;
  }

  /** Waits until `condition` holds (polled every 20-250 ms). */
  async waitFor(condition: () => boolean, o: EventuallyOptions = {}): Promise<void> {
    await eventually(() => condition() || undefined, { intervalMs: 20, ...o });
  }

  /** Ends every session and closes every connection. */
  async close(): Promise<void> {
    for (const a of this.agents) a.close();
    for (const c of this.#clients) c.close();
    this.#shared?.close();
  }
}
