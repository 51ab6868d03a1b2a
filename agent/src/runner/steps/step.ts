/**
 * Setup steps: the parts of an instance's setup, each with what it prepares and how it lets go.
 *
 * Contracts:
 * - `prepare` runs the steps in their fixed order, one at a time, and stops at the first that
 *   fails (or when the signal is aborted between two steps): later steps never run, and the
 *   error (a StepError naming the step) is thrown to the caller.
 * - A step whose `prepare` started is held: it may have done part of its work before failing.
 *   `release` lets go of every held step, in the reverse order, each at most once, and runs
 *   them all even when some fail: their errors are logged and thrown together, in one
 *   ReleaseError. So a setup that fails releases exactly what it prepared.
 * - `adopt` marks one step held whose part was done before the setup (the runner opens the logs
 *   when it creates the instance).
 * - `hold` marks every step held without preparing it, and lets each `restore` what its record
 *   says it holds (reserving it again): an instance found on disk after an agent restart.
 * - `started` tells every step that the process runs (after the spawn, or after a re-attach);
 *   a step that throws there is logged, the others still hear it.
 * - A step's `release` reads what it holds from the context (the instance record), never from
 *   memory of its own `prepare`: after an agent restart, the record is all there is.
 */
import type { Logger } from '@platform/proto/common';

export interface Step<C> {
  /** Short and unique in its list: it names the step in logs and errors. */
  readonly name: string;
  /** Does the step's part of the setup; throws to fail the start. */
  prepare?(ctx: C): Promise<void> | void;
  /** The instance was found on disk after an agent restart: reserve again what its record holds. */
  restore?(ctx: C): void;
  /** The process runs (spawned, or re-attached after an agent restart). */
  started?(ctx: C): void;
  /** Lets go of what the step holds; must be safe after a `prepare` that stopped half-way. */
  release?(ctx: C): Promise<void> | void;
}

/** A step's prepare failed; `cause` is what it threw, and the message is the cause's message. */
export class StepError extends Error {
  override readonly name = 'StepError';
  constructor(
    readonly step: string,
    override readonly cause: unknown,
  ) {
    super(cause instanceof Error ? cause.message : String(cause), { cause });
  }
}

/** Setup stopped between two steps because its signal was aborted. */
export class SetupAbortedError extends Error {
  override readonly name = 'SetupAbortedError';
  constructor(readonly before: string) {
    super(`stopped during setup (before ${before})`);
  }
}

/** Some steps failed to release; `errors` holds one StepError per step, in release order. */
export class ReleaseError extends AggregateError {
  override readonly name = 'ReleaseError';
  constructor(override readonly errors: StepError[]) {
    super(errors, `${errors.length} step(s) failed to release: ${errors.map((e) => `${e.step}: ${e.message}`).join('; ')}`);
  }
}

export class StepRunner<C> {
  readonly #held = new Set<Step<C>>();
  /** How long each step's prepare took in the last setup (ms, rounded to 0.1), in setup order. */
  readonly timings: Record<string, number> = {};

  constructor(
    readonly steps: readonly Step<C>[],
    private readonly log: Logger,
  ) {
    const names = new Set(steps.map((s) => s.name));
    if (names.size !== steps.length) throw new Error(`setup steps must have distinct names: ${steps.map((s) => s.name).join(', ')}`);
  }

  /** Names of the steps held now, in setup order. */
  get held(): string[] {
    return this.steps.filter((s) => this.#held.has(s)).map((s) => s.name);
  }

  async prepare(ctx: C, signal?: AbortSignal): Promise<void> {
    for (const step of this.steps) {
      if (signal?.aborted) throw new SetupAbortedError(step.name);
      this.#held.add(step);
      const t0 = performance.now();
      try {
        await step.prepare?.(ctx);
      } catch (err) {
        throw err instanceof StepError ? err : new StepError(step.name, err);
      } finally {
        this.timings[step.name] = Math.round((performance.now() - t0) * 10) / 10;
      }
    }
  }

  /** Marks step `name` held: its part was done outside `prepare` (before the setup). */
  adopt(name: string): void {
    const step = this.steps.find((s) => s.name === name);
    if (step) this.#held.add(step);
  }

  hold(ctx: C): void {
    for (const step of this.steps) this.#held.add(step);
    this.#each('restore', ctx);
  }

  started(ctx: C): void {
    this.#each('started', ctx);
  }

  /** Calls `hook` of every step that has one, in order; a step that throws is logged, the others still run. */
  #each(hook: 'restore' | 'started', ctx: C): void {
    for (const step of this.steps) {
      try {
        step[hook]?.(ctx);
      } catch (err) {
        this.log.warn(`setup step failed (${hook})`, { step: step.name, err });
      }
    }
  }

  async release(ctx: C): Promise<void> {
    const errors: StepError[] = [];
    for (const step of [...this.steps].reverse()) {
      if (!this.#held.delete(step)) continue;
      try {
        await step.release?.(ctx);
      } catch (err) {
        const e = new StepError(step.name, err);
        this.log.warn('setup step failed to release', { step: step.name, err });
        errors.push(e);
      }
    }
    if (errors.length > 0) throw new ReleaseError(errors);
  }
}
