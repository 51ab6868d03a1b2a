/**
 * Readiness: an instance is ready once every required port listens on the host (read from
 * /proc/net, ports.ts). Most apps listen within milliseconds, so the first looks come soon,
 * then less and less often: at most EARLY_POLL_MS apart during the first EARLY_MS (where most
 * starts end: a wait of up to `pollMs` there would be most of the start's time), up to `pollMs`
 * after that; less often in the first second when many starts wait at once (EARLY_SHARED).
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

/**
 * How many starts may look every EARLY_POLL_MS at once: with more waiting (a burst of starts,
 * each looking until its app listens), each looks less often in its first second, so that all
 * of them together look about as often as this many would (50 at once: every 40 ms, not 20;
 * each look is a connection or a read of /proc on the agent's thread, which the other starts
 * need meanwhile).
 */
export const EARLY_SHARED = 25;

/** The starts waiting for their ports now (in this process). */
let waiting = 0;

/**
 * The wait before the next look after one of `waitMs`: growing by half each time, at most
 * EARLY_POLL_MS (times waiting / EARLY_SHARED when more wait) while `early`, at most `pollMs`.
 */
export function nextWait(waitMs: number, pollMs: number, early: boolean, waitingNow: number): number {
  const earlyCap = EARLY_POLL_MS * Math.max(1, waitingNow / EARLY_SHARED);
  return Math.min(pollMs, early ? earlyCap : Infinity, waitMs * 1.5);
}

/** Resolves `ready`, `gone`, or `timeout` with the first port still missing at the deadline. */
export async function awaitListening(o: ReadinessOptions): Promise<Readiness> {
  let waitMs = Math.min(5, o.pollMs);
  const early = o.now() + EARLY_MS;
  waiting++;
  try {
    for (;;) {
      if (o.gone()) return { kind: 'gone' };
      const listening = o.required.length ? await (o.listening ?? listeningPorts)() : new Set<number>();
      const missing = o.required.find((p) => !listening.has(p));
      if (o.gone()) return { kind: 'gone' };
      if (missing === undefined) return { kind: 'ready' };
      if (o.now() >= o.deadlineMs) return { kind: 'timeout', missing };
      await new Promise((r) => setTimeout(r, waitMs).unref());
      waitMs = nextWait(waitMs, o.pollMs, o.now() < early, waiting);
    }
  } finally {
    waiting--;
  }
}
