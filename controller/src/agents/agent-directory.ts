/**
 * The instance managers (agents) the controller knows: their registration, their live
 * session, and whether they are still there.
 *
 *              Hello                         stream ends
 *   (unknown) ───────▶ connected ◀──────────────────────────▶ disconnected
 *                        │  ▲     Hello again (re-attach)          │
 *   nothing heard for    │  └──────────────────────────────────────┤
 *   `lostAfterMs`        ▼                                          │ nothing heard for `lostAfterMs`
 *                      lost ◀───────────────────────────────────────┘
 *                        │ Hello: comes back; instances the controller moved elsewhere are stopped
 *                        ▼
 *                    connected
 *
 * Contract: `lost` is announced once per loss, after which the controller reschedules the
 * agent's instances; an agent that comes back is reconciled by the Hello/Welcome exchange
 * (`ClusterEvents.hello`). Agents known from the store start `disconnected` when the
 * controller starts; their clock starts only once agents can connect (`watch`, called when
 * the gRPC port listens, not when the state is loaded: restoring jobs and probing built-ins
 * can take seconds), and they get `lostAfterMs` plus `reconnectGraceMs` (an agent that was
 * retrying while the controller was down may wait its longest backoff before its next try)
 * before anything moves.
 */
import { randomUUID } from 'node:crypto';
import { PassThrough, type Readable } from 'node:stream';
import type { ControllerMessage, FilesReply, Hello, JobEgress, InstanceReport, LogBatch, UsageBatch } from '@platform/proto';
import type { Resource } from '../model/job.js';
import { cidrSize, formatCidr, parseCidr, StateMachine, type Logger } from '@platform/proto/common';
import { keys } from '../store/keys.js';
import type { Store } from '../store/store.js';
import type { Clock } from '../util/clock.js';

export interface AgentRecord {
  uuid: string;
  hostname: string;
  datacenter: string;
  tags: string[];
  system_tags: string[];
  total: Resource;
  address: string;
  isolation: string;
  cgroups: boolean;
  version: string;
  /** When the agent process started (UNIX ms). */
  started_at_ms: number;
  /** When the controller first saw this agent. */
  registered_at_ms: number;
  /**
   * The agent's block of the instance subnet pool (CIDR): its instances' own network
   * namespaces take their addresses from it. Given at the agent's first Hello and kept with its
   * record (across restarts of either side); absent when the pool had no block left.
   */
  instance_subnet?: string;
}

export type AgentStatus = 'connected' | 'disconnected' | 'lost';

/**
 * The transitions of the diagram above. An agent enters the directory `connected` (its first
 * Hello) or `disconnected` (known from the store); `connected -> connected` is a new session of
 * the same agent replacing the old one.
 */
export const AGENT_MACHINE = new StateMachine<AgentStatus>('agent', {
  connected: ['connected', 'disconnected', 'lost'],
  disconnected: ['connected', 'lost'],
  lost: ['connected'],
});

/** What the rest of the controller reads of one agent. */
export interface AgentView {
  record: AgentRecord;
  status: AgentStatus;
}

/** The controller's side of one agent's stream. */
export interface AgentConnection {
  send(message: ControllerMessage): boolean;
  /** Ends the stream (the agent reconnects if it still can). */
  close(reason: string): void;
}

/** What the directory tells the rest of the controller. */
export interface ClusterEvents {
  /** An agent (re)registered listing the instances it has: decide which to adopt and which to stop. */
  hello(agent: AgentRecord, instances: InstanceReport[]): Promise<HelloDecision>;
  report(agent: string, report: InstanceReport): void;
  logs(agent: string, batch: LogBatch): void;
  lost(agent: string): void;
  /** An agent joined or came back: placements that waited may now fit. */
  capacityChanged(): void;
}

/** Where the agents' usage batches go (the metrics store); optional, set once at start. */
export interface UsageSink {
  /** A batch from `agent`'s current session, samples oldest first. Must not throw or block. */
  usage(agent: string, hostname: string, batch: UsageBatch): void;
}

export interface HelloDecision {
  adopt: string[];
  stop: string[];
  /** Runs once the Welcome is on the stream (work that sends further messages to the agent). */
  afterWelcome?: () => void;
}

interface Entry {
  record: AgentRecord;
  status: AgentStatus;
  lastHeardMs: number;
  /** Known from the store and not heard from since this controller started. */
  restored?: true;
  connection?: AgentConnection;
  sessionId?: string;
}

export interface AgentDirectoryOptions {
  store: Store;
  clock: Clock;
  log: Logger;
  heartbeatIntervalMs: number;
  lostAfterMs: number;
  /**
   * Extra time an agent known from an earlier run has to reconnect after this controller
   * starts: the agents' longest reconnect backoff (agent/src/session/backoff.ts, 5 s).
   */
  reconnectGraceMs?: number;
  /** The pool agents' instance subnets are carved from, and each block's prefix length (default 10.192.0.0/12 in /24s). */
  instanceSubnets?: { pool: string; prefix: number };
}

/** The default instance subnet pool: a private /12 carved into /24s (4,096 agents of 253 instances). */
export const DEFAULT_INSTANCE_SUBNET_POOL = '10.192.0.0/12';
export const DEFAULT_INSTANCE_SUBNET_PREFIX = 24;

const AGENT_MAX_RECONNECT_DELAY_MS = 5000;

export class AgentDirectory {
  readonly #agents = new Map<string, Entry>();
  /** Agents whose Hello is being handled now (how many at once): the sweep does not judge them. */
  readonly #helloing = new Map<string, number>();
  /** Instance subnets given to agents whose first registration is being written, by agent. */
  readonly #subnetsTaken = new Map<string, string>();
  /** The addresses of each instance subnet held, parsed once (each registration goes through them all). */
  readonly #subnetBlocks = new Map<string, { start: number; end: number }>();
  readonly #pendingFiles = new Map<string, { resolve: (r: FilesReply) => void; timer: NodeJS.Timeout }>();
  readonly #pendingFlushes = new Map<string, { resolve: () => void; timer: NodeJS.Timeout }>();
  readonly #pendingEgress = new Map<string, { resolve: (applied: boolean) => void; timer: NodeJS.Timeout }>();
  readonly #pendingSnapshots = new Map<string, { stream: PassThrough; timer: NodeJS.Timeout }>();
  #events: ClusterEvents | undefined;
  #usage: UsageSink | undefined;
  #sweeper: NodeJS.Timeout | undefined;
  #watching = false;
  /** The sweep's interval (ms), and when it last ran (clock ms). */
  #sweepEveryMs = 1000;
  #lastSweepMs = 0;
  /** The last sweep was skipped as late: the next one decides, however late. */
  #skipped = false;

  constructor(private readonly o: AgentDirectoryOptions) {}

  get heartbeatIntervalMs(): number {
    return this.o.heartbeatIntervalMs;
  }

  /** Loads the agents known from earlier runs; nobody is declared lost before `watch`. */
  async start(events: ClusterEvents): Promise<void> {
    this.#events = events;
    const now = this.o.clock.nowMs();
    for await (const [, value] of this.o.store.iterate({ prefix: keys.agentPrefix })) {
      const record = JSON.parse(value) as AgentRecord;
      this.#agents.set(record.uuid, { record, status: 'disconnected', lastHeardMs: now, restored: true });
    }
  }

  /**
   * Agents can connect from now on: starts the heartbeat sweep. Agents known from earlier runs
   * that have not said Hello yet count their silence from here.
   */
  watch(): void {
    if (this.#watching) return;
    this.#watching = true;
    const now = this.o.clock.nowMs();
    for (const e of this.#agents.values()) if (e.restored) e.lastHeardMs = now;
    const every = Math.max(100, Math.min(1000, this.o.lostAfterMs / 4));
    this.#sweepEveryMs = every;
    this.#lastSweepMs = now;
    this.#sweeper = setInterval(() => this.sweep(), every);
    this.#sweeper.unref();
  }

  stop(): void {
    if (this.#sweeper) clearInterval(this.#sweeper);
    for (const e of this.#agents.values()) e.connection?.close('controller stopping');
    for (const [id, p] of this.#pendingFiles) {
      clearTimeout(p.timer);
      p.resolve({ requestId: id, error: 'the controller is stopping', errorKind: 'unavailable' });
    }
    this.#pendingFiles.clear();
    for (const p of this.#pendingFlushes.values()) {
      clearTimeout(p.timer);
      p.resolve();
    }
    this.#pendingFlushes.clear();
  }

  list(): AgentView[] {
    return [...this.#agents.values()].map(({ record, status }) => ({ record, status }));
  }

  get(uuid: string): AgentView | undefined {
    const e = this.#agents.get(uuid);
    return e ? { record: e.record, status: e.status } : undefined;
  }

  /** Agents that take new instances. */
  connected(): AgentRecord[] {
    // One loop, one list: every placement asks, for every agent.
    const records: AgentRecord[] = [];
    for (const e of this.#agents.values()) if (e.status === 'connected') records.push(e.record);
    return records;
  }

  /** Sends to the agent if it is connected; false otherwise (the caller's state stays pending). */
  send(agent: string, message: ControllerMessage): boolean {
    const e = this.#agents.get(agent);
    if (!e || e.status !== 'connected' || !e.connection) return false;
    return e.connection.send(message);
  }

  /** Asks an agent for a directory listing of an instance's root. */
  listFiles(agent: string, instanceUuid: string, path: string, timeoutMs = 10_000): Promise<FilesReply> {
    const requestId = randomUUID();
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.#pendingFiles.delete(requestId);
        resolve({ requestId, error: `the instance manager did not answer within ${timeoutMs} ms`, errorKind: 'unavailable' });
      }, timeoutMs);
      timer.unref();
      this.#pendingFiles.set(requestId, { resolve, timer });
      if (!this.send(agent, { listFiles: { requestId, instanceUuid, path } })) {
        clearTimeout(timer);
        this.#pendingFiles.delete(requestId);
        resolve({ requestId, error: 'the instance manager of this instance is not connected', errorKind: 'unavailable' });
      }
    });
  }

  /**
   * Resolves once the agent has sent the log lines that the instance had written when the
   * request arrived (they are then handed to `logs` before this resolves: messages of a stream
   * are processed in order), or after `timeoutMs` (an agent that does not know the request, or
   * one that is gone). Never rejects.
   */
  flushLogs(agent: string, instanceUuid: string, timeoutMs = 2_000): Promise<void> {
    const requestId = randomUUID();
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.#pendingFlushes.delete(requestId);
        resolve();
      }, timeoutMs);
      timer.unref();
      this.#pendingFlushes.set(requestId, { resolve, timer });
      if (!this.send(agent, { flushLogs: { requestId, instanceUuid } })) {
        clearTimeout(timer);
        this.#pendingFlushes.delete(requestId);
        resolve();
      }
    });
  }

  logsFlushed(agent: string, sessionId: string, requestId: string): void {
    if (!this.heard(agent, sessionId)) return;
    const pending = this.#pendingFlushes.get(requestId);
    if (!pending) return;
    clearTimeout(pending.timer);
    this.#pendingFlushes.delete(requestId);
    pending.resolve();
  }

  /**
   * Sends a job's outbound openings to an agent and resolves true once it says they are in place
   * (EgressApplied), false after `timeoutMs` (an agent that does not know the request, or one that
   * is gone) or when it cannot be sent. Never rejects.
   */
  applyEgress(agent: string, message: JobEgress, timeoutMs = 5_000): Promise<boolean> {
    const requestId = randomUUID();
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.#pendingEgress.delete(requestId);
        resolve(false);
      }, timeoutMs);
      timer.unref();
      this.#pendingEgress.set(requestId, { resolve, timer });
      if (!this.send(agent, { jobEgress: { ...message, requestId } })) {
        clearTimeout(timer);
        this.#pendingEgress.delete(requestId);
        resolve(false);
      }
    });
  }

  egressApplied(agent: string, sessionId: string, requestId: string): void {
    if (!this.heard(agent, sessionId)) return;
    const pending = this.#pendingEgress.get(requestId);
    if (!pending) return;
    clearTimeout(pending.timer);
    this.#pendingEgress.delete(requestId);
    pending.resolve(true);
  }

  /**
   * Asks an agent for the files an instance changed since its process started (under
   * `directory`), as a gzip tar. The stream fails when the agent does not answer in time.
   */
  requestSnapshot(agent: string, instanceUuid: string, directory: string, timeoutMs = 60_000): Readable {
    const requestId = randomUUID();
    const stream = new PassThrough();
    // The agent may answer with an error before the caller has started reading (it prepares a
    // temporary directory first): without a listener that error would be thrown by the emitter
    // and end the controller. The stream keeps it, and the reader's pipeline rejects with it.
    stream.on('error', () => undefined);
    const timer = setTimeout(() => this.#endSnapshot(requestId, new Error(`the instance manager sent no snapshot within ${timeoutMs} ms`)), timeoutMs);
    timer.unref();
    this.#pendingSnapshots.set(requestId, { stream, timer });
    if (!this.send(agent, { snapshot: { requestId, instanceUuid, directory } })) {
      this.#endSnapshot(requestId, new Error('the instance manager of this instance is not connected'));
    }
    return stream;
  }

  /** The stream of a snapshot that an agent is uploading; taken once, by the upload. */
  takeSnapshot(requestId: string): PassThrough | undefined {
    const pending = this.#pendingSnapshots.get(requestId);
    if (!pending) return undefined;
    clearTimeout(pending.timer);
    this.#pendingSnapshots.delete(requestId);
    return pending.stream;
  }

  #endSnapshot(requestId: string, err: Error): void {
    const stream = this.takeSnapshot(requestId);
    stream?.destroy(err);
  }

  #instanceSubnets(): { pool: string; prefix: number } {
    return this.o.instanceSubnets ?? { pool: DEFAULT_INSTANCE_SUBNET_POOL, prefix: DEFAULT_INSTANCE_SUBNET_PREFIX };
  }

  /**
   * The first block of the instance subnet pool that no other known agent holds, nor one whose
   * registration is being written (`#subnetsTaken`); undefined when none is left. One pass over
   * the blocks held, in address order: with a thousand agents registering, trying each block of
   * the pool against every agent's made their registrations cost seconds of the event loop.
   */
  #freeInstanceSubnet(agent: string): string | undefined {
    const { pool: text, prefix } = this.#instanceSubnets();
    const pool = parseCidr(text);
    const held: { start: number; end: number }[] = [];
    const hold = (uuid: string, subnet: string | undefined) => {
      if (uuid === agent || !subnet) return;
      let block = this.#subnetBlocks.get(subnet);
      if (!block) {
        const c = parseCidr(subnet);
        this.#subnetBlocks.set(subnet, (block = { start: c.base, end: c.base + cidrSize(c) }));
      }
      held.push(block);
    };
    for (const e of this.#agents.values()) hold(e.record.uuid, e.record.instance_subnet);
    for (const [uuid, subnet] of this.#subnetsTaken) hold(uuid, subnet);
    held.sort((a, b) => a.start - b.start);
    const size = cidrSize({ base: 0, prefix });
    const poolEnd = pool.base + cidrSize(pool);
    // `base`: the first block not known to overlap a held one; blocks are aligned on their size from the pool's base.
    let base = pool.base;
    for (const h of held) {
      if (h.end <= base) continue;
      if (h.start >= base + size) break;
      base = pool.base + Math.ceil((h.end - pool.base) / size) * size;
      if (base + size > poolEnd) return undefined;
    }
    return base + size <= poolEnd ? formatCidr({ base, prefix }) : undefined;
  }

  /**
   * A Hello arrived on a new stream: registers (or re-registers) the agent, asks the
   * cluster what to do with the instances it lists, and returns the session id that later
   * calls name. A second session of the same agent replaces the first.
   */
  async hello(hello: Hello, connection: AgentConnection): Promise<HelloDecision & { sessionId: string; instanceSubnet: string }> {
    const events = this.#requireEvents();
    const uuid = hello.agentUuid ?? '';
    const now = this.o.clock.nowMs();
    const previous = this.#agents.get(uuid);
    // Not judged silent while its Hello is handled (a controller that just started takes the
    // Hellos of all its agents at once, each a store write and a reconciliation of its
    // instances, and the last ones wait for the others): its silence counts from its Welcome.
    this.#helloing.set(uuid, (this.#helloing.get(uuid) ?? 0) + 1);
    try {
      return await this.#hello(hello, connection, events, uuid, now, previous);
    } finally {
      const n = (this.#helloing.get(uuid) ?? 1) - 1;
      if (n > 0) this.#helloing.set(uuid, n);
      else this.#helloing.delete(uuid);
    }
  }

  async #hello(hello: Hello, connection: AgentConnection, events: ClusterEvents, uuid: string, now: number, previous: Entry | undefined): Promise<HelloDecision & { sessionId: string; instanceSubnet: string }> {
    const record: AgentRecord = {
      uuid,
      hostname: hello.hostname ?? '',
      datacenter: hello.datacenter ?? '',
      tags: [...(hello.tags ?? [])],
      system_tags: [...(hello.systemTags ?? [])],
      total: {
        cpu: hello.total?.cpu ?? 0,
        memory: hello.total?.memory ?? 0,
        disk: hello.total?.disk ?? 0,
        network: hello.total?.network ?? 0,
        netmax: hello.total?.netmax ?? 0,
      },
      address: hello.address || '127.0.0.1',
      isolation: hello.isolation ?? '',
      cgroups: hello.cgroups ?? false,
      version: hello.version ?? '',
      started_at_ms: hello.startedAtMs ?? now,
      registered_at_ms: previous?.record.registered_at_ms ?? now,
    };
    const subnet = previous?.record.instance_subnet ?? this.#freeInstanceSubnet(uuid);
    if (subnet) record.instance_subnet = subnet;
    else this.o.log.error('the instance subnet pool has no block left: the agent\'s instances get no network of their own', { agent: uuid, pool: this.#instanceSubnets().pool });
    // Taken while the record is written: another agent registering meanwhile must not get it too.
    const taken = subnet !== undefined && previous === undefined;
    if (taken) this.#subnetsTaken.set(uuid, subnet);
    try {
      // An agent that comes back as it was (after a restart of the controller, a reconnection)
      // has nothing to write: a thousand of them at once would be a thousand writes.
      if (JSON.stringify(previous?.record) !== JSON.stringify(record)) await this.o.store.batch([{ type: 'put', key: keys.agent(uuid), value: JSON.stringify(record) }]);
    } finally {
      if (taken && this.#subnetsTaken.get(uuid) === subnet) this.#subnetsTaken.delete(uuid);
    }
    if (previous?.connection) previous.connection.close('replaced by a new session of the same agent');
    const sessionId = randomUUID();
    // Connected before the instances are reconciled, so that Start/Stop sent while deciding reach it.
    const current = this.#agents.get(uuid);
    const status = current ? this.#status(uuid, current, 'connected') : 'connected';
    this.#agents.set(uuid, { record, status, lastHeardMs: this.o.clock.nowMs(), connection, sessionId });
    const wasLost = previous?.status === 'lost';
    this.o.log.info('instance manager connected', {
      agent: uuid, hostname: record.hostname, tags: record.tags, isolation: record.isolation, instances: hello.instances?.length ?? 0,
      ...(wasLost ? { was: 'lost' } : {}),
    });
    const decision = await events.hello(record, [...(hello.instances ?? [])]);
    // Its reconciliation may have waited for others': its silence counts from the Welcome.
    this.heard(uuid, sessionId);
    const after = decision.afterWelcome;
    return {
      sessionId,
      instanceSubnet: record.instance_subnet ?? '',
      ...decision,
      afterWelcome: () => {
        after?.();
        events.capacityChanged();
      },
    };
  }

  /** Anything heard on the agent's current session. Messages of a replaced session are ignored. */
  heard(agent: string, sessionId: string): boolean {
    const e = this.#agents.get(agent);
    if (!e || e.sessionId !== sessionId) return false;
    e.lastHeardMs = this.o.clock.nowMs();
    return true;
  }

  report(agent: string, sessionId: string, report: InstanceReport): void {
    if (this.heard(agent, sessionId)) this.#requireEvents().report(agent, report);
  }

  logs(agent: string, sessionId: string, batch: LogBatch): void {
    if (this.heard(agent, sessionId)) this.#requireEvents().logs(agent, batch);
  }

  /** Usage batches are dropped (after counting the agent as heard) until a sink is set. */
  setUsageSink(sink: UsageSink): void {
    this.#usage = sink;
  }

  usage(agent: string, sessionId: string, batch: UsageBatch): void {
    if (!this.heard(agent, sessionId)) return;
    const e = this.#agents.get(agent);
    if (e) this.#usage?.usage(agent, e.record.hostname, batch);
  }

  files(agent: string, sessionId: string, reply: FilesReply): void {
    if (!this.heard(agent, sessionId)) return;
    const pending = this.#pendingFiles.get(reply.requestId ?? '');
    if (!pending) return;
    clearTimeout(pending.timer);
    this.#pendingFiles.delete(reply.requestId ?? '');
    pending.resolve(reply);
  }

  /** The stream of a session ended; the agent has `lostAfterMs` to come back. */
  disconnected(agent: string, sessionId: string, why: string): void {
    const e = this.#agents.get(agent);
    if (!e || e.sessionId !== sessionId) return;
    e.status = this.#status(agent, e, 'disconnected');
    delete e.connection;
    delete e.sessionId;
    this.o.log.warn('instance manager disconnected', { agent, hostname: e.record.hostname, why });
  }

  /**
   * Declares lost every agent silent for too long (run by `watch`'s timer; public for tests). A sweep
   * that comes more than two intervals after the one before (this process was stalled) is put off
   * once, so that the heartbeats that waited are read first.
   */
  sweep(): void {
    if (!this.#watching) return;
    const now = this.o.clock.nowMs();
    const sinceLast = now - this.#lastSweepMs;
    this.#lastSweepMs = now;
    if (sinceLast > 2 * this.#sweepEveryMs && !this.#skipped) {
      // This process did not run for a while (its event loop blocked by a disk stall during a
      // commit, a long garbage collection, a suspended host). Timers run before the I/O that
      // waited, so the heartbeats sent meanwhile are not read yet: the silence is this process's.
      // The next sweep, after they are read, decides.
      this.#skipped = true;
      this.o.log.warn('agent sweep put off: this controller did not run for a while; silent agents are judged at the next sweep', {
        late_ms: sinceLast - this.#sweepEveryMs,
      });
      return;
    }
    this.#skipped = false;
    const grace = this.o.reconnectGraceMs ?? AGENT_MAX_RECONNECT_DELAY_MS;
    for (const [uuid, e] of this.#agents) {
      if (this.#helloing.has(uuid)) continue;
      if (e.status === 'lost' || now - e.lastHeardMs < this.o.lostAfterMs + (e.restored ? grace : 0)) continue;
      const connection = e.connection;
      e.status = this.#status(uuid, e, 'lost');
      delete e.connection;
      delete e.sessionId;
      connection?.close('no heartbeat');
      delete e.restored;
      this.o.log.warn('instance manager lost', { agent: uuid, hostname: e.record.hostname, silent_ms: now - e.lastHeardMs });
      this.#requireEvents().lost(uuid);
    }
  }

  /** The one setter of an agent's status: refuses what AGENT_MACHINE does not allow, logs the change. */
  #status(agent: string, e: Entry, to: AgentStatus): AgentStatus {
    return AGENT_MACHINE.transition(e.status, to, this.o.log, { agent });
  }

  #requireEvents(): ClusterEvents {
    if (!this.#events) throw new Error('agent directory is not started');
    return this.#events;
  }
}
