/**
 * The job state machine, as far as the API drives it.
 *
 *            POST without packages            POST with packages
 *   (none) ─────────────────────▶ created    (none) ─────────────▶ ready
 *
 *   created ──packages added──▶ ready ──packages removed──▶ created
 *   ready | stopped | errored | finished ──start──▶ started
 *   started | errored ──stop──▶ stopped
 *   started ──(scheduler: crash loop)──▶ errored        (agents, a later capability)
 *
 *   ready ··package staging··▶ staging ··package failed··▶ staging_failed   (shown, not stored:
 *         ◀·····package ready····                                        `shownJobState`)
 *
 * Starting needs at least one package; a started job cannot lose all its packages.
 * A stop of a job that is not running changes nothing; so does a start of a
 * started job.
 */
import { ConflictError } from '../errors.js';
import type { JobState, StateRequest } from '../model/job.js';

const STARTABLE: ReadonlySet<JobState> = new Set(['ready', 'stopped', 'errored', 'finished']);
const STOPPABLE: ReadonlySet<JobState> = new Set(['started', 'errored']);

/** The state of a new job. */
export function initialJobState(hasPackages: boolean, request: StateRequest): JobState {
  const base: JobState = hasPackages ? 'ready' : 'created';
  return request === 'start' ? nextJobState(base, hasPackages, 'start') : base;
}

/** The state after a change that leaves the job with or without packages and asks for `request`. */
export function nextJobState(current: JobState, hasPackages: boolean, request: StateRequest): JobState {
  let state = current;
  if (request === 'stop' && STOPPABLE.has(state)) state = 'stopped';
  if (hasPackages && state === 'created') state = 'ready';
  if (!hasPackages && (state === 'ready' || state === 'stopped' || state === 'finished')) state = 'created';
  if (request === 'start') {
    if (state === 'created') throw new ConflictError('a job without packages cannot be started');
    if (state === 'staging' || state === 'staging_failed' || state === 'invalid' || state === 'unknown') {
      throw new ConflictError(`a job in state "${state}" cannot be started`);
    }
    if (STARTABLE.has(state)) state = 'started';
  }
  if (!hasPackages && (state === 'started' || state === 'errored')) {
    throw new ConflictError('a started job cannot lose all its packages; stop it first');
  }
  return state;
}

/**
 * The state a client sees: a `ready` job whose package is being staged shows `staging`, and
 * one whose package failed staging shows `staging_failed` (spec: job states). Computed from the
 * packages' states at read time, so it follows them without a write to the job; starting such
 * a job is refused because its packages are not ready.
 */
export function shownJobState(stored: JobState, packageStates: readonly (string | undefined)[]): JobState {
  if (stored !== 'ready') return stored;
  if (packageStates.includes('failed')) return 'staging_failed';
  if (packageStates.includes('staging')) return 'staging';
  return stored;
}
