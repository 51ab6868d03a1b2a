/**
 * AgentDrains: the log lines of this host's instances, as the shipper reads them, also go to
 * their job's log drains as RFC 5424 syslog messages (@platform/proto/common syslog): APP-NAME
 * the job's uuid, PROCID the instance's uuid, MSGID the stream, structured data with the job's
 * FQN, HOSTNAME this host. Drains are sent by the agents, so they scale with the hosts.
 *
 *   StartInstance.spec.drains / JobDrains ─▶ setJob(job, fqn, drains)
 *   LogShipper ─lines sent to the controller─▶ lines() ─▶ one SyslogSender per drain of the job
 *                                                         (shared by its instances on this host)
 *
 * The drains' addresses are judged by the destination rule at each connection (the controller
 * judged them when they were added, by the name's answer then): a refused one is reported like
 * an unreachable one, with the reason in the job's log.
 *
 * Never blocks the shipper: a sender queues a bounded number of messages and drops (and counts)
 * beyond it; it reconnects after errors with a doubling delay. What a drain dropped is said in the
 * job's log at most once a minute, as a line of the instance (`note`). A drain no longer in its
 * job's list (or whose job has no instance here any more) has its sender closed.
 *
 * Prometheus (the agent's registry): platform_agent_log_drain_messages_sent_total{drain},
 * platform_agent_log_drain_messages_dropped_total{drain}, platform_agent_log_drain_connected{drain}.
 */
import { hostname } from 'node:os';
import type { DrainSpec, LogLine } from '@platform/proto';
import { destinationRefusal, formatSyslog, parseDrainUrl, SyslogSender, type DestinationPolicy, type Logger } from '@platform/proto/common';
import type { AgentMetrics } from '../metrics/metrics.js';

const NOTE_EVERY_MS = 60_000;

interface Outlet {
  job: string;
  spec: Drain;
  sender: SyslogSender;
  droppedSinceNote: number;
  lastNoteMs: number;
  lastErrorLogMs: number;
  /** Why the destination rule refuses the drain's address, once it has. */
  refusal?: string;
}

export interface AgentDrainsOptions {
  log: Logger;
  metrics?: AgentMetrics;
  /** Ships a line of the platform's own in the instance's log. */
  note(line: LogLine): void;
  now?: () => number;
  maxQueued?: number;
  /**
   * The rule the drains' addresses must pass (--allowed-destinations): judged at each
   * connection (TCP) and datagram (UDP) on the address resolved, so that a drain the controller
   * accepted by name cannot reach this host's loopback, its metadata service or the controller.
   */
  destinations?: DestinationPolicy;
}

/** A DrainSpec with its defaults. */
interface Drain {
  uuid: string;
  url: string;
  priority: number;
  protocol: 'tcp' | 'udp';
  maxSize: number;
}

const full = (d: DrainSpec): Drain => ({
  uuid: d.uuid ?? '',
  url: d.url ?? '',
  priority: Math.min(d.priority ?? 14, 191),
  protocol: d.protocol === 'udp' ? 'udp' : 'tcp',
  maxSize: d.maxSize || 2048,
});

export class AgentDrains {
  readonly #jobs = new Map<string, { fqn: string; drains: Drain[] }>();
  /** By drain uuid. */
  readonly #outlets = new Map<string, Outlet>();
  readonly #host = hostname();
  readonly #now: () => number;

  constructor(private readonly o: AgentDrainsOptions) {
    this.#now = o.now ?? Date.now;
  }

  /** The drains of `job` now (an empty list: none, or no instance of it here any more). */
  setJob(job: string, fqn: string, drains: readonly DrainSpec[]): void {
    const list = drains.map(full).filter((d) => d.uuid !== '' && !('error' in parseDrainUrl(d.url)));
    if (list.length === 0) this.#jobs.delete(job);
    else this.#jobs.set(job, { fqn, drains: list });
    for (const [uuid, out] of [...this.#outlets]) {
      if (out.job !== job) continue;
      const d = list.find((x) => x.uuid === uuid);
      if (!d || d.url !== out.spec.url || d.protocol !== out.spec.protocol) this.#forget(uuid);
      else out.spec = d;
    }
  }

  /** Lines read by the shipper: never throws, never waits. */
  lines(lines: readonly LogLine[]): void {
    const touched = new Map<Outlet, LogLine>();
    for (const l of lines) {
      const job = this.#jobs.get(l.jobUuid ?? '');
      if (!job) continue;
      for (const d of job.drains) {
        const out = this.#outlet(l.jobUuid ?? '', d);
        if (!out) continue;
        out.sender.send(
          formatSyslog({
            priority: l.stream === 'stderr' ? (d.priority & ~7) | 3 : d.priority,
            timeMs: l.timeMs ?? this.#now(),
            hostname: this.#host,
            appName: l.jobUuid ?? '',
            procId: l.instanceUuid || '-',
            msgId: l.stream ?? '',
            data: { job: job.fqn },
            message: l.text ?? '',
            maxBytes: d.maxSize,
          }),
        );
        touched.set(out, l);
      }
    }
    for (const [out, last] of touched) this.#noteDrops(out, last);
  }

  #outlet(job: string, d: Drain): Outlet | undefined {
    const known = this.#outlets.get(d.uuid);
    if (known) return known;
    const target = parseDrainUrl(d.url);
    if ('error' in target) return undefined;
    const drain = d.uuid;
    const m = this.o.metrics;
    const out: Outlet = {
      job,
      spec: d,
      droppedSinceNote: 0,
      lastNoteMs: 0,
      lastErrorLogMs: 0,
      sender: new SyslogSender(
        target.host,
        target.port,
        d.protocol,
        {
          sent: (n) => m?.drainSent.inc({ drain }, n),
          dropped: (n) => {
            m?.drainDropped.inc({ drain }, n);
            out.droppedSinceNote += n;
          },
          connected: (up) => {
            m?.drainConnected.set({ drain }, up ? 1 : 0);
            this.o.log.info(up ? 'log drain connected' : 'log drain disconnected', { job, drain, url: d.url });
          },
          error: (err) => {
            const refused = destinationRefusal(err);
            if (refused) out.refusal = refused.message;
            const now = this.#now();
            if (now - out.lastErrorLogMs < NOTE_EVERY_MS) return;
            out.lastErrorLogMs = now;
            this.o.log.warn(refused ? 'log drain refused by the destination rule' : 'log drain unreachable', { job, drain, url: d.url, err: err.message });
          },
        },
        this.o.maxQueued,
        this.o.destinations,
      ),
    };
    this.#outlets.set(drain, out);
    if (d.protocol === 'tcp') m?.drainConnected.set({ drain }, 0);
    return out;
  }

  /** At most once a minute, the job's log says how many lines a drain dropped, or that its address is refused. */
  #noteDrops(out: Outlet, last: LogLine): void {
    const now = this.#now();
    if ((out.droppedSinceNote === 0 && out.refusal === undefined) || now - out.lastNoteMs < NOTE_EVERY_MS) return;
    const n = out.droppedSinceNote;
    out.droppedSinceNote = 0;
    out.lastNoteMs = now;
    this.o.note({
      instanceUuid: last.instanceUuid ?? '',
      jobUuid: out.job,
      stream: 'stderr',
      timeMs: now,
      text:
        out.refusal !== undefined
          ? `[drain] ${out.spec.url}: log lines not delivered: ${out.refusal}`
          : `[drain] ${out.spec.url}: ${n} log line${n === 1 ? '' : 's'} not delivered (the drain is unreachable or slower than the job's log)`,
    });
  }

  #forget(drain: string): void {
    const out = this.#outlets.get(drain);
    if (!out) return;
    this.#outlets.delete(drain);
    out.sender.close();
    this.o.metrics?.drainConnected.remove({ drain });
  }

  close(): void {
    for (const uuid of [...this.#outlets.keys()]) this.#forget(uuid);
    this.#jobs.clear();
  }
}
