/**
 * Readiness: an instance is ready once every required port listens on the host (read from
 * /proc/net, ports.ts). Most apps listen within milliseconds, so the first looks come soon,
 * then less and less often: at most EARLY_POLL_MS apart during the first EARLY_MS (where most
 * starts end: a wait of up to `pollMs` there would be most of the start's time), up to `pollMs`
 * after that.
 */
import { listeningPorts } from './ports.js';

/** How long after the first look the looks stay at most EARLY_POLL_MS apart. */
export const EARLY_MS = 1000;
export const EARLY_POLL_MS = 20;

export type Readiness = { kind: 'ready' } | { kind: 'gone' } | { kind: 'timeout'; missing: number };

export interface ReadinessOptions {
  /** Host ports that must listen (none: ready at once). */
  required: readonly number[];
  deadlineMs: number;
  now: () => number;
  pollMs: number;
  /** True once waiting is moot (the process exited, a stop came): checked before each look and after it. */
  gone: () => boolean;
  /** Where listening ports are read (default: the host's, listeningPorts of ports.ts). */
  listening?: () => Promise<Set<number>>;
}

/** Resolves `ready`, `gone`, or `timeout` with the first port still missing at the deadline. */
export async function awaitListening(o: ReadinessOptions): Promise<Readiness> {
  let waitMs = Math.min(5, o.pollMs);
  const early = o.now() + EARLY_MS;
  for (;;) {
    if (o.gone()) return { kind: 'gone' };
    const listening = o.required.length ? await (o.listening ?? listeningPorts)() : new Set<number>();
    const missing = o.required.find((p) => !listening.has(p));
    if (o.gone()) return { kind: 'gone' };
    if (missing === undefined) return { kind: 'ready' };
    if (o.now() >= o.deadlineMs) return { kind: 'timeout', missing };
    await new Promise((r) => setTimeout(r, waitMs).unref());
    waitMs = Math.min(o.pollMs, o.now() < early ? EARLY_POLL_MS : Infinity, waitMs * 1.5);
  }
}
