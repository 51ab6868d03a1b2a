/**
 * LogShipper: moves new log lines of every instance to the controller session.
 *
 * One timer (every `intervalMs`) walks the tailers: it applies the size cap, and when the session
 * can take messages, reads each tailer's new lines and sends them as LogBatch messages of at most
 * `batchLines` lines, then commits the tailer's offsets. A tick runs synchronously, so the
 * session cannot close halfway through one tailer's lines: they are sent whole or not at all.
 * Lines of each instance stream keep their order.
 *
 * Lines sent also go to the instances' log drains (`drains`, logs/drains.ts), which never block.
 *
 * Lines of removed instances (read to the end at teardown) wait in a bounded queue
 * (`maxFinalLines`, oldest dropped first) until the session is open.
 */
import type { LogLine } from '@platform/proto';
import type { AgentMetrics } from '../metrics/metrics.js';
import type { LogTailer } from './tailer.js';

export interface LogOutlet {
  /** True when a batch can be sent now (open and not backed up). */
  canSend(): boolean;
  /** Sends one batch; false when it could not (nothing sent). */
  sendLogs(lines: LogLine[]): boolean;
}

export interface ShipperOptions {
  intervalMs?: number;
  batchLines?: number;
  maxFinalLines?: number;
  /** Where sent lines also go (the log drains); must not throw or wait. */
  drains?: { lines(lines: readonly LogLine[]): void };
}

export class LogShipper {
  readonly #tailers = new Set<LogTailer>();
  #final: LogLine[] = [];
  /** Lines of the agent's own (not sent to the drains). */
  readonly #notes: LogLine[] = [];
  /** FlushLogs answers waiting for a pass that sends everything. */
  readonly #waiting: (() => void)[] = [];
  #timer: NodeJS.Timeout | undefined;
  readonly #interval: number;
  readonly #batch: number;
  readonly #maxFinal: number;
  readonly #drains: ShipperOptions['drains'];

  constructor(private readonly outlet: LogOutlet, private readonly metrics?: AgentMetrics, opts: ShipperOptions = {}) {
    this.#interval = opts.intervalMs ?? 100;
    this.#batch = opts.batchLines ?? 256;
    this.#maxFinal = opts.maxFinalLines ?? 10_000;
    this.#drains = opts.drains;
  }

  add(tailer: LogTailer): void {
    this.#tailers.add(tailer);
  }

  /** Ships a line of the agent's own in an instance's log (with the next pass). */
  note(line: LogLine): void {
    this.#notes.push(line);
    if (this.#notes.length > 100) this.#notes.shift();
  }

  #drain(lines: readonly LogLine[]): void {
    try {
      this.#drains?.lines(lines);
    } catch {
      // a drain never fails the job's own log
    }
  }

  /** Takes the last lines of a tailer whose instance is being removed; it is not read again. */
  final(tailer: LogTailer): void {
    this.#tailers.delete(tailer);
    for (;;) {
      const lines = tailer.read(1024 * 1024, true);
      if (lines.length === 0) break;
      tailer.commit();
      this.#final.push(...lines);
    }
    if (this.#final.length > this.#maxFinal) this.#final.splice(0, this.#final.length - this.#maxFinal);
    this.tick();
  }

  start(): void {
    if (this.#timer) return;
    this.#timer = setInterval(() => this.tick(), this.#interval);
    this.#timer.unref();
  }

  stop(): void {
    clearInterval(this.#timer);
    this.#timer = undefined;
  }

  /**
   * Calls `done` once every line the instances had written when it was called has been handed to
   * the outlet: at once when this pass sends them all, else after a later pass that does (the
   * session was backed up). The answer to the controller's FlushLogs goes through here, so that it
   * never overtakes the lines it vouches for.
   */
  flushed(done: () => void): void {
    if (this.#pass()) done();
    else this.#waiting.push(done);
  }

  /** One pass (also called directly by tests). */
  tick(): void {
    if (!this.#pass() || this.#waiting.length === 0) return;
    const waiting = this.#waiting.splice(0);
    for (const done of waiting) done();
  }

  /** Sends what can be sent; true when nothing was left behind. */
  #pass(): boolean {
    for (const t of this.#tailers) {
      try {
        t.enforceCap();
        const dropped = t.takeDropped();
        if (dropped) this.metrics?.logBytesDropped.inc(dropped);
      } catch {
        // the instance directory is going away
      }
    }
    if (!this.outlet.canSend()) return false;
    if (this.#notes.length) {
      if (!this.outlet.sendLogs(this.#notes.slice())) return false;
      this.#notes.length = 0;
    }
    while (this.#final.length) {
      const batch = this.#final.slice(0, this.#batch);
      if (!this.outlet.sendLogs(batch)) return false;
      this.metrics?.logLinesSent.inc(batch.length);
      this.#final.splice(0, batch.length);
      this.#drain(batch);
    }
    for (const t of this.#tailers) {
      if (!this.outlet.canSend()) return false;
      let lines: LogLine[];
      try {
        lines = t.read();
      } catch {
        continue;
      }
      if (lines.length === 0) continue;
      let ok = true;
      for (let i = 0; i < lines.length && ok; i += this.#batch) ok = this.outlet.sendLogs(lines.slice(i, i + this.#batch));
      if (!ok) return false;
      this.metrics?.logLinesSent.inc(lines.length);
      t.commit();
      this.#drain(lines);
    }
    return true;
  }
}
