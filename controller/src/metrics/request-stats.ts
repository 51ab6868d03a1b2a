/**
 * What the metric store takes from the router: per job, what its requests did since the last
 * drain. Structurally the router's own interface (router/request-stats.ts), defined here so that
 * the metrics need not import the router; controller.ts hands the router's source over.
 */
export interface JobRequestWindow {
  jobUuid: string;
  requests: number;
  errors: number;
  latencySumMs: number;
  latencyMaxMs: number;
}

export interface RequestStatsSource {
  /** The windows since the last call (each job at most once), and starts new ones. */
  drain(): JobRequestWindow[];
}
