/**
 * Reconnect delays: exponential from `baseMs`, capped at `maxMs`, with jitter (each delay is
 * drawn between half and all of the exponential value) so that many agents that lost one
 * controller do not all come back in the same instant. `random` is injected for tests.
 */
export class Backoff {
  #attempt = 0;
  constructor(
    private readonly baseMs = 200,
    private readonly maxMs = 5000,
    private readonly random: () => number = Math.random,
  ) {}

  next(): number {
    const exp = Math.min(this.maxMs, this.baseMs * 2 ** this.#attempt);
    this.#attempt = Math.min(this.#attempt + 1, 30);
    return Math.round(exp / 2 + (exp / 2) * this.random());
  }

  /** The longest delay (after a refusal). */
  max(): number {
    this.#attempt = 30;
    return this.next();
  }

  reset(): void {
    this.#attempt = 0;
  }
}
