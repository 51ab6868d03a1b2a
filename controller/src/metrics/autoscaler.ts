/**
 * Autoscaler: for every started job with `autoscaling` (model/job.ts validates and fills the
 * defaults of the spec's Autoscaling tables), every `observation_interval_secs`:
 *
 *   observe the rule's metric ──▶ pid or threshold rule ──▶ desired count in [min, max]
 *     └─ cpu_per_second: the job's mean CPU per instance, ms of CPU per second (1000 = a core),
 *        over the monitoring window (metric store, open points included)
 *     └─ a name of the job's `monitoring` map: an http_metric url answering a float as text;
 *        a url whose host is `$INSTANCE` is polled on every running instance at its address and
 *        first port, the values averaged; any other url as written
 *     └─ requests_per_second, request_latency: from the router's per-job series when the
 *        metric store has them (no value yet: nothing is decided)
 *   ──▶ a change of num_instances through JobService (the job's actor, then the reconciler and
 *       rollout start or stop instances): audit `job.update` with the patch, principal
 *       `autoscaler@platform.local`; a log line with the reason.
 *
 * After a change it waits `scale_timeout_secs`, and `warmup_secs` more before it counts the new
 * instances (it decides nothing until both passed; the PID state restarts then).
 *
 * PID: error e = (measured - setpoint) / setpoint; u = kp*e + ki*∫e dt + kd*de/dt; desired =
 * round(current * (1 + u)). Anti-windup: the integral is bounded to ±1/ki (u's share from it
 * within ±1) and does not grow while the count sits at min or max in the error's direction.
 * Threshold: the metric's mean over `monitoring_window_secs` (the observation interval when 0)
 * above `upper_threshold` adds `scale_up_delta`; below `lower_threshold` removes `scale_down_delta`.
 */
import type { Logger } from '@platform/proto/common';
import type { Clock } from '../util/clock.js';

export interface AutoscalingConfig {
  min_instances?: number | undefined;
  max_instances?: number | undefined;
  observation_interval_secs?: number | undefined;
  scale_timeout_secs?: number | undefined;
  warmup_secs?: number | undefined;
  rule?:
    | {
        type: 'pid' | 'threshold';
        metric?: string | undefined;
        config?: Record<string, number | undefined> | undefined;
      }
    | undefined;
}

export interface ScaledJob {
  uuid: string;
  fqn: string;
  state: string;
  num_instances: number;
  autoscaling: AutoscalingConfig | null;
  monitoring: Record<string, { type: string; config: { url: string } }>;
}

export interface AutoscalerDeps {
  clock: Clock;
  log: Logger;
  /** The started jobs with autoscaling. */
  jobs(): Promise<ScaledJob[]>;
  /** The rule's metric for the job over the last `windowS` seconds; undefined: no value. */
  observe(job: ScaledJob, metric: string, windowS: number): Promise<number | undefined>;
  /**
   * Changes the job's num_instances (a job update by the autoscaler). Answers the count it
   * reached when that is not `to` (held at a quota); undefined when it is `to`.
   */
  scale(job: ScaledJob, to: number, reason: string): Promise<number | undefined | void>;
  /** How often the jobs are looked at, ms (default 5 s; each job is evaluated on its own interval). */
  tickMs?: number;
}

interface PidState {
  integral: number;
  lastError: number | undefined;
}

interface JobState extends PidState {
  lastEvalMs: number;
  /** No decision before this (scale timeout, then warm-up). */
  quietUntilMs: number;
}

export interface Decision {
  desired: number;
  reason: string;
}

/** One PID step; mutates `s`. */
export function pidDecision(
  s: PidState,
  c: { setpoint: number; kp: number; ki: number; kd: number },
  measured: number,
  dtS: number,
  current: number,
  min: number,
  max: number,
): Decision {
  const e = (measured - c.setpoint) / c.setpoint;
  const saturated = (current >= max && e > 0) || (current <= min && e < 0);
  if (!saturated) s.integral += e * dtS;
  if (c.ki > 0) s.integral = Math.max(-1 / c.ki, Math.min(1 / c.ki, s.integral));
  const d = s.lastError === undefined || dtS <= 0 ? 0 : (e - s.lastError) / dtS;
  s.lastError = e;
  const u = c.kp * e + c.ki * s.integral + c.kd * d;
  const desired = Math.max(min, Math.min(max, Math.round(current * (1 + u))));
  return { desired, reason: `pid: measured ${round(measured)} against setpoint ${c.setpoint} (output ${round(u)})` };
}

/** One threshold step. */
export function thresholdDecision(
  c: { lower_threshold: number; upper_threshold?: number | undefined; scale_up_delta: number; scale_down_delta: number },
  mean: number,
  current: number,
  min: number,
  max: number,
): Decision {
  if (c.upper_threshold !== undefined && mean > c.upper_threshold) {
    return { desired: Math.min(max, current + c.scale_up_delta), reason: `threshold: ${round(mean)} above ${c.upper_threshold}` };
  }
  if (mean < c.lower_threshold) {
    return { desired: Math.max(min, current - c.scale_down_delta), reason: `threshold: ${round(mean)} below ${c.lower_threshold}` };
  }
  return { desired: Math.max(min, Math.min(max, current)), reason: `threshold: ${round(mean)} within bounds` };
}

const round = (x: number) => Math.round(x * 1000) / 1000;

export class Autoscaler {
  readonly #d: AutoscalerDeps;
  readonly #state = new Map<string, JobState>();
  #timer: NodeJS.Timeout | undefined;
  #running: Promise<void> = Promise.resolve();

  constructor(d: AutoscalerDeps) {
    this.#d = d;
  }

  start(): void {
    const every = this.#d.tickMs ?? 5_000;
    const tick = () => {
      this.#running = this.tick().catch((err: unknown) => this.#d.log.error('autoscaler pass failed', { err: (err as Error).message }));
      this.#timer = setTimeout(tick, every);
      this.#timer.unref();
    };
    this.#timer = setTimeout(tick, every);
    this.#timer.unref();
  }

  async stop(): Promise<void> {
    clearTimeout(this.#timer);
    await this.#running;
  }

  /** Evaluates every job whose observation interval has passed. */
  async tick(): Promise<void> {
    const now = this.#d.clock.nowMs();
    const jobs = await this.#d.jobs();
    const seen = new Set<string>();
    for (const job of jobs) {
      const a = job.autoscaling;
      if (!a || job.state !== 'started') continue;
      seen.add(job.uuid);
      let s = this.#state.get(job.uuid);
      if (!s) this.#state.set(job.uuid, (s = { integral: 0, lastError: undefined, lastEvalMs: now, quietUntilMs: 0 }));
      const intervalMs = (a.observation_interval_secs ?? 10) * 1000;
      if (now - s.lastEvalMs < intervalMs) continue;
      if (now < s.quietUntilMs) continue;
      try {
        await this.#evaluate(job, a, s, now);
      } catch (err) {
        this.#d.log.warn('autoscaler could not evaluate a job', { job: job.uuid, err: (err as Error).message });
      }
    }
    for (const uuid of this.#state.keys()) if (!seen.has(uuid)) this.#state.delete(uuid);
  }

  async #evaluate(job: ScaledJob, a: AutoscalingConfig, s: JobState, now: number): Promise<void> {
    const rule = a.rule ?? { type: 'pid' as const };
    const metric = rule.metric ?? 'cpu_per_second';
    const c = rule.config ?? {};
    const min = a.min_instances ?? 1;
    const max = a.max_instances ?? Math.max(5, min);
    const intervalS = a.observation_interval_secs ?? 10;
    const windowS = rule.type === 'threshold' && (c['monitoring_window_secs'] ?? 0) > 0 ? c['monitoring_window_secs']! : intervalS;
    const dtS = (now - s.lastEvalMs) / 1000;
    s.lastEvalMs = now;
    const value = await this.#d.observe(job, metric, windowS);
    if (value === undefined) return;
    const current = job.num_instances;
    const decision =
      rule.type === 'threshold'
        ? thresholdDecision(
            { lower_threshold: c['lower_threshold'] ?? 1, upper_threshold: c['upper_threshold'], scale_up_delta: c['scale_up_delta'] ?? 1, scale_down_delta: c['scale_down_delta'] ?? 1 },
            value,
            current,
            min,
            max,
          )
        : pidDecision(s, { setpoint: c['setpoint'] ?? 100, kp: c['kp'] ?? 0.45, ki: c['ki'] ?? 0.0013, kd: c['kd'] ?? 0 }, value, dtS, current, min, max);
    if (decision.desired === current) return;
    const reason = `autoscaler: ${metric} ${decision.reason}: ${current} -> ${decision.desired} instances`;
    const reached = (await this.#d.scale(job, decision.desired, reason)) ?? decision.desired;
    if (reached === decision.desired) this.#d.log.info('job autoscaled', { job: job.uuid, fqn: job.fqn, from: current, to: reached, reason });
    else this.#d.log.info('job autoscaling held', { job: job.uuid, fqn: job.fqn, from: current, to: reached, wanted: decision.desired, reason });
    s.quietUntilMs = now + ((a.scale_timeout_secs ?? 10) + (a.warmup_secs ?? 0)) * 1000;
    s.integral = 0;
    s.lastError = undefined;
  }
}
