/**
 * The running parts of a controller (its actors, the agents' endpoint, the API, the router,
 * background work), each with a name and a stop, so that the order they stop in is written in
 * one place rather than spread over a long start and a long stop.
 *
 * Contracts:
 * - `start` starts a part (its `start`, when it has one) and records it once that resolves;
 *   `startAll` starts parts one after the other in the written order. A part whose start
 *   throws is not recorded (it leaves nothing running: its own start cleans up after itself),
 *   and the start fails with a PartStartError naming it.
 * - `started` records a part that runs already; only recorded parts are stopped.
 * - `stop` stops every recorded part once: first the phases of `order`, one phase after the
 *   other, the parts of a phase together; then the parts no phase names, in the reverse of the
 *   order they started. A part that fails to stop is logged and the others still stop: their
 *   errors are thrown together, in one PartsStopError, once all are done.
 * - A start that fails half-way calls `stop` too: exactly what started is stopped
 *   (`startParts` does it: the parts that started stop, hurried, before the error is thrown).
 * - A later `stop` is the same one (each part is stopped at most once). A group of parts that
 *   starts again (a controller elected again) is a new Parts.
 */
import type { Logger } from '@platform/proto/common';

export interface Part {
  /** Short and unique among the parts: names the part in the stop order, logs and errors. */
  readonly name: string;
  /** Starts it; resolves once it runs. One that throws must leave nothing of it running. */
  start?(): Promise<void> | void;
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

/** A part failed to start; `cause` is what it threw, and the message is the cause's, after the part's name. */
export class PartStartError extends Error {
  override readonly name = 'PartStartError';
  constructor(
    readonly part: string,
    override readonly cause: unknown,
  ) {
    super(`${part} failed to start: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
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

  /** Starts `part` and records it; throws PartStartError when its start fails (it is not recorded then). */
  async start(part: Part): Promise<void> {
    if (this.#stopping) throw new Error(`part ${part.name} started while the parts stop`);
    if (this.#started.some((p) => p.name === part.name)) throw new Error(`two parts are named ${part.name}`);
    try {
      await part.start?.();
    } catch (err) {
      throw err instanceof PartStartError ? err : new PartStartError(part.name, err);
    }
    this.started(part);
  }

  /**
   * Starts part `name` whose start makes what it runs (a listener, or what a restore found),
   * and gives that: `stop` is handed it.
   */
  async startWith<T>(name: string, start: () => Promise<T> | T, stop: (it: T, graceful: boolean) => Promise<void> | void): Promise<T> {
    let made: { it: T } | undefined;
    await this.start({
      name,
      start: async () => {
        made = { it: await start() };
      },
      stop: (graceful) => stop(made!.it, graceful),
    });
    return made!.it;
  }

  /** Starts `parts` one after the other, in their order; stops at the first that fails (see start). */
  async startAll(parts: readonly Part[]): Promise<void> {
    for (const part of parts) await this.start(part);
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

/** Parts started together, stopped together in `order`. */
export interface RunningParts {
  readonly names: string[];
  stop(): Promise<void>;
}

/**
 * Starts `parts` in their order as one group (the parts of a term of an active controller);
 * if one fails to start, those started stop (hurried, in `order`) and the PartStartError is
 * thrown. The group's `stop` stops them in `order`, gracefully.
 */
export async function startParts(log: Logger, parts: readonly Part[], order: readonly (readonly string[])[] = []): Promise<RunningParts> {
  const running = new Parts(log);
  try {
    await running.startAll(parts);
  } catch (err) {
    await running.stop(order, false).catch(() => undefined);
    throw err;
  }
  return { names: running.names, stop: () => running.stop(order) };
}
