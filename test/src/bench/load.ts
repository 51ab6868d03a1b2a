/**
 * Load test (`npm run bench:load -w test`): many clients against one real
 * controller holding a few thousand jobs, with a mix of requests, and a check
 * that no acknowledged write was lost, also after a kill -9 and a restart.
 *
 *   1. seed:   BENCH_JOBS jobs (default 3,000) in 20 namespaces, tagged
 *   2. lists:  one client, the cost of list requests at that size (p50/p99)
 *   3. load:   BENCH_CLIENTS clients (default 200) for BENCH_SECONDS (default 60), each in a loop:
 *                50% GET /jobs/{uuid}   20% GET /jobs?...&count=20 (all, a later page, a namespace, a tag)
 *                15% POST /jobs (a new job)   15% PUT /jobs/{uuid} (a new tag value on a job of its own)
 *   4. verify: every acknowledged POST and PUT is read back (the job exists, its tags are the
 *              last acknowledged ones, or those of a later PUT that got no answer); then kill -9,
 *              restart on the same data directory, read back again
 *
 * Each client owns the jobs it PUTs (seeded jobs are dealt out among the clients), so
 * the last acknowledged PUT of a job is the state it must have. The controller runs
 * with its default durability (fsync before every acknowledgement).
 *
 * Environment: BENCH_JOBS, BENCH_CLIENTS, BENCH_SECONDS, BENCH_PHASES (comma-separated
 * subset of seed,lists,load,verify; seed always runs).
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { cpus, loadavg } from 'node:os';
import { ControllerProcess } from '../harness/controller-process.js';
import { envCount } from './env.js';

const JOBS = envCount('BENCH_JOBS', 3000);
const CLIENTS = envCount('BENCH_CLIENTS', 200);
const SECONDS = envCount('BENCH_SECONDS', 60);
const PHASES = new Set((process.env['BENCH_PHASES'] ?? 'seed,lists,load,verify').split(','));
const NAMESPACES = 20;
/** A request without an answer by then counts as an error (and a write as one of unknown outcome). */
const REQUEST_TIMEOUT_MS = 120_000;

function progress(line: string): void {
  process.stderr.write(`${line}\n`);
}

// ---------------------------------------------------------------- HTTP

interface Answer {
  status: number;
  body: string;
  ms: number;
}

let agent = new Agent({ keepAlive: true, maxSockets: CLIENTS + 8 });
let baseUrl = '';
let authHeaders: Record<string, string> = {};

function call(method: string, path: string, body?: unknown): Promise<Answer> {
  const text = body === undefined ? undefined : JSON.stringify(body);
  const started = process.hrtime.bigint();
  return new Promise((resolve, reject) => {
    const req = request(
      `${baseUrl}${path}`,
      {
        method,
        agent,
        headers: { ...authHeaders, ...(text === undefined ? {} : { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(text)) }) },
        timeout: REQUEST_TIMEOUT_MS,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8'), ms: Number(process.hrtime.bigint() - started) / 1e6 }),
        );
        res.on('error', reject);
      },
    );
    req.on('timeout', () => req.destroy(new Error(`timed out after ${REQUEST_TIMEOUT_MS / 1000} s`)));
    req.on('error', reject);
    req.end(text);
  });
}

// ---------------------------------------------------------------- jobs

interface Owned {
  uuid: string;
  body: JobBody;
  /** The tags of the last acknowledged write. */
  acked: Record<string, string>;
  /** Tags of later PUTs that got no answer (a timeout): the job may have any of them instead. */
  maybe?: Record<string, string>[];
}

interface JobBody {
  fqn: string;
  num_instances: number;
  processes: Record<string, { start_command: string }>;
  tags: Record<string, string>;
}

function jobBody(fqn: string, team: number, rev: string): JobBody {
  return { fqn, num_instances: 1, processes: { app: { start_command: 'node index.js' } }, tags: { app: '', team: `t${team}`, rev } };
}

async function createJob(fqn: string, team: number): Promise<Owned> {
  const body = jobBody(fqn, team, '0');
  const r = await call('POST', '/v1/jobs', body);
  if (r.status !== 200) throw new Error(`POST /v1/jobs answered ${r.status}: ${r.body}`);
  return { uuid: (JSON.parse(r.body) as { uuid: string }).uuid, body, acked: body.tags };
}

async function seed(): Promise<Owned[]> {
  const started = Date.now();
  const jobs: Owned[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: 32 }, async () => {
      while (next < JOBS) {
        const i = next++;
        jobs.push(await createJob(`job::/load/n${i % NAMESPACES}::seed${String(i).padStart(6, '0')}`, i % 10));
      }
    }),
  );
  progress(`seeded ${JOBS} jobs in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  return jobs;
}

// ---------------------------------------------------------------- figures

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

const fmt = (ms: number) => (Number.isNaN(ms) ? '-' : ms < 10 ? ms.toFixed(2) : ms.toFixed(1));
const pad = (s: string, n: number, right = false) => (right ? s.padEnd(n) : s.padStart(n));

let clockTicks = 100;
try {
  clockTicks = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
} catch {
  // not Linux-like: cpuMs() answers NaN
}

/** User + system CPU time of a process in ms, from /proc (Linux); NaN elsewhere. Less sensitive to a busy machine than latency. */
function cpuMs(pid: number | undefined): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / clockTicks;
  } catch {
    return NaN;
  }
}

/** Lists as a single client sees them: the cost of one list request at this size. */
async function listCosts(pid: number | undefined): Promise<void> {
  const cases: [string, string][] = [
    ['GET /jobs?count=20', '/v1/jobs?count=20'],
    ['GET /jobs?count=20&page=100', '/v1/jobs?count=20&page=100'],
    ['GET /jobs?fqn=<namespace>&count=20', `/v1/jobs?fqn=${encodeURIComponent('job::/load/n7')}&matchPartialFQN=true&count=20`],
    ['GET /jobs?tag=team=t3&count=20', '/v1/jobs?tag=team%3Dt3&count=20'],
    ['GET /jobs?fqn=<one job>', `/v1/jobs?fqn=${encodeURIComponent('job::/load/n3::seed000003')}`],
    ['GET /packages', '/v1/packages'],
  ];
  console.log(`List cost at ${JOBS} jobs, one client, 100 requests each (ms):`);
  console.log(`  ${pad('request', 40, true)} ${pad('p50', 8)} ${pad('p99', 8)} ${pad('srv CPU/req', 12)}`);
  for (const [label, path] of cases) {
    const times: number[] = [];
    let cpuStart = NaN;
    for (let i = 0; i < 110; i++) {
      if (i === 10) cpuStart = cpuMs(pid);
      const r = await call('GET', path);
      if (r.status !== 200) throw new Error(`${label} answered ${r.status}: ${r.body}`);
      if (i >= 10) times.push(r.ms);
    }
    const cpuPerRequest = (cpuMs(pid) - cpuStart) / times.length;
    times.sort((a, b) => a - b);
    console.log(`  ${pad(label, 40, true)} ${pad(fmt(percentile(times, 50)), 8)} ${pad(fmt(percentile(times, 99)), 8)} ${pad(fmt(cpuPerRequest), 12)}`);
  }
  console.log('  (srv CPU/req: the controller process\'s user+system CPU ms per request, from /proc; steadier than latency on a busy machine)');
  console.log('');
}

// ---------------------------------------------------------------- load

type Kind = 'GET /jobs/{uuid}' | 'GET /jobs?...count=20' | 'POST /jobs' | 'PUT /jobs/{uuid}';
const KINDS: Kind[] = ['GET /jobs/{uuid}', 'GET /jobs?...count=20', 'POST /jobs', 'PUT /jobs/{uuid}'];

interface Tally {
  ms: number[];
  errors: number;
  firstError?: string;
}

async function load(seeded: Owned[]): Promise<{ owned: Owned[]; tallies: Map<Kind, Tally>; seconds: number; unknownOutcome: number }> {
  const tallies = new Map<Kind, Tally>(KINDS.map((k) => [k, { ms: [] as number[], errors: 0 }]));
  const owned: Owned[][] = Array.from({ length: CLIENTS }, () => []);
  seeded.forEach((job, i) => owned[i % CLIENTS]!.push(job));
  let created = 0;
  let unknownOutcome = 0;
  const deadline = Date.now() + SECONDS * 1000;
  const started = Date.now();
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(Math.random() * xs.length)]!;
  const lists = [
    () => '/v1/jobs?count=20',
    () => `/v1/jobs?count=20&page=${1 + Math.floor(Math.random() * Math.ceil(JOBS / 20))}`,
    () => `/v1/jobs?fqn=${encodeURIComponent(`job::/load/n${Math.floor(Math.random() * NAMESPACES)}`)}&matchPartialFQN=true&count=20`,
    () => `/v1/jobs?tag=team%3Dt${Math.floor(Math.random() * 10)}&count=20`,
  ];
  const record = (kind: Kind, r: Answer | Error, ok: (a: Answer) => boolean) => {
    const tally = tallies.get(kind)!;
    if (r instanceof Error || !ok(r)) {
      tally.errors++;
      tally.firstError ??= r instanceof Error ? r.message : `${r.status} ${r.body.slice(0, 200)}`;
      return false;
    }
    tally.ms.push(r.ms);
    return true;
  };
  const attempt = (method: string, path: string, body?: unknown) => call(method, path, body).catch((err: unknown) => err as Error);
  await Promise.all(
    Array.from({ length: CLIENTS }, async (_, client) => {
      const mine = owned[client]!;
      while (Date.now() < deadline) {
        const dice = Math.random();
        if (dice < 0.5) {
          const job = pick(seeded);
          record('GET /jobs/{uuid}', await attempt('GET', `/v1/jobs/${job.uuid}`), (a) => a.status === 200);
        } else if (dice < 0.7) {
          record('GET /jobs?...count=20', await attempt('GET', pick(lists)()), (a) => a.status === 200);
        } else if (dice < 0.85) {
          const n = created++;
          const body = jobBody(`job::/load/n${n % NAMESPACES}/new::c${client}-${n}`, n % 10, '0');
          const r = await attempt('POST', '/v1/jobs', body);
          if (record('POST /jobs', r, (a) => a.status === 200)) mine.push({ uuid: (JSON.parse((r as Answer).body) as { uuid: string }).uuid, body, acked: body.tags });
          else if (r instanceof Error) unknownOutcome++;
        } else if (mine.length > 0) {
          const job = pick(mine);
          const tags = { ...job.acked, rev: String(Number(job.acked['rev']) + 1) };
          const r = await attempt('PUT', `/v1/jobs/${job.uuid}`, { ...job.body, tags });
          if (record('PUT /jobs/{uuid}', r, (a) => a.status === 200)) {
            job.acked = tags;
            delete job.maybe;
          } else if (r instanceof Error) {
            unknownOutcome++;
            (job.maybe ??= []).push(tags);
          }
        }
      }
    }),
  );
  return { owned: owned.flat(), tallies, seconds: (Date.now() - started) / 1000, unknownOutcome };
}

function sameTags(a: Record<string, string>, b: Record<string, string>): boolean {
  const ka = Object.keys(a);
  return ka.length === Object.keys(b).length && ka.every((k) => a[k] === b[k]);
}

/** Reads every job back; answers how many are missing or not as last acknowledged. */
async function verify(owned: Owned[], when: string): Promise<number> {
  let lost = 0;
  let next = 0;
  const examples: string[] = [];
  await Promise.all(
    Array.from({ length: 32 }, async () => {
      while (next < owned.length) {
        const job = owned[next++]!;
        const r = await call('GET', `/v1/jobs/${job.uuid}`);
        const tags = r.status === 200 ? (JSON.parse(r.body) as { tags: Record<string, string> }).tags : undefined;
        if (!tags || ![job.acked, ...(job.maybe ?? [])].some((t) => sameTags(tags, t))) {
          lost++;
          if (examples.length < 5) examples.push(`${job.uuid}: ${r.status} ${JSON.stringify(tags)} (acknowledged ${JSON.stringify(job.acked)})`);
        }
      }
    }),
  );
  progress(`read back ${owned.length} jobs ${when}: ${lost} lost${examples.length ? `\n  ${examples.join('\n  ')}` : ''}`);
  return lost;
}

// ---------------------------------------------------------------- main

async function main(): Promise<number> {
  const cpuList = cpus();
  console.log(`Load test: ${CLIENTS} clients for ${SECONDS} s against one controller with ${JOBS} seeded jobs, loopback`);
  console.log(`node ${process.version}, ${cpuList.length} CPU(s) (${cpuList[0]?.model.trim() ?? 'unknown model'}); the load generator shares the machine`);
  console.log('');
  let controller = await ControllerProcess.start({ env: { PLATFORM_LOG_LEVEL: 'info' } });
  try {
    baseUrl = controller.url;
    authHeaders = (await controller.admin()).defaultHeaders;
    const seeded = await seed();
    if (PHASES.has('lists')) await listCosts(controller.child.pid);
    if (!PHASES.has('load')) return 0;
    progress(`load: ${CLIENTS} clients for ${SECONDS} s…`);
    console.log(`Machine load average (1 min) before the load: ${loadavg()[0]!.toFixed(1)}`);
    const { owned, tallies, seconds, unknownOutcome } = await load(seeded);
    let total = 0;
    let errors = 0;
    console.log(`Load: ${CLIENTS} clients, ${seconds.toFixed(1)} s (ms)`);
    console.log(`  ${pad('kind', 24, true)} ${pad('requests', 9)} ${pad('req/s', 7)} ${pad('p50', 8)} ${pad('p99', 8)} ${pad('errors', 7)}`);
    for (const kind of KINDS) {
      const t = tallies.get(kind)!;
      const sorted = [...t.ms].sort((a, b) => a - b);
      total += sorted.length + t.errors;
      errors += t.errors;
      console.log(
        `  ${pad(kind, 24, true)} ${pad(String(sorted.length), 9)} ${pad((sorted.length / seconds).toFixed(1), 7)} ${pad(fmt(percentile(sorted, 50)), 8)} ${pad(fmt(percentile(sorted, 99)), 8)} ${pad(String(t.errors), 7)}${t.firstError ? `  first: ${t.firstError}` : ''}`,
      );
    }
    console.log(`  ${pad('all', 24, true)} ${pad(String(total), 9)} ${pad((total / seconds).toFixed(1), 7)} ${pad('', 8)} ${pad('', 8)} ${pad(String(errors), 7)}`);
    console.log(`  machine load average (1 min) at the end: ${loadavg()[0]!.toFixed(1)} on ${cpus().length} CPU(s)`);
    console.log('  recorded on an earlier build, before the load hardening: GET /jobs/{uuid} p50 327 ms, p99 938 ms; 222 req/s in all; 0 errors (GET /jobs?count=20: 35-50 ms at 3,700 jobs)');
    console.log('');
    if (!PHASES.has('verify')) return errors > 0 ? 1 : 0;
    const acknowledged = owned.length;
    const lostLive = await verify(owned, 'after the load');
    agent.destroy();
    await controller.kill9();
    progress('kill -9 and restart…');
    controller = await controller.restart();
    baseUrl = controller.url;
    agent = new Agent({ keepAlive: true, maxSockets: 40 });
    authHeaders = (await controller.admin()).defaultHeaders;
    const lostRestart = await verify(owned, 'after kill -9 and restart');
    console.log(`Acknowledged writes: ${acknowledged} jobs (seeded, POSTed and PUT during the load) read back:`);
    console.log(`  lost after the load: ${lostLive}; lost after kill -9 and restart: ${lostRestart}; writes with no answer (outcome unknown): ${unknownOutcome}`);
    return errors > 0 || lostLive > 0 || lostRestart > 0 ? 1 : 0;
  } finally {
    agent.destroy();
    await controller.dispose();
  }
}

process.exitCode = await main();
