/**
 * MetricStore: the agents' usage samples kept as series in the store (series.ts has the layout).
 *
 *   UsageBatch ─▶ ingest() ─▶ open 10 s points in memory (per contributor: instance or agent,
 *                 │            the latest sample of a bucket wins)
 *                 └─ flush() every flushIntervalMs: points whose bucket ended `latenessS` ago
 *                      ─▶ job points; namespace points (sum of their jobs, four levels); manager points
 *                      ─▶ rollup accumulators (1 min, 1 h; loaded from the store when first touched)
 *                      ─▶ one store batch (chunks of maxBatchOps): the 10 s points and the rollups
 *   expire() every hour: partitions older than their resolution's retention are deleted, a
 *            chunk at a time.
 *
 * Bounds: at most `maxOpenPoints` open 10 s points; a sample beyond it is dropped and counted
 * (platform_metrics_samples_dropped_total{reason="full"}), as is one for a bucket already past
 * the finest retention. A sample that arrives after its bucket was written (an agent's buffered
 * samples after a disconnection) is added to the stored point.
 *
 * Reads (read()) answer the stored points merged with the open ones, so a query sees a sample
 * as soon as it arrived, not only once its bucket is written: open 10 s points are summed into
 * the resolution read (into a stored point of the same bucket where there is one, as flush()
 * would). A read that overlaps a flush reads again, so that a point is never counted both open
 * and stored.
 *
 * Contract: ingest() never blocks and never throws; flush() and expire() run one at a time
 * (a flush asked for while one runs waits for it). stop() flushes everything still open.
 */
import type { InstanceUsage, UsageBatch } from '@platform/proto';
import type { Logger } from '@platform/proto/common';
import { Counter, Gauge, type Registry } from 'prom-client';
import type { BatchOp, Store } from '../store/store.js';
import type { Clock } from '../util/clock.js';
import type { JobRequestWindow, RequestStatsSource } from './request-stats.js';
import {
  addPoint, bucketOfKey, DEFAULT_RESOLUTIONS, emptyPoint, FIELD_INDEX, namespaceLevels, partitionOfKey, partitionPrefix, pointKey,
  POINT_WIDTH, resolutionPrefix, seriesPrefix, type EntityKind, type Point, type Resolution,
} from './series.js';

export interface MetricStoreOptions {
  store: Store;
  clock: Clock;
  log: Logger;
  /** The FQN of a job (undefined: unknown or deleted; its use then counts for no namespace). */
  jobFqn(uuid: string): Promise<string | undefined>;
  registry?: Registry;
  resolutions?: readonly Resolution[];
  flushIntervalMs?: number;
  /** Seconds after a 10 s bucket ends before it is written (samples of several agents meet). */
  latenessS?: number;
  maxOpenPoints?: number;
  maxBatchOps?: number;
  /** The router's per-job request windows, drained every `requestsIntervalMs` (default 2 s). */
  requestStats?: RequestStatsSource;
  requestsIntervalMs?: number;
}

interface OpenPoint {
  kind: 'j' | 'm';
  id: string;
  bucket: number;
  /** contributor (instance or agent uuid) -> [1, fields...] */
  rows: Map<string, number[]>;
}

export interface SeriesPoint {
  /** Bucket start, UNIX seconds. */
  t: number;
  p: Point;
}

export interface FlushStats {
  points: number;
  ops: number;
  ms: number;
}

const STEP = 10;

/** An instance's row: [n=1, fields in JOB_FIELDS order]. */
function instanceRow(i: InstanceUsage): number[] {
  const row = new Array<number>(POINT_WIDTH - 1).fill(0);
  row[0] = 1;
  const set = (f: keyof typeof FIELD_INDEX, v: number | null | undefined) => (row[1 + FIELD_INDEX[f]] = Number.isFinite(v) ? Number(v) : 0);
  set('cpu', i.cpuNs);
  set('mem_total', i.memoryLimit);
  set('mem_used', i.memoryUsed);
  set('disk_total', i.diskLimit);
  set('disk_used', i.diskUsed);
  set('bandwidth_total', i.bandwidthLimit);
  set('bandwidth_used', ((i.networkRx ?? 0) + (i.networkTx ?? 0)) * 8);
  set('network_rx', i.networkRx);
  set('network_tx', i.networkTx);
  return row;
}

export class MetricStore {
  readonly resolutions: readonly Resolution[];
  readonly #o: MetricStoreOptions;
  /** Open 10 s points by entity (`<kind> <id>`), then bucket. */
  readonly #open = new Map<string, Map<number, OpenPoint>>();
  #openCount = 0;
  /** Advances when a flush starts and when it ends (reads retry across one). */
  #flushGen = 0;
  /** Rollup accumulators by key: the stored value plus what was added since. */
  readonly #rollups = new Map<string, { point: Point; endS: number }>();
  /** The rollup keys by the end of their bucket, so that a flush drops the finished ones without a pass over all. */
  readonly #rollupsByEnd = new Map<number, string[]>();
  readonly #fqns = new Map<string, string | null>();
  /** The last dropped_total each agent sent. */
  readonly #agentDropped = new Map<string, number>();
  /** Buckets before this (seconds) may already be in the store. */
  #writtenBefore: number;
  #running: Promise<unknown> = Promise.resolve();
  #flushTimer: NodeJS.Timeout | undefined;
  #requestsTimer: NodeJS.Timeout | undefined;
  #expireTimer: NodeJS.Timeout | undefined;
  #stopped = false;
  readonly #m: { samples: Counter; dropped: Counter<'reason'>; points: Counter; open: Gauge; flushSeconds: Gauge } | undefined;

  constructor(o: MetricStoreOptions) {
    this.#o = o;
    this.resolutions = o.resolutions ?? DEFAULT_RESOLUTIONS;
    this.#writtenBefore = Math.floor(o.clock.nowMs() / 1000) + STEP;
    if (o.registry) {
      const registers = [o.registry];
      this.#m = {
        samples: new Counter({ name: 'platform_metrics_instance_samples_total', help: 'Instance usage samples received from agents', registers }),
        dropped: new Counter({ name: 'platform_metrics_samples_dropped_total', help: 'Usage samples not kept, by reason (full: too many open points; old: past the retention; agent: dropped by agents while disconnected)', labelNames: ['reason'], registers }),
        points: new Counter({ name: 'platform_metrics_points_written_total', help: 'Metric points written to the store (10 s points and rollups)', registers }),
        open: new Gauge({ name: 'platform_metrics_open_points', help: '10 s points waiting to be written', registers }),
        flushSeconds: new Gauge({ name: 'platform_metrics_last_flush_seconds', help: 'Duration of the last write of metric points', registers }),
      };
    }
  }

  /** Flushes every flushIntervalMs and expires every hour; timers unref'd. */
  start(): void {
    const every = this.#o.flushIntervalMs ?? 10_000;
    const flush = () => {
      this.flush().catch((err: unknown) => this.#o.log.error('writing metric points failed', { err }));
      this.#flushTimer = setTimeout(flush, every);
      this.#flushTimer.unref();
    };
    this.#flushTimer = setTimeout(flush, every);
    this.#flushTimer.unref();
    const expire = () => {
      this.expire().catch((err: unknown) => this.#o.log.error('expiring metric points failed', { err }));
      this.#expireTimer = setTimeout(expire, 3_600_000);
      this.#expireTimer.unref();
    };
    this.#expireTimer = setTimeout(expire, 60_000);
    this.#expireTimer.unref();
    const source = this.#o.requestStats;
    if (source) {
      this.#requestsTimer = setInterval(() => {
        try {
          this.requests(source.drain(), this.#o.clock.nowMs());
        } catch (err) {
          this.#o.log.error('reading request stats failed', { err: (err as Error).message });
        }
      }, this.#o.requestsIntervalMs ?? 2_000);
      this.#requestsTimer.unref();
    }
  }

  /**
   * Adds the router's windows (drained at `timeMs`) to the jobs' open points of that bucket: one
   * row per job from contributor `router`, summed across drains (windows are counts, not samples),
   * with n = 0 so that they do not count as instances.
   */
  requests(windows: readonly JobRequestWindow[], timeMs: number): void {
    const bucket = Math.floor(timeMs / 1000 / STEP) * STEP;
    for (const w of windows) {
      if (!w.jobUuid) continue;
      const row = new Array<number>(POINT_WIDTH - 1).fill(0);
      row[1 + FIELD_INDEX.requests] = w.requests;
      row[1 + FIELD_INDEX.request_errors] = w.errors;
      row[1 + FIELD_INDEX.latency_ms_sum] = w.latencySumMs;
      this.#add('j', w.jobUuid, bucket, 'router', row, true);
    }
  }

  /** Stops the timers and writes every open point. */
  async stop(): Promise<void> {
    if (this.#stopped) return;
    this.#stopped = true;
    clearTimeout(this.#flushTimer);
    clearTimeout(this.#expireTimer);
    clearInterval(this.#requestsTimer);
    await this.flush({ all: true });
  }

  get openPoints(): number {
    return this.#openCount;
  }

  /** The UsageSink of the agent directory: never throws, never waits. */
  usage(agent: string, hostname: string, batch: UsageBatch): void {
    const agentDropped = batch.droppedTotal ?? 0;
    const before = this.#agentDropped.get(agent) ?? 0;
    if (agentDropped > before) this.#m?.dropped.inc({ reason: 'agent' }, agentDropped - before);
    this.#agentDropped.set(agent, agentDropped);
    const oldest = Math.floor(this.#o.clock.nowMs() / 1000) - this.resolutions[0]!.retentionS;
    for (const s of batch.samples ?? []) {
      const bucket = Math.floor((s.timeMs ?? 0) / 1000 / STEP) * STEP;
      if (bucket < oldest) {
        this.#m?.dropped.inc({ reason: 'old' });
        continue;
      }
      const h = s.host;
      if (h) {
        const row = new Array<number>(POINT_WIDTH - 1).fill(0);
        row[0] = 1;
        row[1 + FIELD_INDEX.cpu] = h.cpuNs ?? 0;
        row[1 + FIELD_INDEX.mem_total] = h.memoryTotal ?? 0;
        row[1 + FIELD_INDEX.mem_used] = h.memoryUsed ?? 0;
        row[1 + FIELD_INDEX.disk_total] = h.diskTotal ?? 0;
        row[1 + FIELD_INDEX.disk_used] = h.diskUsed ?? 0;
        row[1 + FIELD_INDEX.bandwidth_total] = h.bandwidthTotal ?? 0;
        row[1 + FIELD_INDEX.bandwidth_used] = ((h.networkRx ?? 0) + (h.networkTx ?? 0)) * 8;
        row[1 + FIELD_INDEX.network_rx] = h.networkRx ?? 0;
        row[1 + FIELD_INDEX.network_tx] = h.networkTx ?? 0;
        this.#add('m', hostname, bucket, agent, row);
      }
      for (const i of s.instances ?? []) {
        if (!i.jobUuid || !i.instanceUuid) continue;
        this.#m?.samples.inc();
        this.#add('j', i.jobUuid, bucket, i.instanceUuid, instanceRow(i));
      }
    }
  }

  #add(kind: 'j' | 'm', id: string, bucket: number, contributor: string, row: number[], accumulate = false): void {
    const key = `${kind} ${id}`;
    let entity = this.#open.get(key);
    let p = entity?.get(bucket);
    if (!p) {
      if (this.#openCount >= (this.#o.maxOpenPoints ?? 500_000)) {
        this.#m?.dropped.inc({ reason: 'full' });
        return;
      }
      p = { kind, id, bucket, rows: new Map() };
      if (!entity) this.#open.set(key, (entity = new Map()));
      entity.set(bucket, p);
      this.#openCount++;
    }
    const before = accumulate ? p.rows.get(contributor) : undefined;
    if (before) for (let i = 0; i < row.length; i++) before[i] = (before[i] ?? 0) + (row[i] ?? 0);
    else p.rows.set(contributor, row);
  }

  /** Writes the points whose bucket is closed (`all`: every open one). One flush at a time. */
  flush(opts: { all?: boolean } = {}): Promise<FlushStats> {
    const run = this.#running.then(() => this.#flush(opts.all ?? false));
    this.#running = run.catch(() => undefined);
    return run;
  }

  async #fqn(uuid: string): Promise<string | undefined> {
    const known = this.#fqns.get(uuid);
    if (known !== undefined) return known ?? undefined;
    const fqn = await this.#o.jobFqn(uuid).catch(() => undefined);
    if (this.#fqns.size > 200_000) this.#fqns.clear();
    this.#fqns.set(uuid, fqn ?? null);
    return fqn;
  }

  async #flush(all: boolean): Promise<FlushStats> {
    this.#flushGen++;
    try {
      return await this.#flushClosed(all);
    } finally {
      this.#flushGen++;
    }
  }

  async #flushClosed(all: boolean): Promise<FlushStats> {
    const started = performance.now();
    const nowS = Math.floor(this.#o.clock.nowMs() / 1000);
    const horizon = all ? Number.POSITIVE_INFINITY : nowS - (this.#o.latenessS ?? 30);
    const closed: OpenPoint[] = [];
    for (const [key, entity] of this.#open) {
      for (const [bucket, p] of entity) {
        if (p.bucket + STEP <= horizon) {
          closed.push(p);
          entity.delete(bucket);
          this.#openCount--;
        }
      }
      if (entity.size === 0) this.#open.delete(key);
    }
    const [finest, ...coarser] = this.resolutions as [Resolution, ...Resolution[]];
    // Entity points of this flush at 10 s: key -> point.
    const points = new Map<string, { kind: EntityKind; id: string; bucket: number; point: Point; fresh: Point; rollupKeys: string[] }>();
    const addTo = (kind: EntityKind, id: string, bucket: number, row: readonly number[]) => {
      const key = pointKey(finest, kind, id, bucket);
      let e = points.get(key);
      if (!e) {
        e = { kind, id, bucket, point: emptyPoint(), fresh: [], rollupKeys: [] };
        e.point[0] = 1;
        points.set(key, e);
      }
      for (let i = 0; i < row.length; i++) e.point[i + 1] = (e.point[i + 1] ?? 0) + (row[i] ?? 0);
    };
    await Promise.all([...new Set(closed.filter((p) => p.kind === 'j').map((p) => p.id))].map((id) => this.#fqn(id)));
    for (const p of closed) {
      const sum = new Array<number>(POINT_WIDTH - 1).fill(0);
      for (const row of p.rows.values()) for (let i = 0; i < row.length; i++) sum[i] = (sum[i] ?? 0) + (row[i] ?? 0);
      addTo(p.kind, p.id, p.bucket, sum);
      if (p.kind === 'j') {
        const fqn = this.#fqns.get(p.id);
        const ns = fqn ? fqn.split('::')[1] : undefined;
        if (ns) for (const level of namespaceLevels(ns)) addTo('n', level, p.bucket, sum);
      }
    }
    // What each point adds to its rollups: itself (k=1), or, merged with a stored point, only the new part (k=0).
    for (const e of points.values()) e.fresh = [...e.point];
    // Points of buckets that may already be stored (late samples, or written before a restart) are merged.
    const late = [...points].filter(([, e]) => e.bucket < this.#writtenBefore);
    if (late.length > 0) {
      const stored = await this.#o.store.getMany(late.map(([k]) => k));
      late.forEach(([, e], i) => {
        const raw = stored[i];
        if (raw === undefined) return;
        addPoint(e.point, JSON.parse(raw) as Point);
        e.point[0] = 1;
        e.fresh[0] = 0;
      });
    }
    const ops: BatchOp[] = [];
    for (const [key, e] of points) ops.push({ type: 'put', key, value: JSON.stringify(e.point) });
    const touched = new Set<string>();
    const missing: string[] = [];
    for (const e of points.values()) {
      for (const res of coarser) {
        const key = pointKey(res, e.kind, e.id, Math.floor(e.bucket / res.stepS) * res.stepS);
        e.rollupKeys.push(key);
        if (!this.#rollups.has(key) && !touched.has(key)) missing.push(key);
        touched.add(key);
      }
    }
    if (missing.length > 0) {
      const stored = await this.#o.store.getMany(missing);
      missing.forEach((key, i) => {
        const raw = stored[i];
        const res = this.resolutions.find((r) => key.startsWith(resolutionPrefix(r)))!;
        const endS = bucketOfKey(key) + res.stepS;
        this.#rollups.set(key, { point: raw === undefined ? emptyPoint() : (JSON.parse(raw) as Point), endS });
        let ending = this.#rollupsByEnd.get(endS);
        if (!ending) this.#rollupsByEnd.set(endS, (ending = []));
        ending.push(key);
      });
    }
    for (const e of points.values()) for (const key of e.rollupKeys) addPoint(this.#rollups.get(key)!.point, e.fresh);
    for (const key of touched) ops.push({ type: 'put', key, value: JSON.stringify(this.#rollups.get(key)!.point) });
    // Accumulators of buckets that are over are not needed any more.
    for (const [endS, ending] of this.#rollupsByEnd) {
      if (endS + STEP > horizon && !all) continue;
      for (const key of ending) this.#rollups.delete(key);
      this.#rollupsByEnd.delete(endS);
    }
    const max = this.#o.maxBatchOps ?? 10_000;
    for (let i = 0; i < ops.length; i += max) await this.#o.store.batch(ops.slice(i, i + max));
    if (!all) this.#writtenBefore = Math.max(this.#writtenBefore, horizon);
    this.#m?.points.inc(ops.length);
    const ms = performance.now() - started;
    this.#m?.flushSeconds.set(ms / 1000);
    this.#m?.open.set(this.#openCount);
    return { points: points.size, ops: ops.length, ms };
  }

  /** Deletes the partitions past their resolution's retention. */
  expire(): Promise<number> {
    const run = this.#running.then(() => this.#expire());
    this.#running = run.catch(() => undefined);
    return run;
  }

  async #expire(): Promise<number> {
    const nowS = Math.floor(this.#o.clock.nowMs() / 1000);
    let deleted = 0;
    for (const res of this.resolutions) {
      for (;;) {
        let first: string | undefined;
        for await (const [key] of this.#o.store.iterate({ prefix: resolutionPrefix(res), limit: 1 })) first = key;
        if (first === undefined) break;
        const partition = partitionOfKey(res, first);
        if (partition + res.partitionS > nowS - res.retentionS) break;
        let keys: string[] = [];
        for await (const [key] of this.#o.store.iterate({ prefix: partitionPrefix(res, partition) })) {
          keys.push(key);
          if (keys.length >= 5000) {
            await this.#o.store.batch(keys.map((k) => ({ type: 'del', key: k })));
            deleted += keys.length;
            keys = [];
          }
        }
        if (keys.length) await this.#o.store.batch(keys.map((k) => ({ type: 'del', key: k })));
        deleted += keys.length;
      }
    }
    if (deleted) this.#o.log.info('metric points expired', { deleted });
    return deleted;
  }

  /**
   * The resolution a query from `fromS` reads: among those that still hold `fromS`, the coarsest
   * whose step is at most `minStepS` (a down-sampling interval), else the finest of them; the
   * coarsest of all when none holds it.
   */
  resolutionFor(fromS: number, minStepS = 0): Resolution {
    const nowS = Math.floor(this.#o.clock.nowMs() / 1000);
    const covering = this.resolutions.filter((r) => fromS >= nowS - r.retentionS);
    if (covering.length === 0) return this.resolutions.at(-1)!;
    const limit = Math.max(minStepS, covering[0]!.stepS);
    return covering.filter((r) => r.stepS <= limit).at(-1)!;
  }

  /**
   * Points of one entity with bucket start in [fromS, untilS], oldest first: the stored ones
   * merged with the open 10 s points not yet written.
   */
  async read(res: Resolution, kind: EntityKind, id: string, fromS: number, untilS: number): Promise<SeriesPoint[]> {
    const first = Math.floor(fromS / res.stepS) * res.stepS;
    if (kind === 'n') await this.#knowFqns();
    for (let attempt = 0; ; attempt++) {
      // A flush moves points from open to stored: wait for a running one, and read again when one
      // ran while this read did (else a point could be counted twice, or not at all).
      await this.#running;
      const gen = this.#flushGen;
      const open = this.#openPoints(kind, id, first, untilS);
      const stored = await this.#readStored(res, kind, id, first, untilS);
      if (gen !== this.#flushGen && attempt < 3) continue;
      return this.#merge(res, stored, open);
    }
  }

  async #readStored(res: Resolution, kind: EntityKind, id: string, first: number, untilS: number): Promise<SeriesPoint[]> {
    const out: SeriesPoint[] = [];
    const pad = (s: number) => String(Math.max(0, Math.floor(s))).padStart(11, '0');
    for (let part = Math.floor(first / res.partitionS) * res.partitionS; part <= untilS; part += res.partitionS) {
      const prefix = seriesPrefix(res, part, kind, id);
      // One scan per partition: the series is bounded (8,640 points a day at 10 s), and reading it
      // whole costs a third of handing it out entry by entry.
      for (const [key, value] of await this.#o.store.scan({ gte: prefix + pad(first), lte: prefix + pad(untilS) })) {
        out.push({ t: bucketOfKey(key), p: JSON.parse(value) as Point });
      }
    }
    return out;
  }

  /** Resolves the FQNs of the jobs with open points (a namespace read sums those under it). */
  async #knowFqns(): Promise<void> {
    const unknown: string[] = [];
    for (const entity of this.#open.values()) {
      const p = entity.values().next().value;
      if (p?.kind === 'j' && !this.#fqns.has(p.id)) unknown.push(p.id);
    }
    await Promise.all(unknown.map((u) => this.#fqn(u)));
  }

  /** The open 10 s points of an entity in [first, untilS] by bucket, each [1, n, fields...]. */
  #openPoints(kind: EntityKind, id: string, first: number, untilS: number): Map<number, Point> {
    const out = new Map<number, Point>();
    const addEntity = (entity: Map<number, OpenPoint> | undefined) => {
      if (!entity) return;
      for (const [bucket, p] of entity) {
        if (bucket < first || bucket > untilS) continue;
        let point = out.get(bucket);
        if (!point) {
          out.set(bucket, (point = emptyPoint()));
          point[0] = 1;
        }
        for (const row of p.rows.values()) for (let i = 0; i < row.length; i++) point[i + 1] = (point[i + 1] ?? 0) + (row[i] ?? 0);
      }
    };
    if (kind !== 'n') {
      addEntity(this.#open.get(`${kind} ${id}`));
      return out;
    }
    for (const entity of this.#open.values()) {
      const p = entity.values().next().value;
      if (p?.kind !== 'j') continue;
      const ns = this.#fqns.get(p.id)?.split('::')[1];
      if (ns && namespaceLevels(ns).includes(id)) addEntity(entity);
    }
    return out;
  }

  /** Stored points plus open 10 s points, summed into `res`'s buckets as a flush would. */
  #merge(res: Resolution, stored: SeriesPoint[], open: Map<number, Point>): SeriesPoint[] {
    if (open.size === 0) return stored;
    const finest = res === this.resolutions[0];
    const byT = new Map<number, SeriesPoint>(stored.map((p) => [p.t, { t: p.t, p: [...p.p] }]));
    for (const [bucket, point] of open) {
      const t = Math.floor(bucket / res.stepS) * res.stepS;
      const add = [...point];
      // A 10 s bucket that may already be stored adds no 10 s point to its rollup, only its values.
      if (!finest && bucket < this.#writtenBefore) add[0] = 0;
      const into = byT.get(t);
      if (!into) {
        add[0] = Math.max(1, add[0]!);
        byT.set(t, { t, p: add });
        continue;
      }
      addPoint(into.p, add);
      if (finest) into.p[0] = 1;
    }
    return [...byT.values()].sort((a, b) => a.t - b.t);
  }
}
