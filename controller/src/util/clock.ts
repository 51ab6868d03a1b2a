/**
 * Time is injected everywhere through a Clock so that tests can control it.
 *
 * The API promises timestamps with nanosecond precision. Wall-clock milliseconds
 * come from Date.now(); the sub-millisecond digits come from the monotonic
 * high-resolution timer, and the clock never hands out the same nanosecond twice,
 * so `updated_at` strictly increases within one process.
 */
export interface Clock {
  /** Wall time in milliseconds since the UNIX epoch. */
  nowMs(): number;
  /** Wall time in nanoseconds since the UNIX epoch, strictly increasing per clock. */
  nowNs(): bigint;
}

export class SystemClock implements Clock {
  #last = 0n;

  nowMs(): number {
    return Date.now();
  }

  nowNs(): bigint {
    const wall = BigInt(Date.now()) * 1_000_000n + (process.hrtime.bigint() % 1_000_000n);
    this.#last = wall > this.#last ? wall : this.#last + 1n;
    return this.#last;
  }
}

/** A clock that moves only when told to; for unit tests. */
export class ManualClock implements Clock {
  #ns: bigint;

  constructor(startMs = Date.UTC(2026, 0, 1)) {
    this.#ns = BigInt(startMs) * 1_000_000n;
  }

  nowMs(): number {
    return Number(this.#ns / 1_000_000n);
  }

  nowNs(): bigint {
    this.#ns += 1n;
    return this.#ns;
  }

  advance(ms: number): void {
    this.#ns += BigInt(Math.round(ms * 1_000_000));
  }
}

/** Formats nanoseconds since the epoch as ISO 8601 UTC with nine fractional digits. */
export function formatTimestampNs(ns: bigint): string {
  const ms = ns / 1_000_000n;
  const iso = new Date(Number(ms)).toISOString(); // 2026-11-21T22:00:00.123Z
  const fraction = (ns % 1_000_000_000n).toString().padStart(9, '0');
  return `${iso.slice(0, 19)}.${fraction}Z`;
}
