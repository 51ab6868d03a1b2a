/**
 * GET /metrics/jobs, /metrics/namespaces, /metrics/instance_managers: each `metric` parameter
 * (repeatable) is one query (query.ts), answered under its own text in `metrics`; a query that
 * cannot be parsed or answered goes to `errors` with its message and leaves the others alone.
 *
 * Policy: a job's series only when the caller may read the job (a namespace target lists only
 * such jobs); a namespace's aggregate when the caller may read the namespace; instance managers
 * when the caller may read the cluster (as GET /instance_managers).
 */
import type { Endpoint, ApiContext } from '../api/endpoint.js';
import { sendPlainJson } from '../api/endpoint.js';
import { rawListValues } from '../api/query.js';
import type { AgentDirectory } from '../agents/agent-directory.js';
import type { JobService } from '../jobs/job-service.js';
import { formatFqn, parseFqn } from '../model/fqn.js';
import { authorize, canAccess } from '../policy/access.js';
import { InvalidRequestError } from '../errors.js';
import type { MetricStore } from './metric-store.js';
import { downsample, parseMetricQuery, QueryError, type MetricQuery, type Series } from './query.js';
import { namespaceDepth, NAMESPACE_LEVELS, pointValue, type EntityKind } from './series.js';

const MAX_QUERIES = 20;
/** At most this many job series in one answer (a namespace target). */
const MAX_SERIES = 1000;
/** Points of one series (a year of 1 h points is 8,760; a day of 10 s points 8,640). */
export const MAX_SERIES_POINTS = 10_000;
/** Points of one answer, all its queries and series together (about 20 MB of JSON). */
export const MAX_ANSWER_POINTS = 500_000;

type Kind = 'jobs' | 'namespaces' | 'instance_managers';

export interface MetricResponse {
  metrics: Record<string, Record<string, Series>>;
  errors: Record<string, string>;
}

export function metricEndpoints(store: MetricStore, jobs: JobService, agents: AgentDirectory, nowMs: () => number): Endpoint[] {
  /**
   * `q` within the kept data: its range cut to the longest retention and to now (nothing is
   * older or newer), refused when no kept time is left or a series would hold more than
   * MAX_SERIES_POINTS points. Returns the points a series of it holds at most.
   */
  const bound = (q: MetricQuery, nowS: number): number => {
    const keptS = Math.max(...store.resolutions.map((r) => r.retentionS));
    const oldest = nowS - keptS;
    if (q.untilS < oldest) throw new QueryError(`nothing is kept from before ${new Date(oldest * 1000).toISOString()} (${keptS / 86_400} days)`);
    q.fromS = Math.max(q.fromS, oldest);
    q.untilS = Math.min(q.untilS, nowS);
    const stepS = q.downsample?.intervalS ?? store.resolutionFor(q.fromS).stepS;
    const points = Math.floor(Math.max(0, q.untilS - q.fromS) / stepS) + 1;
    if (points > MAX_SERIES_POINTS) {
      throw new QueryError(
        `${points} points of ${stepS} s: at most ${MAX_SERIES_POINTS} a series; choose a shorter range or down-sample with a longer interval (e.g. :avg-${Math.ceil((q.untilS - q.fromS) / MAX_SERIES_POINTS / 60)}min)`,
      );
    }
    return points;
  };

  /** One entity's series for query `q`. */
  const series = async (q: MetricQuery, kind: EntityKind, id: string): Promise<Series> => {
    const res = store.resolutionFor(q.fromS, q.downsample?.intervalS ?? 0);
    const points = await store.read(res, kind, id, q.fromS, q.untilS);
    const values = points.map((p) => ({ t: p.t, v: pointValue(p.p, q.field, q.aggregate) }));
    if (q.downsample) return downsample(values, q.downsample.fn, q.downsample.intervalS, q.fromS, q.untilS);
    return { times: values.map((v) => v.t), values: values.map((v) => v.v ?? 0) };
  };

  /** One series per job of the namespace (or the one job) that the caller may read. */
  const jobSeries = async (ctx: ApiContext, q: MetricQuery, take: (series: number) => void): Promise<Record<string, Series>> => {
    let fqn;
    try {
      fqn = parseFqn(q.target, { type: 'job', localName: 'optional', field: 'target' });
    } catch (err) {
      throw new QueryError((err as Error).message);
    }
    const list = await jobs.list({ fqn, matchPartialFqn: fqn.localName === undefined, health: false, visible: (f) => canAccess(ctx, f, 'read') });
    if (fqn.localName !== undefined && list.length === 0) throw new QueryError(`job ${q.target} not found`);
    if (list.length > MAX_SERIES) throw new QueryError(`${q.target} has ${list.length} jobs; at most ${MAX_SERIES} series are answered: query a deeper namespace`);
    take(list.length);
    const out: Record<string, Series> = {};
    for (const job of list) out[job.fqn] = await series(q, 'j', job.uuid);
    return out;
  };

  /** `take(n)`: n series are about to be read; throws a QueryError when the answer cannot hold them. */
  const answer = async (ctx: ApiContext, kind: Kind, q: MetricQuery, take: (series: number) => void): Promise<Record<string, Series>> => {
    if (kind === 'jobs') return jobSeries(ctx, q, take);
    if (kind === 'namespaces') {
      let fqn;
      try {
        fqn = parseFqn(q.target, { type: 'job', localName: 'forbidden', field: 'target' });
      } catch (err) {
        throw new QueryError((err as Error).message);
      }
      const depth = namespaceDepth(fqn.namespace);
      // Deeper than the pre-aggregated levels (or the root): answered as a job query.
      if (depth === 0 || depth > NAMESPACE_LEVELS) return jobSeries(ctx, q, take);
      if (!canAccess(ctx, formatFqn(fqn), 'read')) throw new QueryError(`not permitted to read ${q.target}`);
      take(1);
      return { [formatFqn(fqn)]: await series(q, 'n', fqn.namespace) };
    }
    const hosts = q.target === '*' ? [...new Set(agents.list().map((a) => a.record.hostname))].sort() : [q.target];
    take(hosts.length);
    const out: Record<string, Series> = {};
    for (const host of hosts) out[host] = await series(q, 'm', host);
    return out;
  };

  const endpoint = (kind: Kind): Endpoint => ({
    method: 'GET',
    path: `/metrics/${kind}`,
    handler: async (ctx) => {
      if (kind === 'instance_managers') await authorize(ctx, 'cluster::/', 'read');
      const texts = rawListValues(ctx.query, 'metric') ?? [];
      if (texts.length === 0) throw new InvalidRequestError('query metric: at least one is needed, <target>,<metric>[:<function>-<interval>][,<from>[,<until>]]');
      if (texts.length > MAX_QUERIES) throw new InvalidRequestError(`query metric: at most ${MAX_QUERIES} per request`);
      const nowS = Math.floor(nowMs() / 1000);
      const body: MetricResponse = { metrics: {}, errors: {} };
      let left = MAX_ANSWER_POINTS;
      for (const text of texts) {
        try {
          const q = parseMetricQuery(text, nowS, kind !== 'instance_managers');
          const perSeries = bound(q, nowS);
          body.metrics[text] = await answer(ctx, kind, q, (n) => {
            if (n * perSeries > left) {
              throw new QueryError(`${n} series of up to ${perSeries} points are more than this answer can hold (${MAX_ANSWER_POINTS} points in all): ask for fewer, a shorter range or a longer interval`);
            }
            left -= n * perSeries;
          });
        } catch (err) {
          if (!(err instanceof QueryError)) throw err;
          body.errors[text] = err.message;
        }
      }
      sendPlainJson(ctx, body);
    },
  });

  return [endpoint('jobs'), endpoint('namespaces'), endpoint('instance_managers')];
}
