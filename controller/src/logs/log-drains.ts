/**
 * LogDrains: a job's log lines, once stored (LogStore.observe), also sent to each of the job's
 * drains as RFC 5424 syslog messages (syslog.ts): APP-NAME the job's uuid, PROCID the instance's
 * uuid, MSGID the stream, structured data with the job's FQN, HOSTNAME the controller's host.
 *
 *   LogStore ─stored lines─▶ lines(owner) ─▶ per job, in order: the job's drains (JobService
 *                                            read path, cached) ─▶ one SyslogSender per drain
 *
 * Never blocks or slows the job's own log: lines() returns at once; each sender queues a bounded
 * number of messages and drops (and counts) beyond it. What a drain dropped is said in the job's
 * log at most once a minute (`note`). A drain removed from its job has its sender closed at the
 * job's next line (or at once through forget()).
 *
 * Prometheus: platform_log_drain_messages_sent_total{drain}, platform_log_drain_messages_dropped_total{drain},
 * platform_log_drain_connected{drain} (TCP: 1 while connected).
 */
import { hostname } from 'node:os';
import type { Logger } from '@platform/proto/common';
import { Counter, Gauge, type Registry } from 'prom-client';
import type { Drain } from '../model/drain.js';
import { parseDrainUrl } from '../model/drain.js';
import type { LogLine } from './log-store.js';
import { formatSyslog, SyslogSender } from './syslog.js';

export interface DrainedJob {
  uuid: string;
  fqn: string;
  drains: readonly Drain[];
}

export interface LogDrainsOptions {
  /** The job of a log owner (undefined: not a job, or deleted). */
  job(uuid: string): Promise<DrainedJob | undefined>;
  /** Writes a line of the platform's own into the job's log. */
  note(job: string, text: string): void;
  log: Logger;
  nowMs(): number;
  registry?: Registry;
  maxQueued?: number;
}

interface Outlet {
  job: string;
  url: string;
  protocol: 'tcp' | 'udp';
  sender: SyslogSender;
  droppedSinceNote: number;
  lastNoteMs: number;
  lastErrorLogMs: number;
}

export class LogDrains {
  readonly #o: LogDrainsOptions;
  readonly #outlets = new Map<string, Outlet>();
  readonly #chains = new Map<string, Promise<void>>();
  readonly #host = hostname();
  readonly #m: { sent: Counter<'drain'>; dropped: Counter<'drain'>; connected: Gauge<'drain'> } | undefined;

  constructor(o: LogDrainsOptions) {
    this.#o = o;
    if (o.registry) {
      const registers = [o.registry];
      this.#m = {
        sent: new Counter({ name: 'platform_log_drain_messages_sent_total', help: 'Log lines written to a drain', labelNames: ['drain'], registers }),
        dropped: new Counter({ name: 'platform_log_drain_messages_dropped_total', help: 'Log lines a drain could not take (queue full, send failed, drain removed)', labelNames: ['drain'], registers }),
        connected: new Gauge({ name: 'platform_log_drain_connected', help: '1 while a TCP drain is connected', labelNames: ['drain'], registers }),
      };
    }
  }

  /** The StoredLinesObserver of the log store: never throws, never waits. */
  lines(owner: string, lines: readonly LogLine[]): void {
    const before = this.#chains.get(owner) ?? Promise.resolve();
    const next = before
      .then(() => this.#deliver(owner, lines))
      .catch((err: unknown) => this.#o.log.warn('log drain delivery failed', { job: owner, err: (err as Error).message }));
    this.#chains.set(owner, next);
    void next.then(() => {
      if (this.#chains.get(owner) === next) this.#chains.delete(owner);
    });
  }

  async #deliver(owner: string, lines: readonly LogLine[]): Promise<void> {
    const mine = [...this.#outlets].filter(([, o]) => o.job === owner);
    const job = mine.length > 0 || lines.length > 0 ? await this.#o.job(owner) : undefined;
    const drains = job?.drains ?? [];
    // Senders of drains that are gone (or changed url or protocol) are closed.
    for (const [uuid, o] of mine) {
      const d = drains.find((x) => x.uuid === uuid);
      if (!d || d.url !== o.url || d.conf.protocol !== o.protocol) this.forget(uuid);
    }
    if (!job) return;
    for (const d of drains) {
      const outlet = this.#outlet(job.uuid, d);
      if (!outlet) continue;
      for (const l of lines) {
        outlet.sender.send(
          formatSyslog({
            priority: l.stream === 'stderr' ? (d.conf.priority & ~7) | 3 : d.conf.priority,
            timeMs: l.time_ms,
            hostname: this.#host,
            appName: job.uuid,
            procId: l.instance || '-',
            msgId: l.stream,
            data: { job: job.fqn },
            message: l.text,
            maxBytes: d.max_size,
          }),
        );
      }
      this.#noteDrops(outlet, d);
    }
  }

  #outlet(job: string, d: Drain): Outlet | undefined {
    const known = this.#outlets.get(d.uuid);
    if (known) return known;
    const target = parseDrainUrl(d.url);
    if ('error' in target) return undefined;
    const drain = d.uuid;
    const outlet: Outlet = {
      job,
      url: d.url,
      protocol: d.conf.protocol,
      droppedSinceNote: 0,
      lastNoteMs: 0,
      lastErrorLogMs: 0,
      sender: new SyslogSender(
        target.host,
        target.port,
        d.conf.protocol,
        {
          sent: (n) => this.#m?.sent.inc({ drain }, n),
          dropped: (n) => {
            this.#m?.dropped.inc({ drain }, n);
            outlet.droppedSinceNote += n;
          },
          connected: (up) => {
            this.#m?.connected.set({ drain }, up ? 1 : 0);
            this.#o.log.info(up ? 'log drain connected' : 'log drain disconnected', { job, drain, url: d.url });
          },
          error: (err) => {
            const now = this.#o.nowMs();
            if (now - outlet.lastErrorLogMs < 60_000) return;
            outlet.lastErrorLogMs = now;
            this.#o.log.warn('log drain unreachable', { job, drain, url: d.url, err: err.message });
          },
        },
        this.#o.maxQueued,
      ),
    };
    this.#outlets.set(d.uuid, outlet);
    if (d.conf.protocol === 'tcp') this.#m?.connected.set({ drain }, 0);
    return outlet;
  }

  /** At most once a minute, the job's log says how many lines a drain dropped. */
  #noteDrops(outlet: Outlet, d: Drain): void {
    const now = this.#o.nowMs();
    if (outlet.droppedSinceNote === 0 || now - outlet.lastNoteMs < 60_000) return;
    const n = outlet.droppedSinceNote;
    outlet.droppedSinceNote = 0;
    outlet.lastNoteMs = now;
    this.#o.note(outlet.job, `[drain] ${d.url}: ${n} log line${n === 1 ? '' : 's'} not delivered (the drain is unreachable or slower than the job's log)`);
  }

  /** Closes the sender of a drain (removed, or its job deleted). */
  forget(drain: string): void {
    const o = this.#outlets.get(drain);
    if (!o) return;
    this.#outlets.delete(drain);
    o.sender.close();
    this.#m?.connected.remove({ drain });
  }

  close(): void {
    for (const uuid of [...this.#outlets.keys()]) this.forget(uuid);
  }
}
