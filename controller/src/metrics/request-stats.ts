/**
 * What the metric store takes from the routers: per job, what its requests did since the last
 * drain (router/request-stats.ts, handed over by controller.ts).
 */
import type { JobRequestWindow, RequestStatsSource } from '../router/request-stats.js';

export type { JobRequestWindow, RequestStatsSource };

/**
 * Two consumers of one source (drain() hands a window out once): the metric store, and whoever
 * else drains the controller's request stats. Each drain by one consumer also keeps what it
 * took for the other, summed per job, so that memory stays at one window per job.
 */
export class RequestStatsTee {
  readonly #pending: [Map<string, JobRequestWindow>, Map<string, JobRequestWindow>] = [new Map(), new Map()];
  readonly first: RequestStatsSource;
  readonly second: RequestStatsSource;

  constructor(private readonly source: RequestStatsSource) {
    this.first = { drain: () => this.#drain(0) };
    this.second = { drain: () => this.#drain(1) };
  }

  #drain(me: 0 | 1): JobRequestWindow[] {
    const fresh = this.source.drain();
    for (const w of fresh) addWindow(this.#pending[me === 0 ? 1 : 0], w);
    const mine = this.#pending[me];
    for (const w of fresh) addWindow(mine, w);
    const out = [...mine.values()];
    mine.clear();
    return out;
  }
}

function addWindow(into: Map<string, JobRequestWindow>, w: JobRequestWindow): void {
  const s = into.get(w.jobUuid);
  if (!s) {
    into.set(w.jobUuid, { ...w, ...(w.latencyBuckets ? { latencyBuckets: [...w.latencyBuckets] } : {}) });
    return;
  }
  s.requests += w.requests;
  s.errors += w.errors;
  s.latencySumMs += w.latencySumMs;
  s.latencyMaxMs = Math.max(s.latencyMaxMs, w.latencyMaxMs);
  if (w.latencyBuckets) s.latencyBuckets = w.latencyBuckets.map((n, i) => n + (s.latencyBuckets?.[i] ?? 0));
}
