/**
 * Requests per job, as the routers see them: how many, how many answered 5xx, and their latency
 * (time from the request reaching a router to the response head), counted by the job of the
 * instance that served each request. Metric queries and autoscaling read them with `drain()`.
 *
 * Each router counts on its request path (`JobRequestCounter`, plain numbers in a map). The
 * embedded router's counter is read directly; standalone routers send theirs to the controller
 * about once a second (`ReportRequests` in proto/src/router.proto), and `RequestStats` merges
 * everything until the next drain. A report carries its router's id and a sequence number so
 * that one sent again after a lost answer is counted once.
 */

/** Everything one job's requests did in one window (since the previous drain). */
export interface JobRequestWindow {
  jobUuid: string;
  requests: number;
  /** Requests answered 5xx (by the instance, or 502 by the router when the instance failed). */
  errors: number;
  latencySumMs: number;
  latencyMaxMs: number;
  /**
   * Requests by latency: `latencyBuckets[i]` counts those of at most `LATENCY_BUCKETS_MS[i]`
   * milliseconds (not cumulative), the last element those above the largest bound.
   */
  latencyBuckets?: number[];
}

export interface RequestStatsSource {
  /** per job, everything observed since the previous drain, across all routers */
  drain(): JobRequestWindow[];
}

/** Upper bounds (ms) of the latency buckets of `JobRequestWindow.latencyBuckets`. */
export const LATENCY_BUCKETS_MS: readonly number[] = [1, 2.5, 5, 10, 25, 50, 100, 250, 500, 1000, 2500, 5000, 10000];

function emptyWindow(jobUuid: string): Required<JobRequestWindow> {
  return { jobUuid, requests: 0, errors: 0, latencySumMs: 0, latencyMaxMs: 0, latencyBuckets: new Array<number>(LATENCY_BUCKETS_MS.length + 1).fill(0) };
}

function bucketOf(ms: number): number {
  let i = 0;
  while (i < LATENCY_BUCKETS_MS.length && ms > LATENCY_BUCKETS_MS[i]!) i++;
  return i;
}

/** Adds `w` into `into` (same job). */
function mergeInto(into: Required<JobRequestWindow>, w: JobRequestWindow): void {
  into.requests += w.requests;
  into.errors += w.errors;
  into.latencySumMs += w.latencySumMs;
  if (w.latencyMaxMs > into.latencyMaxMs) into.latencyMaxMs = w.latencyMaxMs;
  const b = w.latencyBuckets;
  if (b) for (let i = 0; i < into.latencyBuckets.length && i < b.length; i++) into.latencyBuckets[i]! += b[i]!;
}

/** Sums windows per job. */
class WindowMap {
  #jobs = new Map<string, Required<JobRequestWindow>>();

  of(job: string): Required<JobRequestWindow> {
    let w = this.#jobs.get(job);
    if (!w) {
      w = emptyWindow(job);
      this.#jobs.set(job, w);
    }
    return w;
  }

  add(windows: Iterable<JobRequestWindow>): void {
    for (const w of windows) if (w.jobUuid) mergeInto(this.of(w.jobUuid), w);
  }

  take(): Required<JobRequestWindow>[] {
    const out = [...this.#jobs.values()];
    this.#jobs = new Map();
    return out;
  }
}

/** One router's counts, on its request path. */
export class JobRequestCounter implements RequestStatsSource {
  readonly #windows = new WindowMap();

  /** A request to an instance of `job` answered `status` after `ms` milliseconds. */
  record(job: string, status: number, ms: number): void {
    const w = this.#windows.of(job);
    w.requests++;
    if (status >= 500) w.errors++;
    w.latencySumMs += ms;
    if (ms > w.latencyMaxMs) w.latencyMaxMs = ms;
    w.latencyBuckets[bucketOf(ms)]!++;
  }

  /** Puts counts back (a report that could not be sent goes out with the next). */
  restore(windows: Iterable<JobRequestWindow>): void {
    this.#windows.add(windows);
  }

  drain(): JobRequestWindow[] {
    return this.#windows.take();
  }
}

/** A router not heard from for this long is forgotten (its next report counts whatever its sequence). */
const FORGET_ROUTER_MS = 10 * 60_000;

/**
 * The controller's view across routers: the embedded router's counter (when it runs one) and the
 * reports of standalone routers.
 */
export class RequestStats implements RequestStatsSource {
  readonly #reported = new WindowMap();
  /** Per router id: the last sequence counted and when. */
  readonly #routers = new Map<string, { sequence: number; atMs: number }>();
  #local: RequestStatsSource | undefined;

  constructor(private readonly nowMs: () => number = Date.now) {}

  /** The embedded router's counter, read at each drain. */
  attach(local: RequestStatsSource): void {
    this.#local = local;
  }

  /**
   * A standalone router's report. Returns false (and counts nothing) for a sequence already
   * counted from that router: the report was sent again after its answer was lost.
   */
  report(routerId: string, sequence: number, windows: Iterable<JobRequestWindow>): boolean {
    const now = this.nowMs();
    for (const [id, r] of this.#routers) if (now - r.atMs > FORGET_ROUTER_MS) this.#routers.delete(id);
    const last = this.#routers.get(routerId);
    if (last && sequence <= last.sequence) return false;
    this.#routers.set(routerId, { sequence, atMs: now });
    this.#reported.add(windows);
    return true;
  }

  drain(): JobRequestWindow[] {
    const all = new WindowMap();
    all.add(this.#reported.take());
    if (this.#local) all.add(this.#local.drain());
    return all.take();
  }
}
