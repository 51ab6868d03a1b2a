/**
 * Profiles one case of the API benchmark (`node dist/bench/profile.js POST|GET connections seconds [--no-sync]`):
 * a controller started with --cpu-prof (profiles in $BENCH_PROFILE_DIR, default /tmp/platform-profile)
 * under autocannon load; prints req/s and the server's CPU µs per request.
 */
import autocannon, { type Options, type Request } from 'autocannon';
import { readFileSync } from 'node:fs';
import { ControllerProcess } from '../harness/controller-process.js';

const [kind = 'POST', connections = '1', seconds = '5', ...rest] = process.argv.slice(2);
const dir = process.env['BENCH_PROFILE_DIR'] ?? '/tmp/platform-profile';
const profile = process.env['BENCH_PROFILE'] !== '0';

function cpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
}

const controller = await ControllerProcess.start({
  env: { PLATFORM_LOG_LEVEL: 'info' },
  nodeArgs: profile ? ['--cpu-prof', `--cpu-prof-dir=${dir}`] : [],
  args: rest,
});
const auth = (await controller.admin()).defaultHeaders;
let n = 0;
const body = () => JSON.stringify({ fqn: `job::/bench::p${++n}`, num_instances: 1, processes: { app: { start_command: 'node index.js' } }, tags: { app: '' } });
const created = (await (await fetch(`${controller.url}/jobs`, { method: 'POST', headers: { ...auth, 'content-type': 'application/json' }, body: body() })).json()) as { uuid: string };
const options = kind === 'GET'
  ? { url: `${controller.url}/jobs/${created.uuid}`, headers: { ...auth, accept: 'application/vnd.platform.job;version=1' } }
  : {
      url: `${controller.url}/jobs`, method: 'POST' as const,
      headers: { ...auth, 'content-type': 'application/json', accept: 'application/vnd.platform.jobs;version=1' },
      requests: [{ setupRequest: (req: Request) => ({ ...req, body: body() }) }],
    };
const run = (duration: number) => autocannon({ ...(options as Options), connections: Number(connections), duration, pipelining: 1 });
await run(1);
const before = cpuMs(controller.child.pid!);
const result = await run(Number(seconds));
const after = cpuMs(controller.child.pid!);
console.log(`${kind} c=${connections} ${rest.join(' ')}: ${result.requests.average.toFixed(0)} req/s, ${result.non2xx} non-2xx, srv CPU ${(((after - before) * 1000) / result.requests.total).toFixed(0)} µs/req`);
await controller.stop();
await controller.dispose();
