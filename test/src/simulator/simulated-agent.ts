/**
 * One simulated instance manager: a real `Connect` session with the controller (agent.proto),
 * speaking the protocol as agent/src does, but running no process. Instances it is told to start
 * go through the states the real agent reports (NEW, SETUP, STARTING, FIRST_RUNNING, RUNNING)
 * and stay RUNNING until the controller stops them or the test makes them exit.
 *
 *   stopped ─connect()─▶ connecting ──Welcome──▶ welcomed
 *                           ▲                       │ stream error or end, disconnect()
 *                           └──── backoff ◀─────────┘
 *   any ─kill()─▶ dead (the host is gone: no reconnect, its instances with it)
 *
 * What it keeps of the real agent's contract (agent/src/session/session.ts, runner/manager.ts):
 * - Hello at each connect lists every live instance, and those REMOVED while the stream was
 *   down; the Welcome's `stop` list is stopped; heartbeats every heartbeat_interval_ms.
 * - StartInstance for an instance it has answers its current report; StopInstance for one it
 *   does not know answers REMOVED.
 * - Reports are sent in order; while the stream is down they are not queued (the next Hello
 *   carries the latest state).
 * It answers ListFiles with an empty root, FlushLogs at once and Snapshot with an error.
 */
import { instanceStateNumber, joinMetadata, PROTOCOL_VERSION, type AgentMessage, type AgentServiceClient, type ControllerMessage, type grpc, type Hello, type InstanceReport, type InstanceSpec, type InstanceStateName, type Resources, type UsageBatch } from '@platform/proto';

export type SimulatedAgentState = 'stopped' | 'connecting' | 'welcomed' | 'dead';

/** The states a started instance is reported in, as the real agent's runner goes through them. */
export const START_STATES: readonly InstanceStateName[] = ['NEW', 'SETUP', 'STARTING', 'FIRST_RUNNING', 'RUNNING'];

export interface SimulatedAgentOptions {
  uuid: string;
  hostname: string;
  datacenter?: string;
  tags?: string[];
  /** What the host offers (the units of the REST API: cpu ms/s, bytes, bits/s). */
  total: Resources;
  /** The address reported ports are on. */
  address?: string;
  joinToken: string;
  client: AgentServiceClient;
  /** Time from a StartInstance to RUNNING (0: the states follow at once, in one later turn). */
  startDelayMs?: number;
  /** Longest reconnect backoff, as the real agent's (5 s). */
  maxBackoffMs?: number;
  now?: () => number;
  /** Told of each message from the controller, after the agent has handled it. */
  onMessage?: (agent: SimulatedAgent, message: ControllerMessage) => void;
  /** Told of each report the agent sends (and could send: false when the stream is down). */
  onReport?: (agent: SimulatedAgent, report: InstanceReport, sent: boolean) => void;
}

export interface SimulatedInstance {
  uuid: string;
  spec: InstanceSpec;
  state: InstanceStateName;
  createdMs: number;
  stateMs: number;
  exited: boolean;
  exitCode: number;
  failed: boolean;
  reason: string;
  stopRequested: boolean;
  ports: Record<number, string>;
}

type Call = grpc.ClientDuplexStream<AgentMessage, ControllerMessage>;

/** Undelivered REMOVED reports kept for the next Hello, as the real agent keeps them. */
const MAX_UNDELIVERED = 1000;

let nextPort = 20_000;

export class SimulatedAgent {
  readonly instances = new Map<string, SimulatedInstance>();
  readonly #undelivered = new Map<string, InstanceReport>();
  #state: SimulatedAgentState = 'stopped';
  #call: Call | undefined;
  #heartbeat: NodeJS.Timeout | undefined;
  #reconnect: NodeJS.Timeout | undefined;
  #backoffMs = 0;
  #startedAtMs: number;
  readonly #now: () => number;
  /** Heartbeats are not sent while true (a host that hangs with its connection open). */
  #silent = false;
  /** Sessions that ended without the agent asking, by the reason given (gRPC status details). */
  readonly drops = new Map<string, number>();
  /** Welcomes received (1 after the first registration; more after reconnects). */
  welcomes = 0;
  heartbeatIntervalMs = 2000;

  constructor(readonly o: SimulatedAgentOptions) {
    this.#now = o.now ?? Date.now;
    this.#startedAtMs = this.#now();
  }

  get uuid(): string {
    return this.o.uuid;
  }

  get state(): SimulatedAgentState {
    return this.#state;
  }

  /** Instances that are not REMOVED. */
  get live(): SimulatedInstance[] {
    return [...this.instances.values()];
  }

  /** Opens the session (and keeps it open, reconnecting after errors, until kill()). */
  connect(): void {
    if (this.#state !== 'stopped') return;
    this.#open();
  }

  /** Ends the stream as a network fault would; the agent reconnects after `downMs` (its backoff by default). */
  disconnect(downMs?: number): void {
    if (this.#state === 'dead' || this.#state === 'stopped') return;
    const call = this.#call;
    this.#closed();
    call?.cancel();
    this.#scheduleReconnect(downMs);
  }

  /**
   * The host is gone: the stream is cut without a word, no reconnect follows and its instances
   * are gone with it (the controller learns of it only from the missing heartbeats).
   */
  kill(): void {
    if (this.#state === 'dead') return;
    const call = this.#call;
    this.#closed();
    this.#state = 'dead';
    clearTimeout(this.#reconnect);
    call?.cancel();
    this.instances.clear();
    this.#undelivered.clear();
  }

  /** Stops (or resumes) heartbeats while the stream stays open: a hung host. */
  silence(silent = true): void {
    this.#silent = silent;
  }

  /** A killed agent's host comes back (same uuid, no instances) and registers again. */
  revive(): void {
    if (this.#state !== 'dead') return;
    this.#state = 'stopped';
    this.#startedAtMs = this.#now();
    this.#backoffMs = 0;
    this.#open();
  }

  /** Ends the session for good (the controller sees the stream end); for the end of a test. */
  close(): void {
    const call = this.#call;
    this.#closed();
    this.#state = 'dead';
    clearTimeout(this.#reconnect);
    if (call) {
      try {
        call.end();
      } catch {
        // already closed
      }
      call.cancel();
    }
  }

  /** The instance's process exits with `exitCode` (failed when non-zero), as the real runner reports it. */
  exit(instanceUuid: string, exitCode = 0, reason?: string): boolean {
    const instance = this.instances.get(instanceUuid);
    if (!instance) return false;
    instance.exited = true;
    instance.exitCode = exitCode;
    if (exitCode !== 0 && !instance.stopRequested) {
      instance.failed = true;
      instance.reason = reason ?? `exited with code ${exitCode}`;
    }
    this.#enter(instance, 'TEARDOWN');
    this.#enter(instance, 'REMOVED');
    return true;
  }

  /** Sends one usage sample for the host and every RUNNING instance (made-up figures). */
  reportUsage(): boolean {
    const now = this.#now();
    const running = this.live.filter((i) => i.state === 'RUNNING');
    const total = this.o.total;
    const batch: UsageBatch = {
      samples: [
        {
          timeMs: now,
          intervalMs: 10_000,
          host: {
            cpuNs: running.length * 1e7, cpuTotal: ((total.cpu ?? 0) / 1000) * 1e9, memoryUsed: running.length * 32 * 2 ** 20,
            memoryTotal: total.memory ?? 0, diskUsed: 0, diskTotal: total.disk ?? 0, networkRx: 0, networkTx: 0, bandwidthTotal: total.network ?? 0,
          },
          instances: running.map((i) => ({
            instanceUuid: i.uuid, jobUuid: i.spec.jobUuid ?? '', cpuNs: 1e7, memoryUsed: 32 * 2 ** 20,
            memoryLimit: i.spec.resources?.memory ?? 0, diskUsed: 0, diskLimit: i.spec.resources?.disk ?? 0,
            networkRx: 0, networkTx: 0, networkMeasured: false, bandwidthLimit: i.spec.resources?.network ?? 0,
          })),
        },
      ],
      droppedTotal: 0,
    };
    return this.#send({ usage: batch });
  }

  /** Sends log lines of an instance (stdout). */
  log(instanceUuid: string, lines: string[]): boolean {
    const instance = this.instances.get(instanceUuid);
    if (!instance) return false;
    const now = this.#now();
    return this.#send({ logs: { lines: lines.map((text) => ({ instanceUuid, jobUuid: instance.spec.jobUuid ?? '', stream: 'stdout', text, timeMs: now })) } });
  }

  // ---- the session --------------------------------------------------------------------------

  #open(): void {
    this.#state = 'connecting';
    const call = this.o.client.connect(joinMetadata(this.o.joinToken));
    this.#call = call;
    let ended = false;
    const onEnd = (err?: { details?: string; message?: string }) => {
      if (ended) return;
      ended = true;
      if (this.#call !== call) return;
      // Why the session ended (the controller's status details: "no heartbeat" when it declared the agent lost).
      const why = err?.details || err?.message || 'stream ended';
      this.drops.set(why, (this.drops.get(why) ?? 0) + 1);
      this.#closed();
      this.#scheduleReconnect();
    };
    call.on('data', (message: ControllerMessage) => {
      if (this.#call === call) this.#onMessage(message);
    });
    call.on('error', onEnd);
    call.on('end', () => onEnd());
    call.on('close', () => onEnd());
    call.write({ hello: this.#hello() });
  }

  #hello(): Hello {
    return {
      protocolVersion: PROTOCOL_VERSION,
      agentUuid: this.o.uuid,
      hostname: this.o.hostname,
      datacenter: this.o.datacenter ?? '',
      tags: this.o.tags ?? [],
      systemTags: ['isolation:process', 'os:linux', `arch:${process.arch}`, 'cgroups:none'],
      total: this.o.total,
      isolation: 'process',
      cgroups: false,
      startedAtMs: this.#startedAtMs,
      address: this.o.address ?? '127.0.0.1',
      instances: [...this.live.map((i) => this.#report(i)), ...this.#undelivered.values()],
      version: 'simulated',
    };
  }

  /** Stream gone: timers stop; instances stay as they are. */
  #closed(): void {
    this.#call = undefined;
    clearTimeout(this.#heartbeat);
    if (this.#state !== 'dead') this.#state = 'stopped';
  }

  #scheduleReconnect(delayMs?: number): void {
    if (this.#state === 'dead') return;
    clearTimeout(this.#reconnect);
    // As agent/src/session/backoff.ts: 200 ms doubling up to the longest, with jitter.
    this.#backoffMs = Math.min(this.o.maxBackoffMs ?? 5000, this.#backoffMs === 0 ? 200 : this.#backoffMs * 2);
    const delay = delayMs ?? this.#backoffMs * (0.5 + Math.random() / 2);
    this.#reconnect = setTimeout(() => {
      if (this.#state === 'stopped') this.#open();
    }, delay);
    this.#reconnect.unref();
  }

  #send(message: AgentMessage): boolean {
    const call = this.#call;
    if (!call || this.#state !== 'welcomed') return false;
    try {
      call.write(message);
      return true;
    } catch {
      return false;
    }
  }

  #onMessage(message: ControllerMessage): void {
    if (message.welcome) {
      const w = message.welcome;
      if (w.refused) {
        // As the real agent: retried after the longest backoff.
        this.#backoffMs = this.o.maxBackoffMs ?? 5000;
        this.#call?.cancel();
        return;
      }
      this.#state = 'welcomed';
      this.welcomes++;
      this.#backoffMs = 0;
      this.#undelivered.clear();
      this.heartbeatIntervalMs = w.heartbeatIntervalMs || 2000;
      this.#startHeartbeats();
      for (const uuid of w.stop ?? []) this.#stop(uuid, 'controller: not adopted');
    } else if (message.start?.spec) {
      this.#start(message.start.spec);
    } else if (message.stop) {
      this.#stop(message.stop.instanceUuid ?? '', message.stop.reason ?? '');
    } else if (message.listFiles) {
      const requestId = message.listFiles.requestId ?? '';
      if (this.instances.has(message.listFiles.instanceUuid ?? '')) this.#send({ files: { requestId, entries: [] } });
      else this.#send({ files: { requestId, error: 'not_found', errorKind: 'not_found' } });
    } else if (message.flushLogs) {
      this.#send({ logsFlushed: { requestId: message.flushLogs.requestId ?? '' } });
    } else if (message.snapshot) {
      const call = this.o.client.uploadSnapshot(joinMetadata(this.o.joinToken), () => undefined);
      call.write({ requestId: message.snapshot.requestId ?? '', error: 'a simulated instance has no files', errorKind: 'internal' });
      call.end();
    }
    this.o.onMessage?.(this, message);
  }

  #startHeartbeats(): void {
    clearTimeout(this.#heartbeat);
    const beat = () => {
      if (!this.#silent) {
        let memory = 0;
        let cpu = 0;
        for (const i of this.instances.values()) {
          memory += i.spec.resources?.memory ?? 0;
          cpu += i.spec.resources?.cpu ?? 0;
        }
        this.#send({ heartbeat: { sentAtMs: this.#now(), used: { cpu: cpu / 10, memory: memory / 4 } } });
      }
      this.#heartbeat = setTimeout(beat, this.heartbeatIntervalMs);
      this.#heartbeat.unref();
    };
    // Spread over the interval, so that a thousand agents started together do not beat together.
    this.#heartbeat = setTimeout(beat, Math.random() * this.heartbeatIntervalMs);
    this.#heartbeat.unref();
  }

  #start(spec: InstanceSpec): void {
    const uuid = spec.instanceUuid ?? '';
    const existing = this.instances.get(uuid);
    if (existing) {
      this.#sendReport(this.#report(existing));
      return;
    }
    const now = this.#now();
    const ports: Record<number, string> = {};
    for (const p of spec.ports ?? []) {
      const port = nextPort++;
      if (nextPort > 60_000) nextPort = 20_000;
      ports[p.number ?? 0] = `${this.o.address ?? '127.0.0.1'}:${port}`;
    }
    const instance: SimulatedInstance = {
      uuid, spec, state: 'NEW', createdMs: now, stateMs: now, exited: false, exitCode: 0, failed: false, reason: '', stopRequested: false, ports: {},
    };
    this.instances.set(uuid, instance);
    this.#sendReport(this.#report(instance));
    const run = () => {
      // Stopped (or the host died) before it ran.
      if (this.instances.get(uuid) !== instance || instance.state !== 'NEW') return;
      instance.ports = ports;
      for (const state of START_STATES.slice(1)) this.#enter(instance, state);
    };
    const delay = this.o.startDelayMs ?? 0;
    if (delay > 0) setTimeout(run, delay).unref();
    else setImmediate(run);
  }

  #stop(uuid: string, reason: string): void {
    const instance = this.instances.get(uuid);
    if (!instance) {
      this.#sendReport({ instanceUuid: uuid, state: instanceStateNumber('REMOVED'), timeMs: this.#now(), stopRequested: true });
      return;
    }
    instance.stopRequested = true;
    if (instance.state === 'RUNNING' || instance.state === 'FIRST_RUNNING' || instance.state === 'STARTING') {
      this.#enter(instance, 'STOPPING');
      // The application's graceful stop: exit code 0.
      instance.exited = true;
    } else {
      instance.reason = reason;
    }
    this.#enter(instance, 'TEARDOWN');
    this.#enter(instance, 'REMOVED');
  }

  #enter(instance: SimulatedInstance, state: InstanceStateName): void {
    instance.state = state;
    instance.stateMs = this.#now();
    const report = this.#report(instance);
    if (state === 'REMOVED') this.instances.delete(instance.uuid);
    const sent = this.#sendReport(report);
    if (!sent && state === 'REMOVED') {
      this.#undelivered.set(instance.uuid, report);
      if (this.#undelivered.size > MAX_UNDELIVERED) this.#undelivered.delete(this.#undelivered.keys().next().value as string);
    }
  }

  #sendReport(report: InstanceReport): boolean {
    const sent = this.#send({ instance: report });
    this.o.onReport?.(this, report, sent);
    return sent;
  }

  #report(i: SimulatedInstance): InstanceReport {
    return {
      instanceUuid: i.uuid,
      jobUuid: i.spec.jobUuid ?? '',
      jobVersionId: i.spec.jobVersionId ?? 0,
      state: instanceStateNumber(i.state),
      exited: i.exited,
      exitCode: i.exitCode,
      failed: i.failed,
      reason: i.reason,
      ports: i.ports,
      timeMs: i.stateMs,
      createdMs: i.createdMs,
      stopRequested: i.stopRequested,
    };
  }
}
