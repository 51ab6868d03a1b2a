/**
 * The running parts of a controller (its actors, the agents' endpoint, the API, the router,
 * background work), each with a name and a stop, so that the order they stop in is written in
 * one place rather than spread over a long start and a long stop.
 *
 * Contracts:
 * - `started` records a part once it runs; only recorded parts are stopped.
 * - `stop` stops every recorded part once: first the phases of `order`, one phase after the
 *   other, the parts of a phase together; then the parts no phase names, in the reverse of the
 *   order they started. A part that fails to stop is logged and the others still stop: their
 *   errors are thrown together, in one PartsStopError, once all are done.
 * - A start that fails half-way calls `stop` too: exactly what started is stopped.
 * - A later `stop` is the same one (each part is stopped at most once).
 */
import type { Logger } from '@platform/proto/common';

export interface Part {
  /** Short and unique among the parts: names the part in the stop order, logs and errors. */
  readonly name: string;
  /** Stops it; `graceful` false when a start failed: nothing is in flight to wait for. */
  stop(graceful: boolean): Promise<void> | void;
}

/** Some parts failed to stop; `errors` holds what each threw, in the order they stopped. */
export class PartsStopError extends AggregateError {
  override readonly name = 'PartsStopError';
  constructor(
    override readonly errors: Error[],
    readonly parts: string[],
  ) {
    super(errors, `${parts.length} part(s) failed to stop: ${parts.map((p, i) => `${p}: ${errors[i]!.message}`).join('; ')}`);
  }
}

export class Parts {
  readonly #started: Part[] = [];
  #stopping: Promise<void> | undefined;

  constructor(private readonly log: Logger) {}

  /** Records a part that runs. */
  started(part: Part): void {
    if (this.#stopping) throw new Error(`part ${part.name} started while the parts stop`);
    if (this.#started.some((p) => p.name === part.name)) throw new Error(`two parts are named ${part.name}`);
    this.#started.push(part);
  }

  /** The names of the running parts, in the order they started. */
  get names(): string[] {
    return this.#started.map((p) => p.name);
  }

  stop(order: readonly (readonly string[])[] = [], graceful = true): Promise<void> {
    this.#stopping ??= this.#stop(order, graceful);
    return this.#stopping;
  }

  async #stop(order: readonly (readonly string[])[], graceful: boolean): Promise<void> {
    const left = new Map(this.#started.map((p) => [p.name, p]));
    const failed: { name: string; err: Error }[] = [];
    const stopOne = async (part: Part) => {
      left.delete(part.name);
      try {
        await part.stop(graceful);
      } catch (err) {
        this.log.error('a part failed to stop', { part: part.name, err });
        failed.push({ name: part.name, err: err instanceof Error ? err : new Error(String(err)) });
      }
    };
    for (const phase of order) {
      const parts = phase.map((name) => left.get(name)).filter((p): p is Part => p !== undefined);
      await Promise.all(parts.map(stopOne));
    }
    for (const part of [...left.values()].reverse()) await stopOne(part);
    if (failed.length > 0) throw new PartsStopError(failed.map((f) => f.err), failed.map((f) => f.name));
  }
}
