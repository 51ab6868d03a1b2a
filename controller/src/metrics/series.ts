/**
 * What the metrics store keeps, and how it lays it out in the store.
 *
 * A *point* is what one entity used during one bucket of a resolution. Entities:
 *   j <job uuid>          the job's instances: per field the sum across them, and their count
 *   n <namespace>         every instance of every job at or under a namespace of one to four levels
 *   m <host name>         an instance manager's host totals (the agents with that host name)
 *
 * A point's value is one JSON array, the same for every entity and resolution:
 *   [k, n, f0, f1, ...]   k  the 10 s points summed into it (1 at 10 s; up to 6 at 1 min, 360 at 1 h)
 *                         n  the instance (or agent) count, summed over those k points
 *                         fi the field's sum across instances, summed over those k points
 * so a rollup is a plain element-wise sum, and a reader divides by k for the average over the
 * bucket: sum = fi / k, count = n / k, mean = fi / n.
 *
 * Keys: `met/<res>/<partition>/<kind>/<id>/<bucket>`, partition and bucket in whole seconds, zero
 * padded to 11 digits; id URI-encoded (a namespace has slashes). The partition (a day for 10 s
 * and 1 min, 30 days for 1 h) puts old points together, so that expiry deletes whole
 * partitions, and a query reads one range per partition it spans.
 */
export const JOB_FIELDS = [
  'cpu', 'mem_total', 'mem_used', 'disk_total', 'disk_used', 'bandwidth_total', 'bandwidth_used', 'network_rx', 'network_tx',
  // From the router (request-stats.ts), per 10 s: requests, those answered 5xx or not at all, the sum of their latencies.
  // Points written before these existed are shorter: a missing field reads 0.
  'requests', 'request_errors', 'latency_ms_sum',
] as const;
export type JobField = (typeof JOB_FIELDS)[number];
/** Instance managers have no network_rx/tx of their own in the spec's list; they are kept (host totals) but not queryable. */
export const MANAGER_FIELDS: readonly JobField[] = ['bandwidth_total', 'bandwidth_used', 'cpu', 'disk_total', 'disk_used', 'mem_total', 'mem_used'];
export const FIELD_INDEX: Readonly<Record<JobField, number>> = Object.fromEntries(JOB_FIELDS.map((f, i) => [f, i])) as Record<JobField, number>;

export type EntityKind = 'j' | 'n' | 'm';

/** The finest bucket, seconds (the agents' sample period). */
export const STEP_S = 10;

export interface Resolution {
  /** Name in keys and docs: "10s", "1m", "1h". */
  name: string;
  /** Bucket length, seconds. */
  stepS: number;
  /** Points older than this are deleted, seconds. */
  retentionS: number;
  /** Partition length, seconds. */
  partitionS: number;
}

const DAY = 86_400;
/** 10 s for 24 h, 1 min for 7 days, 1 h for 365 days (PLATFORM_METRICS_RETENTION changes them). */
export const DEFAULT_RESOLUTIONS: readonly Resolution[] = [
  { name: '10s', stepS: 10, retentionS: DAY, partitionS: DAY },
  { name: '1m', stepS: 60, retentionS: 7 * DAY, partitionS: DAY },
  { name: '1h', stepS: 3600, retentionS: 365 * DAY, partitionS: 30 * DAY },
];

/**
 * Parses a retention setting: `10s:24h,1m:7d,1h:365d` (bucket:kept, finest first, each bucket a
 * multiple of the one before). Units s, m, h, d. Throws with the reason.
 */
export function parseRetention(text: string): Resolution[] {
  const unit = (v: string, what: string): number => {
    const m = /^(\d+)(s|m|h|d)$/.exec(v.trim());
    if (!m) throw new Error(`${what} "${v}" is not a number followed by s, m, h or d`);
    const n = Number(m[1]) * { s: 1, m: 60, h: 3600, d: DAY }[m[2] as 's' | 'm' | 'h' | 'd'];
    if (n <= 0) throw new Error(`${what} "${v}" must be positive`);
    return n;
  };
  const out: Resolution[] = [];
  for (const part of text.split(',')) {
    const [step, kept, extra] = part.split(':');
    if (step === undefined || kept === undefined || extra !== undefined) throw new Error(`"${part}" is not <bucket>:<kept>`);
    const stepS = unit(step, 'bucket');
    const retentionS = unit(kept, 'retention');
    const prev = out.at(-1);
    if (prev && (stepS <= prev.stepS || stepS % prev.stepS !== 0)) throw new Error(`bucket ${step} must be a multiple of ${prev.name} and longer`);
    if (retentionS < stepS) throw new Error(`retention ${kept} is shorter than its bucket ${step}`);
    out.push({ name: step.trim(), stepS, retentionS, partitionS: stepS >= 3600 ? 30 * DAY : DAY });
  }
  if (out.length === 0) throw new Error('no resolution given');
  if (out[0]!.stepS !== 10) throw new Error('the finest resolution must be 10s (the agents\' sample period)');
  return out;
}

/** A point's value: [k, n, ...fields]. */
export type Point = number[];

export const POINT_WIDTH = 2 + JOB_FIELDS.length;

export function emptyPoint(): Point {
  return new Array<number>(POINT_WIDTH).fill(0);
}

/** Adds `b` into `a`, element-wise. */
export function addPoint(a: Point, b: readonly number[]): void {
  for (let i = 0; i < POINT_WIDTH; i++) a[i] = (a[i] ?? 0) + (b[i] ?? 0);
}

const pad = (s: number): string => String(Math.floor(s)).padStart(11, '0');

export function partitionOf(res: Resolution, bucketS: number): number {
  return Math.floor(bucketS / res.partitionS) * res.partitionS;
}

export function pointKey(res: Resolution, kind: EntityKind, id: string, bucketS: number): string {
  return `met/${res.name}/${pad(partitionOf(res, bucketS))}/${kind}/${encodeURIComponent(id)}/${pad(bucketS)}`;
}

/** The key prefix of one entity's points in one partition. */
export function seriesPrefix(res: Resolution, partitionS: number, kind: EntityKind, id: string): string {
  return `met/${res.name}/${pad(partitionS)}/${kind}/${encodeURIComponent(id)}/`;
}

export function partitionPrefix(res: Resolution, partitionS: number): string {
  return `met/${res.name}/${pad(partitionS)}/`;
}

export function resolutionPrefix(res: Resolution): string {
  return `met/${res.name}/`;
}

/** The bucket time (seconds) at the end of a key. */
export function bucketOfKey(key: string): number {
  return Number(key.slice(key.lastIndexOf('/') + 1));
}

/** The partition (seconds) of a key under resolutionPrefix(res). */
export function partitionOfKey(res: Resolution, key: string): number {
  const start = resolutionPrefix(res).length;
  return Number(key.slice(start, start + 11));
}

/**
 * The namespaces a job's use is pre-aggregated to: its namespace's first one to four levels.
 * `job::/a/b/c/d/e::web` -> /a, /a/b, /a/b/c, /a/b/c/d.
 */
export const NAMESPACE_LEVELS = 4;
export function namespaceLevels(namespace: string): string[] {
  const parts = namespace.split('/').filter(Boolean);
  const out: string[] = [];
  for (let i = 1; i <= Math.min(NAMESPACE_LEVELS, parts.length); i++) out.push(`/${parts.slice(0, i).join('/')}`);
  return out;
}

/** Depth of a namespace ("/" is 0, "/a/b" is 2). */
export function namespaceDepth(namespace: string): number {
  return namespace.split('/').filter(Boolean).length;
}

/** What a point answers for a query's metric name and aggregate (null: no value, e.g. a mean of no instance). */
export function pointValue(p: Point, metric: string, aggregate: 'sum' | 'mean' | 'count' | 'value'): number | null {
  const k = p[0] || 1;
  const n = p[1] ?? 0;
  const at = (f: JobField) => p[2 + FIELD_INDEX[f]] ?? 0;
  if (aggregate === 'count') return n / k;
  if (metric === 'request_latency') {
    const requests = at('requests');
    return requests > 0 ? at('latency_ms_sum') / requests : null;
  }
  // Counts per 10 s point -> per second.
  const rate = metric === 'requests_per_second' ? 'requests' : metric === 'request_errors_per_second' ? 'request_errors' : undefined;
  const sum = rate ? at(rate) / STEP_S : at(metric as JobField);
  if (aggregate === 'mean') return n > 0 ? sum / n : null;
  return sum / k;
}
