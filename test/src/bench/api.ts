/**
 * API benchmark (`npm run bench`): the controller's REST API against a "floor",
 * a bare `node:http` server in its own process answering the same requests from
 * a Map (floor-server.ts), on loopback, in one run.
 *
 *   GET  /jobs/{uuid}  at 1 and 64 connections
 *   POST /jobs         at 1 and 64 connections, every body with its own FQN
 *
 * The controller runs with its default durability (fsync on); POST is measured
 * again on a second controller started with `--no-sync` to show the cost of fsync.
 *
 * Environment: BENCH_SECONDS (measured seconds per case, default 5),
 * BENCH_WARMUP_SECONDS (unmeasured warm-up per case, default 1).
 */
import autocannon from 'autocannon';
import type { Options, Result } from 'autocannon';
import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { ControllerProcess } from '../harness/controller-process.js';

const HERE = dirname(fileURLToPath(import.meta.url));
const FLOOR_SERVER = join(HERE, 'floor-server.js');

function envSeconds(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isFinite(n) || n <= 0) throw new Error(`${name}="${raw}" is not a positive number of seconds`);
  return n;
}

const SECONDS = envSeconds('BENCH_SECONDS', 5);
const WARMUP_SECONDS = envSeconds('BENCH_WARMUP_SECONDS', 1);
const GOAL_PERCENT = 60;
/**
 * POST /jobs server CPU per request, as a multiple of the floor's on the same case, before the
 * work of issue 10 (commit d63a0f8, measured beside it on the same machine): the goal is half.
 */
const POST_CPU_BEFORE_X_FLOOR = { controller: 10.9, 'controller --no-sync': 7.1 } as Record<string, number>;

function progress(line: string): void {
  process.stderr.write(`${line}\n`);
}

// ---------------------------------------------------------------- servers

interface Target {
  /** Sent with every request (the controller's bearer token; the floor gets the same bytes). */
  headers: Record<string, string>;
  name: string;
  url: string;
  pid: number | undefined;
}

/** Starts floor-server.js with `jobJson` on its stdin; resolves once it prints its port. */
async function startFloor(jobJson: string): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, [FLOOR_SERVER], { stdio: ['pipe', 'pipe', 'inherit'] });
  child.stdin!.end(jobJson);
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('floor server did not print its port within 10 s')), 10_000);
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`floor server exited (${code ?? signal}) before listening`));
    });
    child.once('error', (err) => {
      clearTimeout(timer);
      reject(err);
    });
    createInterface({ input: child.stdout! }).once('line', (line) => {
      clearTimeout(timer);
      try {
        const { port } = JSON.parse(line) as { port: number };
        resolve(`http://127.0.0.1:${port}`);
      } catch {
        reject(new Error(`floor server printed "${line}", not its port`));
      }
    });
  });
  return { child, url };
}

async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
  await exited;
  clearTimeout(timer);
}

// ---------------------------------------------------------------- CPU time of a server

let clockTicks = 100;
try {
  clockTicks = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
} catch {
  // not Linux-like; /proc is then unlikely too, and cpuMs() answers undefined
}

/** User + system CPU time of a process in ms, from /proc (Linux); undefined elsewhere. */
function cpuMs(pid: number | undefined): number | undefined {
  if (pid === undefined) return undefined;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command (which is in parentheses and may hold spaces): state is field 3.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const utime = Number(fields[11]);
    const stime = Number(fields[12]);
    if (!Number.isFinite(utime) || !Number.isFinite(stime)) return undefined;
    return ((utime + stime) * 1000) / clockTicks;
  } catch {
    return undefined;
  }
}

// ---------------------------------------------------------------- load

let jobCounter = 0;
function nextJobBody(): string {
  jobCounter++;
  return JSON.stringify({
    fqn: `job::/bench::j${jobCounter}`,
    num_instances: 1,
    processes: { app: { start_command: 'node index.js' } },
    tags: { app: '' },
  });
}

type CaseKind = 'GET' | 'POST';

function loadOptions(kind: CaseKind, target: Target, jobUuid: string, connections: number, seconds: number): Options {
  const common = { connections, duration: seconds, pipelining: 1, timeout: 10 };
  if (kind === 'GET') {
    return {
      ...common,
      url: `${target.url}/jobs/${jobUuid}`,
      method: 'GET',
      headers: { ...target.headers, accept: 'application/vnd.platform.job;version=1' },
    };
  }
  return {
    ...common,
    url: `${target.url}/jobs`,
    method: 'POST',
    headers: { ...target.headers, 'content-type': 'application/json', accept: 'application/vnd.platform.jobs;version=1' },
    // Rebuilt for every request: each body gets a new FQN, so no 409 for a duplicate.
    requests: [{ setupRequest: (req) => ({ ...req, body: nextJobBody() }) }],
  };
}

/** Runs autocannon; `latencies` receives every response time in ms, unrounded. */
function cannon(options: Options, latencies?: number[]): Promise<Result> {
  return new Promise((resolve, reject) => {
    const instance = autocannon(options, (err: unknown, result: Result) => {
      if (err) reject(err instanceof Error ? err : new Error(String(err)));
      else resolve(result);
    });
    if (latencies) instance.on('response', (_client, _status, _bytes, responseTime) => latencies.push(responseTime));
  });
}

function percentile(sorted: Float64Array, p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[rank] ?? Number.NaN;
}

interface Row {
  kind: CaseKind;
  connections: number;
  server: string;
  /** The floor this row is compared with; undefined for the floor itself. */
  vsFloor: boolean;
  rps: number;
  total: number;
  p50: number;
  p99: number;
  acP50: number;
  acP99: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  statusCodes: string;
  cpuUsPerReq: number | undefined;
}

const rows: Row[] = [];

async function runCase(kind: CaseKind, connections: number, target: Target, jobUuid: string, vsFloor: boolean): Promise<Row> {
  const what = kind === 'GET' ? 'GET /jobs/{uuid}' : 'POST /jobs';
  progress(`running ${what} c=${connections} against ${target.name} (${WARMUP_SECONDS} s warm-up, ${SECONDS} s measured)…`);
  await cannon(loadOptions(kind, target, jobUuid, connections, WARMUP_SECONDS));
  const latencies: number[] = [];
  const cpuBefore = cpuMs(target.pid);
  const result = await cannon(loadOptions(kind, target, jobUuid, connections, SECONDS), latencies);
  const cpuAfter = cpuMs(target.pid);
  const sorted = Float64Array.from(latencies).sort();
  const total = result.requests.total;
  const statusCodes = Object.entries(result.statusCodeStats ?? {})
    .map(([code, s]) => `${code}×${s.count ?? 0}`)
    .join(' ');
  const row: Row = {
    kind,
    connections,
    server: target.name,
    vsFloor,
    rps: result.requests.average,
    total,
    p50: percentile(sorted, 50),
    p99: percentile(sorted, 99),
    acP50: result.latency.p50,
    acP99: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
    statusCodes,
    cpuUsPerReq: cpuBefore !== undefined && cpuAfter !== undefined && total > 0 ? ((cpuAfter - cpuBefore) * 1000) / total : undefined,
  };
  rows.push(row);
  progress(
    `  ${row.rps.toFixed(0)} req/s, p50 ${row.p50.toFixed(2)} ms, p99 ${row.p99.toFixed(2)} ms, ` +
      `non-2xx ${row.non2xx}, errors ${row.errors}, statuses ${statusCodes || '-'}`,
  );
  return row;
}

// ---------------------------------------------------------------- report

function pad(s: string, width: number, right = false): string {
  return right ? s.padStart(width) : s.padEnd(width);
}

function caseLabel(r: Pick<Row, 'kind' | 'connections'>): string {
  return `${r.kind === 'GET' ? 'GET /jobs/{uuid}' : 'POST /jobs'} c=${r.connections}`;
}

function floorOf(r: Row): Row | undefined {
  return rows.find((f) => !f.vsFloor && f.kind === r.kind && f.connections === r.connections);
}

function percentOfFloor(r: Row): string {
  const floor = floorOf(r);
  if (!r.vsFloor || !floor || floor.rps <= 0) return '';
  return `${((100 * r.rps) / floor.rps).toFixed(0)}% of floor`;
}

function printTable(): void {
  const header = ['case', 'server', 'req/s', 'p50 ms', 'p99 ms', 'non-2xx', 'errors', 'timeouts', 'srv CPU µs/req', 'vs floor (req/s)'];
  const rightAligned = new Set([2, 3, 4, 5, 6, 7, 8]);
  const order = (r: Row) => `${r.kind === 'GET' ? 0 : 1}-${String(r.connections).padStart(4, '0')}`;
  const body = [...rows]
    .sort((a, b) => order(a).localeCompare(order(b)))
    .map((r) => [
      caseLabel(r),
      r.server,
      r.rps.toFixed(0),
      r.p50.toFixed(2),
      r.p99.toFixed(2),
      String(r.non2xx),
      String(r.errors),
      String(r.timeouts),
      r.cpuUsPerReq === undefined ? '-' : r.cpuUsPerReq.toFixed(0),
      percentOfFloor(r),
    ]);
  const widths = header.map((h, i) => Math.max(h.length, ...body.map((cells) => (cells[i] ?? '').length)));
  const line = (cells: string[]) => cells.map((c, i) => pad(c, widths[i] ?? 0, rightAligned.has(i))).join('  ').trimEnd();
  console.log(line(header));
  console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  let previous = '';
  for (const [i, cells] of body.entries()) {
    const label = cells[0] ?? '';
    if (i > 0 && label !== previous) console.log('');
    previous = label;
    console.log(line(cells));
  }
}

function printSummary(): void {
  console.log('');
  console.log(`Goal: GET /jobs/{uuid} at >= ${GOAL_PERCENT}% of the bare node:http floor`);
  for (const r of rows.filter((x) => x.vsFloor && x.kind === 'GET')) {
    const floor = floorOf(r);
    if (!floor || floor.rps <= 0) continue;
    const pct = (100 * r.rps) / floor.rps;
    console.log(`  GET ${r.connections} conn: ${pct.toFixed(0)}% of floor (${r.rps.toFixed(0)} vs ${floor.rps.toFixed(0)} req/s) — ${pct >= GOAL_PERCENT ? 'meets the goal' : 'BELOW the goal'}`);
  }
  console.log('Goal: POST /jobs server CPU per request at half of what it was (as a multiple of the floor\'s CPU per request)');
  for (const r of rows.filter((x) => x.vsFloor && x.kind === 'POST')) {
    const floor = floorOf(r);
    const before = POST_CPU_BEFORE_X_FLOOR[r.server];
    if (!floor?.cpuUsPerReq || r.cpuUsPerReq === undefined || before === undefined) continue;
    const x = r.cpuUsPerReq / floor.cpuUsPerReq;
    console.log(
      `  POST ${r.connections} conn, ${r.server}: ${r.cpuUsPerReq.toFixed(0)} µs/req vs floor ${floor.cpuUsPerReq.toFixed(0)} µs/req = ${x.toFixed(1)}× ` +
        `(before: ${before}×, goal <= ${(before / 2).toFixed(1)}×) — ${x <= before / 2 ? 'meets the goal' : 'BELOW the goal'}`,
    );
  }
  for (const c of [1, 64]) {
    const synced = rows.find((r) => r.kind === 'POST' && r.connections === c && r.server === 'controller');
    const unsynced = rows.find((r) => r.kind === 'POST' && r.connections === c && r.server === 'controller --no-sync');
    if (synced && unsynced && synced.rps > 0) {
      console.log(`fsync cost, POST ${c} conn: ${synced.rps.toFixed(0)} req/s with fsync vs ${unsynced.rps.toFixed(0)} without (${(unsynced.rps / synced.rps).toFixed(1)}× faster without; p50 ${synced.p50.toFixed(2)} vs ${unsynced.p50.toFixed(2)} ms)`);
    }
  }
  const bad = rows.filter((r) => r.non2xx > 0 || r.errors > 0);
  for (const r of bad) {
    console.log(`WARNING: ${caseLabel(r)} against ${r.server}: ${r.non2xx} non-2xx, ${r.errors} errors (statuses: ${r.statusCodes || '-'}); its figures are not comparable`);
  }
  console.log('');
  console.log('Notes:');
  console.log('  req/s is autocannon\'s requests.average (mean of per-second samples). p50/p99 are computed from every');
  console.log('  response time autocannon measured (sub-ms resolution; its own latency histogram rounds to whole ms).');
  console.log('  srv CPU µs/req is the server process\'s user+system CPU time over the measured run divided by the');
  console.log('  requests it answered (from /proc); it is less sensitive to the shared machine than req/s.');
  console.log('  "controller" keeps its default durability (fsync of every write before answering) and log level');
  console.log('  (info: one JSON log line per created job); "controller --no-sync" acknowledges writes without fsync.');
  console.log('  The floor is a bare node:http server with a Map: no routing, validation, storage, logging or metrics.');
}

// ---------------------------------------------------------------- main

async function main(): Promise<number> {
  const cpuList = cpus();
  console.log('API benchmark: controller REST API vs a bare node:http floor, loopback 127.0.0.1');
  console.log(`node ${process.version}, ${cpuList.length} CPU(s) (${cpuList[0]?.model.trim() ?? 'unknown model'}), ${process.platform}/${process.arch}`);
  console.log(`${SECONDS} s measured + ${WARMUP_SECONDS} s warm-up per case; GET/POST at 1 and 64 connections; pipelining 1`);
  console.log(`Note: the load generator (autocannon, in this process) shares the ${cpuList.length}-core machine with the server under test;`);
  console.log('      absolute req/s are therefore lower than on separate machines; compare the ratios to the floor.');
  console.log('');

  const cleanups: (() => Promise<void>)[] = [];
  try {
    progress('starting the controller (default durability: fsync on)…');
    const controller = await ControllerProcess.start({ env: { PLATFORM_LOG_LEVEL: 'info' } });
    cleanups.push(() => controller.dispose());

    // One real job: its uuid for the GETs, its JSON for the floor to serve.
    const auth = (await controller.admin()).defaultHeaders;
    const created = await fetch(`${controller.url}/jobs`, { method: 'POST', headers: { ...auth, 'content-type': 'application/json' }, body: nextJobBody() });
    if (created.status !== 200) throw new Error(`POST /jobs answered ${created.status}: ${await created.text()}`);
    const { uuid } = (await created.json()) as { uuid: string };
    const fetched = await fetch(`${controller.url}/jobs/${uuid}`, { headers: auth });
    const jobJson = await fetched.text();
    if (fetched.status !== 200) throw new Error(`GET /jobs/${uuid} answered ${fetched.status}: ${jobJson}`);

    progress('starting the floor server…');
    const floor = await startFloor(jobJson);
    cleanups.push(() => stopChild(floor.child));
    const floorJson = await (await fetch(`${floor.url}/jobs/${uuid}`)).text();
    if (floorJson !== jobJson) throw new Error(`the floor's job body differs from the controller's:\n${floorJson}\n${jobJson}`);
    console.log(`GET body: ${Buffer.byteLength(jobJson)} bytes of job JSON, byte-identical from both servers`);
    console.log('');

    const controllerTarget: Target = { name: 'controller', url: controller.url, pid: controller.child.pid, headers: auth };
    const floorTarget: Target = { name: 'floor', url: floor.url, pid: floor.child.pid, headers: auth };
    for (const kind of ['GET', 'POST'] as const) {
      for (const c of [1, 64]) {
        await runCase(kind, c, controllerTarget, uuid, true);
        await runCase(kind, c, floorTarget, uuid, false);
      }
    }
    await cleanups.pop()?.(); // the floor
    await cleanups.pop()?.(); // the controller

    progress('starting a second controller with --no-sync…');
    const unsynced = await ControllerProcess.start({ env: { PLATFORM_LOG_LEVEL: 'info' }, args: ['--no-sync'] });
    cleanups.push(() => unsynced.dispose());
    const unsyncedTarget: Target = {
      name: 'controller --no-sync',
      url: unsynced.url,
      pid: unsynced.child.pid,
      headers: (await unsynced.admin()).defaultHeaders,
    };
    for (const c of [1, 64]) await runCase('POST', c, unsyncedTarget, uuid, true);
  } catch (err) {
    progress(`bench failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
    return 1;
  } finally {
    for (const cleanup of cleanups.reverse()) await cleanup().catch(() => undefined);
  }

  printTable();
  printSummary();
  return 0;
}

process.exitCode = await main();
