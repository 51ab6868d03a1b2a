/**
 * What jobs ask of quotas (implemented in quotas/): every change of a job goes through its
 * actor, which asks `admit` before it writes and tells `jobChanged` once written. Both run inside
 * the actor's mailbox, so `current` is the job as written; `admit` is synchronous, and the
 * write, `jobChanged` and `release` follow without another job's admission in between the
 * last two, so that concurrent changes of several jobs cannot overshoot a quota together.
 */
import type { Job } from '../model/job.js';

export interface QuotaHold {
  /** Gives the reservation back: once the change is written (after `jobChanged`), or failed. */
  release(): void;
}

export interface JobQuotas {
  /**
   * Before a change is written (`current` undefined: a create): throws ForbiddenError when
   * `next` raises its namespace's use beyond a quota, else reserves what it adds (a hold to
   * release), or answers undefined when it adds nothing.
   */
  admit(current: Job | undefined, next: Job): QuotaHold | undefined;
  /** The job as written now (undefined: deleted): what it uses from now on. */
  jobChanged(uuid: string, job: Job | undefined): void;
  /** Why the job runs fewer instances than it asked for (autoscaling held at a quota), for its health. */
  note?(uuid: string): string | undefined;
}
