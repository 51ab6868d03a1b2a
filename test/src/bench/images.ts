/**
 * Container image benchmark (`npm run bench:images -w test`, or `npm run bench:images`): an
 * image of three layers (about 50 MiB compressed: random bytes, which do not compress, and
 * text, which does) in a real registry (Debian docker-registry, started here on a loopback
 * port) is pulled by a controller into a ready package (POST /packages/container: manifest,
 * layers streamed to disk with their digests checked, flattened into one gzip archive, stored
 * as a package), beside `skopeo copy` of the same image to a local OCI directory (Debian
 * skopeo), in one run. Each run starts with an empty layer cache. Prints the medians, the
 * ratio (aim: within 1.5x of skopeo) and the controller's peak resident memory.
 *
 * Without skopeo the controller's figures are printed alone, with a line saying so.
 * Environment: BENCH_IMAGES_RUNS (runs of each, default 3); BENCH_IMAGES_PROFILE=<dir> starts the
 * controller with --cpu-prof (a .cpuprofile in <dir> when it exits).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import WebSocket from 'ws';
import { ControllerProcess } from '../harness/controller-process.js';
import { unique } from '../harness/fixtures.js';
import type { ApiClient } from '../harness/http.js';
import { REGISTRY_BIN, Registry, type TarEntrySpec } from '../harness/registry.js';
import { envCount } from './env.js';

const RUNS = envCount('BENCH_IMAGES_RUNS', 3);
const PROFILE_DIR = process.env['BENCH_IMAGES_PROFILE'];

/** CPU time (user + system) of process `pid` so far, in ms. */
async function cpuMs(pid: number): Promise<number> {
  const fields = (await readFile(`/proc/${pid}/stat`, 'utf8')).split(') ')[1]!.split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
}
const MiB = 1024 * 1024;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/** `count` files of `size` bytes under `dir`: random bytes, or text that compresses about 4:1. */
function files(dir: string, count: number, size: number, random: boolean): TarEntrySpec[] {
  const out: TarEntrySpec[] = [{ path: `${dir}/`, type: 'dir' }];
  for (let i = 0; i < count; i++) {
    const content = random ? randomBytes(size) : Buffer.from(Array.from({ length: Math.ceil(size / 64) }, () => `${randomBytes(24).toString('base64')} the quick brown fox\n`).join('').slice(0, size));
    out.push({ path: `${dir}/f${i}`, content });
  }
  return out;
}

/** Ends when the task's WebSocket stream ends; rejects when the task errored. */
function taskDone(api: ApiClient, location: string): Promise<void> {
  const ws = new WebSocket(location.replace(/^http/, 'ws'), { headers: api.defaultHeaders });
  let last: { task_event_type: string; payload: Record<string, string> } | undefined;
  return new Promise((resolve, reject) => {
    ws.on('message', (data) => (last = JSON.parse(String(data)) as typeof last));
    ws.on('close', () => (last?.task_event_type === 'eos' ? resolve() : reject(new Error(`task ended: ${JSON.stringify(last)}`))));
    ws.on('error', reject);
  });
}

async function peakRssKiB(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  return Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? 0);
}

async function main(): Promise<void> {
  if (!existsSync(REGISTRY_BIN)) {
    console.log('bench:images needs docker-registry (apt-get install docker-registry)');
    process.exitCode = 1;
    return;
  }
  const skopeo = spawnSync('sh', ['-c', 'command -v skopeo']).status === 0;
  const registry = await Registry.start();
  const controller = await ControllerProcess.start({ args: ['--router-listen', 'none'], ...(PROFILE_DIR ? { nodeArgs: ['--cpu-prof', `--cpu-prof-dir=${PROFILE_DIR}`] } : {}) });
  const work = await mkdtemp(join(tmpdir(), 'platform-bench-images-'));
  try {
    // Three layers, about 50 MiB compressed in all.
    const layers = [files('base', 40, 512 * 1024, true), files('lib', 20, 1024 * 1024, false), files('app', 24, 1024 * 1024, true)];
    const pushed = await registry.pushImage('bench/image', 'v1', { layers, config: { Entrypoint: ['/app/f0'] } });
    const compressed = pushed.layers.reduce((n, l) => n + l.size, 0);
    console.log(`image: 3 layers, ${(compressed / MiB).toFixed(1)} MiB compressed (${pushed.layers.map((l) => (l.size / MiB).toFixed(1)).join(' + ')} MiB)`);
    const api = await controller.admin();
    const rssBefore = Number(/VmRSS:\s+(\d+)/.exec(await readFile(`/proc/${controller.child.pid!}/status`, 'utf8'))?.[1] ?? 0);
    const layerDir = join(controller.dataDir, 'images', 'layers');
    const ours: number[] = [];
    const ourCpu: number[] = [];
    let lastTask = '';
    for (let i = 0; i < RUNS; i++) {
      for (const f of await readdir(layerDir)) await rm(join(layerDir, f), { force: true });
      const started = performance.now();
      const cpuBefore = await cpuMs(controller.child.pid!);
      const r = await api.post<{ location: string }>('/packages/container', { image_url: `${registry.address}/bench/image:v1`, package_fqn: `package::/bench::${unique('img')}` });
      if (r.status !== 200) throw new Error(`POST /packages/container: ${r.status} ${r.text}`);
      await taskDone(api, r.body.location);
      ours.push(performance.now() - started);
      ourCpu.push((await cpuMs(controller.child.pid!)) - cpuBefore);
      lastTask = r.body.location;
    }
    // Where the time went in the last run: the task's events, stage by stage.
    const events = (await api.get<{ events: { time: number; stage: string; subtask: { name: string } }[] }>(new URL(lastTask).pathname)).body.events;
    const phases: string[] = [];
    for (let i = 1; i < events.length; i++) {
      const ms = (events[i]!.time - events[i - 1]!.time) / 1e6;
      if (ms >= 50) phases.push(`${events[i - 1]!.subtask.name.replace(/sha256:(\w{12})\w+/, 'sha256:$1…')} ${ms.toFixed(0)} ms`);
    }
    console.log(`  last run, steps of 50 ms or more: ${phases.join('; ')}`);
    const rss = await peakRssKiB(controller.child.pid!);
    const ourMs = median(ours);
    console.log(`controller: pull + verify + flatten + store into a ready package: ${ourMs.toFixed(0)} ms (median of ${RUNS}; ${ours.map((x) => x.toFixed(0)).join(', ')}), ` +
      `${((compressed / MiB) / (ourMs / 1000)).toFixed(1)} MiB/s; controller CPU ${median(ourCpu).toFixed(0)} ms per pull (all threads); controller RSS ${(rssBefore / 1024).toFixed(0)} MiB before the pulls, peak ${(rss / 1024).toFixed(0)} MiB`);
    if (!skopeo) {
      console.log('skopeo is not installed (apt-get install skopeo): no comparison');
      return;
    }
    const theirs: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      const dir = join(work, `oci-${i}`);
      const started = performance.now();
      execFileSync('skopeo', ['copy', '--quiet', '--src-tls-verify=false', `docker://${registry.address}/bench/image:v1`, `oci:${dir}:v1`]);
      theirs.push(performance.now() - started);
      await rm(dir, { recursive: true, force: true });
    }
    const theirMs = median(theirs);
    console.log(`skopeo copy to a local OCI directory: ${theirMs.toFixed(0)} ms (median of ${RUNS}; ${theirs.map((x) => x.toFixed(0)).join(', ')})`);
    console.log(`ratio controller / skopeo: ${(ourMs / theirMs).toFixed(2)}x (aim: at most 1.5x; the controller also flattens the layers into one archive and stores it as a package)`);
  } finally {
    if (PROFILE_DIR) await controller.stop(); // a graceful exit writes the profile
    await controller.dispose();
    await registry.dispose();
    await rm(work, { recursive: true, force: true });
  }
}

await main();
