/**
 * Container image benchmark (`npm run bench:images -w test`, or `npm run bench:images`): an
 * image of three layers (about 50 MiB compressed: random bytes, which do not compress, and
 * text, which does) in a real registry (Debian docker-registry, started here on a loopback
 * port) is pulled by a controller into a ready package (POST /packages/container, timed to the
 * end of its task: manifest, layers streamed to disk with their digests checked, flattened into
 * one gzip archive, stored as a package), beside `skopeo copy` of the same image from the same
 * registry to a new local OCI directory (Debian skopeo, which checks every blob's digest too,
 * and fsyncs), in one run.
 *
 * After one round of each not counted, rounds of one pull and one copy in alternating order.
 * Each pull is a first pull: the layer cache is empty, and the package of the round before is
 * deleted (else its archive, the same bytes, would be in the blob store already). Before each
 * timed pull or copy, what the other side left is removed and the file system settled (`sync`):
 * freeing a deleted file's blocks (ext4 mounted with `discard`, as here) would otherwise land on
 * the next fsync, whichever side makes it. Prints each round (wall time and CPU time of both
 * sides, the controller's CPU by thread, the registry's CPU meanwhile, their ratio, the load
 * average), the last pull's task events in time, its archive's size, then the medians, the
 * median of the rounds' ratios (aim: within 1.5x of skopeo), and the controller's peak resident
 * memory.
 *
 * Without skopeo the controller's figures are printed alone, with a line saying so.
 * Environment: BENCH_IMAGES_RUNS (rounds, default 9: one round's ratio can differ from the next
 * by a third on this machine); BENCH_IMAGES_PROFILE=<dir> starts the controller with --cpu-prof
 * (a .cpuprofile in <dir> when it exits); BENCH_IMAGES_NODE_ARGS: more Node flags for the
 * controller besides its own (e.g. `--trace-gc`, whose collections BENCH_IMAGES_SHOW_GC=1
 * prints); the controller's environment is this one's (e.g.
 * PLATFORM_IMAGE_ARCHIVE_COMPRESSION=stored).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import WebSocket from 'ws';
import { ControllerProcess } from '../harness/controller-process.js';
import { unique } from '../harness/fixtures.js';
import type { ApiClient } from '../harness/http.js';
import { REGISTRY_BIN, Registry, type TarEntrySpec } from '../harness/registry.js';
import { envCount } from './env.js';

const RUNS = envCount('BENCH_IMAGES_RUNS', 9);
const PROFILE_DIR = process.env['BENCH_IMAGES_PROFILE'];
/** Node flags for the controller (space-separated), e.g. `--trace-gc`. */
const NODE_ARGS = (process.env['BENCH_IMAGES_NODE_ARGS'] ?? '').split(' ').filter(Boolean);

/** Clock ticks a second in /proc/<pid>/stat (USER_HZ: 100 on Linux). */
const CLOCK_TICKS = 100;

/** CPU time (user + system) of process `pid` so far, in ms. */
async function cpuMs(pid: number): Promise<number> {
  const fields = (await readFile(`/proc/${pid}/stat`, 'utf8')).split(') ')[1]!.split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS;
}
/** CPU time (ms) of process `pid`'s threads so far, summed by thread name (main, libuv-worker, V8 workers...). */
async function threadCpuMs(pid: number): Promise<Map<string, number>> {
  const out = new Map<string, number>();
  for (const tid of await readdir(`/proc/${pid}/task`).catch(() => [])) {
    try {
      const [stat, comm] = await Promise.all([readFile(`/proc/${pid}/task/${tid}/stat`, 'utf8'), readFile(`/proc/${pid}/task/${tid}/comm`, 'utf8')]);
      const fields = stat.split(') ')[1]!.split(' ');
      const name = tid === String(pid) ? 'main' : comm.trim();
      out.set(name, (out.get(name) ?? 0) + ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS);
    } catch {
      // the thread ended
    }
  }
  return out;
}
const MiB = 1024 * 1024;
interface Timing {
  ms: number;
  /** The controller's CPU time by thread name, ms. */
  threads?: Map<string, number>;
  /** CPU time (user + system), ms. */
  cpu: number;
  /** The registry's CPU time meanwhile, ms. */
  registryCpu: number;
  /** For a pull: ms of each stage, from its task's events (see `phasesOf`). */
  phases?: Phases;
}
/** A pull's stages: manifest and config read, layers pulled, flattened, package stored. */
const PHASES = ['manifest', 'layers', 'flatten', 'package'] as const;
type Phases = Record<(typeof PHASES)[number], number>;
interface TaskEvent {
  time: number;
  subtask: { name: string; partial?: boolean };
  payload?: Record<string, string>;
}

/** Writes what is dirty and commits the file system's journal (with the discards of what was deleted). */
function settle(): void {
  execFileSync('sync');
}

/** The stages of a pull from its task's events (times in ns), or undefined if one is missing. */
function phasesOf(events: readonly TaskEvent[]): Phases | undefined {
  const at = (re: RegExp) => events.find((e) => re.test(e.subtask.name) && !e.subtask.partial)?.time;
  const marks = [events[0]?.time, at(/^pulling layer/), at(/^flattening/), at(/^creating/), events.at(-1)?.time];
  if (marks.some((m) => m === undefined)) return undefined;
  const ms = (i: number) => (marks[i + 1]! - marks[i]!) / 1e6;
  return { manifest: ms(0), layers: ms(1), flatten: ms(2), package: ms(3) };
}
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
  const controller = await ControllerProcess.start({ args: ['--router-listen', 'none'], allowedRegistries: [registry.address], nodeArgs: [...NODE_ARGS, ...(PROFILE_DIR ? ['--cpu-prof', `--cpu-prof-dir=${PROFILE_DIR}`] : [])] });
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
    let lastTask = '';
    let lastPackage: string | undefined;
    /** One pull by the controller into a new package, from an empty layer cache: wall and CPU ms. */
    const ours = async (): Promise<Timing> => {
      for (const f of await readdir(layerDir)) await rm(join(layerDir, f), { force: true });
      if (lastPackage) {
        const deleted = await api.delete(`/packages/${lastPackage}`);
        if (deleted.status !== 200) throw new Error(`DELETE /packages/${lastPackage}: ${deleted.status} ${deleted.text}`);
        lastPackage = undefined;
      }
      settle();
      const cpuBefore = await cpuMs(controller.child.pid!);
      const registryBefore = await cpuMs(registry.pid);
      const threadsBefore = await threadCpuMs(controller.child.pid!);
      const started = performance.now();
      const r = await api.post<{ location: string }>('/packages/container', { image_url: `${registry.address}/bench/image:v1`, package_fqn: `package::/bench::${unique('img')}` });
      if (r.status !== 200) throw new Error(`POST /packages/container: ${r.status} ${r.text}`);
      await taskDone(api, r.body.location);
      const ms = performance.now() - started;
      lastTask = r.body.location;
      const threads = await threadCpuMs(controller.child.pid!);
      for (const [name, before] of threadsBefore) threads.set(name, (threads.get(name) ?? 0) - before);
      const cpu = (await cpuMs(controller.child.pid!)) - cpuBefore;
      const registryCpu = (await cpuMs(registry.pid)) - registryBefore;
      // Read after the CPU times: serving it is not the pull's.
      const events = (await api.get<{ events: TaskEvent[] }>(new URL(lastTask).pathname)).body.events;
      lastPackage = events.map((e) => e.payload?.['package_uuid']).find((u) => u !== undefined);
      const phases = phasesOf(events);
      return { ms, cpu, threads, registryCpu, ...(phases ? { phases } : {}) };
    };
    /** One `skopeo copy` into a new OCI directory: wall ms, and its CPU as its shell's children's. */
    let copies = 0;
    const theirs = async (): Promise<Timing> => {
      const dir = join(work, `oci-${copies++}`);
      settle();
      const registryBefore = await cpuMs(registry.pid);
      const started = performance.now();
      const out = execFileSync('sh', ['-c', 'skopeo "$@" || exit $?; cat /proc/$$/stat', 'sh', 'copy', '--quiet', '--src-tls-verify=false', `docker://${registry.address}/bench/image:v1`, `oci:${dir}:v1`]);
      const ms = performance.now() - started;
      const registryCpu = (await cpuMs(registry.pid)) - registryBefore;
      await rm(dir, { recursive: true, force: true });
      const fields = out.toString().split(') ')[1]!.split(' ');
      return { ms, cpu: ((Number(fields[13]) + Number(fields[14])) * 1000) / CLOCK_TICKS, registryCpu };
    };
    // One round of each not counted (the controller's first pull loads and compiles code that
    // a running controller has ready); then rounds of one pull each, in alternating order, so
    // that both sides meet the same moments of a shared machine. The ratio is taken per round.
    await ours();
    if (skopeo) await theirs();
    const rounds: { ours: Timing; theirs?: Timing; load: number }[] = [];
    for (let i = 0; i < RUNS; i++) {
      let a: Timing;
      let b: Timing | undefined;
      if (!skopeo) a = await ours();
      else if (i % 2 === 0) {
        a = await ours();
        b = await theirs();
      } else {
        b = await theirs();
        a = await ours();
      }
      const load = loadavg()[0]!;
      rounds.push({ ours: a, ...(b ? { theirs: b } : {}), load });
      console.log(
        `  round ${i + 1}: controller ${a.ms.toFixed(0)} ms (CPU ${a.cpu.toFixed(0)} ms)` +
          ` [${[...(a.threads ?? [])].filter(([, ms]) => ms > 0).map(([name, ms]) => `${name} ${ms.toFixed(0)}`).join(', ')}; registry ${a.registryCpu.toFixed(0)}]` +
          (b ? `, skopeo ${b.ms.toFixed(0)} ms (CPU ${b.cpu.toFixed(0)} ms; registry ${b.registryCpu.toFixed(0)}), ratio ${(a.ms / b.ms).toFixed(2)}x` : '') +
          `, load average ${load.toFixed(2)}`,
      );
    }
    // Where the time went in the last pull: the task's events (progress ones left out), in ms
    // from the first.
    const events = (await api.get<{ events: TaskEvent[] }>(new URL(lastTask).pathname)).body.events;
    const t0 = events[0]?.time ?? 0;
    const timeline = events
      .filter((e) => !e.subtask.partial)
      .map((e) => `${((e.time - t0) / 1e6).toFixed(0)} ${e.subtask.name.replace(/sha256:(\w{8})\w+/, '$1…').replace(/package::\S+/, 'the package')}`);
    console.log(`  last pull, its task's events (ms from the first): ${timeline.join('; ')}`);
    const phased = rounds.map((r) => r.ours.phases).filter((p): p is Phases => p !== undefined);
    if (phased.length > 0) console.log(`  stages of a pull (ms, median of ${phased.length} rounds, from the tasks' events): ${PHASES.map((p) => `${p} ${median(phased.map((x) => x[p])).toFixed(0)}`).join(', ')}`);
    const flattened = controller.lines.filter((l) => l['msg'] === 'image flattened').at(-1);
    if (flattened) console.log(`  last archive: ${flattened['bytes']} bytes, ${flattened['entries']} entries (PLATFORM_IMAGE_ARCHIVE_COMPRESSION ${process.env['PLATFORM_IMAGE_ARCHIVE_COMPRESSION'] || 'huffman'})`);
    if (process.env['BENCH_IMAGES_SHOW_GC']) for (const l of controller.lines) if (/Mark-Compact|Scavenge/.test(String(l['msg']))) console.log(`  gc: ${String(l['msg'])}`);
    const rss = await peakRssKiB(controller.child.pid!);
    const spread = (xs: number[]) => `${Math.min(...xs).toFixed(0)}-${Math.max(...xs).toFixed(0)}`;
    const ourMs = median(rounds.map((r) => r.ours.ms));
    const loads = rounds.map((r) => r.load);
    console.log(
      `controller: pull + verify + flatten + store into a ready package: ${ourMs.toFixed(0)} ms (median of ${RUNS}, ${spread(rounds.map((r) => r.ours.ms))}), ` +
        `${(compressed / MiB / (ourMs / 1000)).toFixed(1)} MiB/s; CPU ${median(rounds.map((r) => r.ours.cpu)).toFixed(0)} ms per pull (all its threads; the registry's meanwhile ${median(rounds.map((r) => r.ours.registryCpu)).toFixed(0)} ms); ` +
        `RSS ${(rssBefore / 1024).toFixed(0)} MiB before the pulls, peak ${(rss / 1024).toFixed(0)} MiB`,
    );
    if (!skopeo) {
      console.log(`skopeo is not installed (apt-get install skopeo): no comparison; load average ${median(loads).toFixed(2)} (median of the rounds)`);
      return;
    }
    const their = rounds.map((r) => r.theirs!);
    console.log(`skopeo copy to a local OCI directory: ${median(their.map((t) => t.ms)).toFixed(0)} ms (median of ${RUNS}, ${spread(their.map((t) => t.ms))}); CPU ${median(their.map((t) => t.cpu)).toFixed(0)} ms per copy (the registry's meanwhile ${median(their.map((t) => t.registryCpu)).toFixed(0)} ms)`);
    const ratios = rounds.map((r) => r.ours.ms / r.theirs!.ms);
    console.log(
      `ratio controller / skopeo: ${median(ratios).toFixed(2)}x (median of the rounds' ratios, ${Math.min(...ratios).toFixed(2)}-${Math.max(...ratios).toFixed(2)}; aim: at most 1.5x; ` +
        `the controller also decompresses and flattens the layers into one archive and stores it as a package); load average ${median(loads).toFixed(2)} (median of the rounds, ${Math.min(...loads).toFixed(2)}-${Math.max(...loads).toFixed(2)})`,
    );
  } finally {
    if (PROFILE_DIR) await controller.stop(); // a graceful exit writes the profile
    await controller.dispose();
    await registry.dispose();
    await rm(work, { recursive: true, force: true });
  }
}

await main();
