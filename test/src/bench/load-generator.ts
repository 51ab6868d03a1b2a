/**
 * The router benchmark's load generator, a process of its own (so that it can be given a CPU of
 * its own, and so that its work is never counted to, or slowed by, the process that runs the
 * benchmark): `node dist/bench/load-generator.js '{"url":..., "host":..., "seconds":...,
 * "connections":...}'` runs autocannon (keep-alive connections, GET) and prints one JSON line:
 * requests/s (autocannon's average of per-second samples), the requests answered, p50 and p99 of
 * every response time (ms, unrounded: autocannon's own histogram rounds to whole ms), non-2xx
 * answers and errors.
 */
import { pathToFileURL } from 'node:url';
import autocannon from 'autocannon';
import type { Result } from 'autocannon';

export interface LoadSpec {
  url: string;
  /** Host header to send; none when absent. */
  host?: string;
  seconds: number;
  connections: number;
}

export interface LoadResult {
  rps: number;
  requests: number;
  p50: number;
  p99: number;
  non2xx: number;
  errors: number;
}

export function percentile(xs: number[], p: number): number {
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ?? Number.NaN;
}

function run(spec: LoadSpec): Promise<LoadResult> {
  const latencies: number[] = [];
  return new Promise((resolve, reject) => {
    const instance = autocannon(
      { url: spec.url, connections: spec.connections, duration: spec.seconds, ...(spec.host ? { headers: { host: spec.host } } : {}) },
      (err: unknown, r: Result) => {
        if (err) return reject(err instanceof Error ? err : new Error(String(err)));
        resolve({ rps: r.requests.average, requests: r.requests.total, p50: percentile(latencies, 50), p99: percentile(latencies, 99), non2xx: r.non2xx, errors: r.errors });
      },
    );
    instance.on('response', (_c: unknown, _s: number, _b: number, ms: number) => latencies.push(ms));
  });
}

// Run as a program (the benchmark imports `percentile` and the types only).
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const result = await run(JSON.parse(process.argv[2] ?? '{}') as LoadSpec);
  process.stdout.write(`${JSON.stringify(result)}\n`);
}
