/**
 * The restart decision of one job: whether an instance that ended is replaced, how long to
 * wait first, and when a crash loop must stop (the job goes `errored`). It owns the decision
 * so that the reconciler only asks.
 *
 *   restart_mode  always   replace every instance that ends on its own
 *                 failure  replace only instances that failed (non-zero exit, signal, failed start)
 *                 no       never replace; the slot is finished
 *   maximum_attempts > 0   more consecutive restarts than this -> errored
 *   flapping               restarts within `flapping_window` s reach `flapping_minimum_restarts` and
 *                          at least `flapping_percent` of `num_instances` -> errored
 *
 * A growing delay separates restarts: 0.5 s, 1 s, 2 s ... up to 30 s. An instance that ran for
 * `stableAfterMs` before it ended resets the consecutive count (and so the delay).
 * Instances that the controller stopped (scale down, replacement, job stop) are not restarts;
 * an instance moved because its agent was lost is replaced at once and is not counted either.
 */
import type { InstanceRecord } from '../model/instance.js';
import type { Job } from '../model/job.js';

export interface RestartDecision {
  replace: boolean;
  /** Set when the job must stop its crash loop. */
  errored?: string;
}

export const RESTART_BASE_DELAY_MS = 500;
export const RESTART_MAX_DELAY_MS = 30_000;

export class RestartTracker {
  #restarts: number[] = [];
  #consecutive = 0;
  #notBefore = 0;
  #flapping = false;

  constructor(private readonly stableAfterMs = 60_000) {}

  /** No new instance of a restart before this time (UNIX ms). */
  get notBefore(): number {
    return this.#notBefore;
  }

  /** True once the job was put in `errored` for flapping, until it is started again. */
  get flapping(): boolean {
    return this.#flapping;
  }

  /** A fresh start of the job (a user start): forget the history. */
  reset(): void {
    this.#restarts = [];
    this.#consecutive = 0;
    this.#notBefore = 0;
    this.#flapping = false;
  }

  /** The decision for an instance of `job` that reached REMOVED at `nowMs`. */
  ended(job: Job, instance: InstanceRecord, nowMs: number): RestartDecision {
    const mode = job.restart.restart_mode;
    if (instance.lost) return { replace: true };
    if (instance.stop === 'user') return { replace: mode === 'always' };
    if (instance.stop) return { replace: false };
    const replace = mode === 'always' || (mode === 'failure' && instance.failed);
    if (!replace) return { replace: false };

    if (instance.running_since_ms !== undefined && nowMs - instance.running_since_ms >= this.stableAfterMs) this.#consecutive = 0;
    this.#consecutive++;
    const windowMs = job.rollout.flapping_window * 1000;
    this.#restarts = this.#restarts.filter((t) => nowMs - t < windowMs);
    this.#restarts.push(nowMs);
    this.#notBefore = nowMs + Math.min(RESTART_MAX_DELAY_MS, RESTART_BASE_DELAY_MS * 2 ** (this.#consecutive - 1));

    const max = job.restart.maximum_attempts;
    if (max > 0 && this.#consecutive > max) {
      return { replace: false, errored: `instances failed ${this.#consecutive} times in a row (maximum_attempts ${max}): ${instance.reason || 'exited'}` };
    }
    const recent = this.#restarts.length;
    const { flapping_minimum_restarts: minimum, flapping_percent: percent } = job.rollout;
    if (windowMs > 0 && minimum > 0 && recent >= minimum && recent / Math.max(1, job.num_instances) >= percent) {
      this.#flapping = true;
      return {
        replace: false,
        errored: `flapping: ${recent} restarts within ${job.rollout.flapping_window} s (last: ${instance.reason || `exit code ${instance.exit_code}`})`,
      };
    }
    return { replace: true };
  }
}
