/**
 * `platform app deploy [dir]`: from a directory to a running app, in the order a user would
 * do it by hand (docs/api.md, "Run an app"):
 *
 *   pack (ignore file, digest while packing) -> runtime (GET /runtimes) -> pipeline
 *   -> package (POST, or the ready package of the same digest) -> upload (progress bar)
 *   -> staging log, live, until ready or failed -> job (POST, or PATCH of the existing one:
 *   new package, instances, memory, environment, start command, rollout) -> wait until the
 *   new version's instances are RUNNING and routed, or say why not -> the URL.
 *
 * A package is named `<app>-<first 12 hex of its sha256>`, so deploying the same directory
 * again reuses the staged package instead of uploading it twice.
 */
import { createReadStream } from 'node:fs';
import { basename, resolve } from 'node:path';
import { Readable } from 'node:stream';
import type { PlatformClient } from '../client/client.js';
import type { Instance, Job, JobInput, Package, Route } from '../client/types.js';
import { CommandError, UsageError } from '../config.js';
import { localName } from '../names.js';
import { ProgressBar, Spinner, formatBytes, type Output } from '../output.js';
import type { Session } from '../session.js';
import { packDirectory, ignoreFilter } from './pack.js';
import { detectRuntime, topLevelFiles } from './runtime.js';

export interface DeployOptions {
  name?: string;
  runtime?: string;
  instances?: number;
  memory?: number;
  env?: Record<string, string>;
  startCommand?: string;
  routes?: string[];
  /** false: no route (a worker). */
  route?: boolean;
  rolling?: boolean;
  /** false: create or update the job stopped. */
  start?: boolean;
  wait?: boolean;
  timeoutSeconds?: number;
  /** `app create`: refuse when the job exists. */
  create?: boolean;
}

export interface DeployResult {
  job: Job;
  package: Package;
  created: boolean;
  urls: string[];
  instances: Instance[];
}

const POLL_MS = 500;
// Not unref'd: the command waits on it, nothing else keeps the process alive meanwhile.
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export async function deploy(s: Session, dirArg: string | undefined, o: DeployOptions): Promise<DeployResult> {
  const out = s.out;
  const client = await s.client();
  const dir = resolve(dirArg ?? '.');
  const name = o.name ?? basename(dir).toLowerCase().replace(/[^a-z0-9_.-]+/g, '-');
  const jobFqn = await s.fqn(name, 'job');
  const namespace = jobFqn.slice('job::'.length, jobFqn.lastIndexOf('::'));
  const existing = await client.findJob(jobFqn);
  if (existing && o.create) throw new CommandError(`the app ${jobFqn} exists already: use \`platform app deploy\` to update it`, { fqn: jobFqn });

  // The runtime, before packing: an app no runtime recognizes stops here.
  const keep = await ignoreFilter(dir);
  const runtimes = await client.runtimes();
  let runtime = o.runtime;
  if (runtime === undefined) {
    const found = detectRuntime(await topLevelFiles(dir, keep), runtimes);
    if (!found) {
      throw new CommandError(`no runtime recognizes the files of ${dir}; name one with --runtime (${runtimes.map((r) => r.runtime).join(', ')})`);
    }
    runtime = found.runtime;
  } else if (!runtimes.some((r) => r.runtime === runtime)) {
    throw new UsageError(`--runtime ${runtime}: this cluster knows ${runtimes.map((r) => r.runtime).join(', ')}`);
  }
  const pipelineFqn = `stagpipe::/platform::${runtime}`;
  const pipeline = (await client.listPipelines(pipelineFqn))[0];
  if (!pipeline) throw new CommandError(`the cluster has no staging pipeline ${pipelineFqn}`);

  const archive = await packDirectory(dir);
  try {
    out.note(`Packed ${archive.files} files of ${dir} (${formatBytes(archive.length)}, ${archive.digest.slice(0, 19)}...), runtime ${runtime}`);
    const pkg = await stagedPackage(client, out, {
      fqn: `package::${namespace}::${name}-${archive.digest.slice('sha256:'.length, 'sha256:'.length + 12)}`,
      archive,
      pipelineUuid: pipeline.uuid,
    });
    return await runJob(client, out, { jobFqn, existing, pkg, o, router: await s.router() });
  } finally {
    await archive.dispose();
  }
}

async function stagedPackage(
  client: PlatformClient,
  out: Output,
  p: { fqn: string; archive: { path: string; length: number; digest: string }; pipelineUuid: string },
): Promise<Package> {
  let pkg = (await client.listPackages({ fqn: p.fqn }))[0];
  if (pkg?.state === 'ready') {
    out.note(`Package ${p.fqn} is staged already (same contents)`);
    return pkg;
  }
  if (pkg && pkg.state !== 'staging') {
    // A deploy that stopped half way (uploading) or a failed staging: start over.
    await client.deletePackage(pkg.uuid);
    pkg = undefined;
  }
  if (!pkg) {
    pkg = await client.createPackage({
      fqn: p.fqn,
      resources: [{ length: p.archive.length, digest: p.archive.digest }],
      staging_pipeline: { uuid: p.pipelineUuid },
    });
    const resource = pkg.resources[0];
    if (!resource) throw new CommandError(`package ${pkg.uuid} was created without its resource`);
    const bar = new ProgressBar(out, 'Uploading', p.archive.length);
    const file = createReadStream(p.archive.path);
    file.on('data', (chunk) => bar.advance(chunk.length));
    await client.uploadResource(pkg.uuid, resource.uuid, Readable.toWeb(file) as ReadableStream<Uint8Array>, p.archive.length);
    bar.finish();
    out.note(`Uploaded ${formatBytes(p.archive.length)}; staging:`);
  }
  return followStaging(client, out, pkg);
}

/** Shows the package's staging log as it is written, until the package is ready (or failed: then throws with the log). */
export async function followStaging(client: PlatformClient, out: Output, start: Package): Promise<Package> {
  const abort = new AbortController();
  let lastSeq = 0;
  const lines: string[] = [];
  const show = (line: string) => {
    lines.push(line);
    out.line(`  ${line}`);
  };
  const tail = (async () => {
    for await (const ev of client.tailPackageLogs(start.uuid, { lines: 10_000, signal: abort.signal })) {
      lastSeq = ev.seq;
      show(ev.line);
    }
  })().catch((err: unknown) => {
    if (!abort.signal.aborted) out.note(`(the staging log stream ended: ${(err as Error).message})`);
  });
  let pkg = start;
  while (pkg.state !== 'ready' && pkg.state !== 'failed') {
    await sleep(POLL_MS);
    pkg = await client.getPackage(start.uuid);
  }
  abort.abort();
  await tail;
  // What the stream had not delivered yet when the package finished.
  const rest = await client.packageLogs(start.uuid, { after: lastSeq, lines: 10_000 });
  for (const line of rest.split('\n').filter((l) => l !== '')) show(line);
  if (pkg.state === 'failed') {
    throw new CommandError(`staging failed: ${pkg.error_message || 'see the log above'}`, {
      reason: 'staging_failed',
      package: pkg.uuid,
      error_message: pkg.error_message ?? '',
      log: lines,
    });
  }
  return pkg;
}

async function runJob(
  client: PlatformClient,
  out: Output,
  r: { jobFqn: string; existing: Job | undefined; pkg: Package; o: DeployOptions; router: string | undefined },
): Promise<DeployResult> {
  const { o } = r;
  const state = o.start === false ? 'stopped' : 'started';
  const routes: Route[] | undefined =
    o.route === false ? [] : o.routes && o.routes.length > 0 ? o.routes.map((endpoint) => ({ type: 'http', endpoint })) : undefined;
  let job: Job;
  if (!r.existing) {
    const input: JobInput = {
      fqn: r.jobFqn,
      num_instances: o.instances ?? 1,
      packages: [{ uuid: r.pkg.uuid }],
      processes: {
        app: {
          ...(o.startCommand ? { start_command: o.startCommand } : {}),
          ...(o.env && Object.keys(o.env).length > 0 ? { environment: o.env } : {}),
        },
      },
      ports: [{ number: 0, routes: routes ?? [{ type: 'http', auto_provision: true }] }],
      tags: { app: '' },
      ...(o.memory ? { resources: { memory: o.memory } } : {}),
      ...(o.rolling ? { rollout: { rolling_mode: true } } : {}),
      state,
    };
    job = await client.createJob(input);
    out.note(`Created job ${job.fqn} (${job.uuid})`);
  } else {
    const current = r.existing;
    const app = current.processes?.['app'] ?? {};
    const patch: Record<string, unknown> = { packages: [{ uuid: r.pkg.uuid }], state };
    if (o.instances !== undefined) patch['num_instances'] = o.instances;
    if (o.memory !== undefined) patch['resources'] = { memory: o.memory };
    if (o.rolling !== undefined) patch['rollout'] = { rolling_mode: o.rolling };
    const processPatch: Record<string, unknown> = {};
    if (o.startCommand !== undefined) processPatch['start_command'] = o.startCommand;
    if (o.env && Object.keys(o.env).length > 0) processPatch['environment'] = { ...(app.environment ?? {}), ...o.env };
    if (Object.keys(processPatch).length > 0) patch['processes'] = { app: processPatch };
    if (routes !== undefined) {
      const ports = current.ports ?? [];
      patch['ports'] = ports.length > 0 ? ports.map((p, i) => (i === 0 ? { ...p, routes } : p)) : [{ number: 0, routes }];
    }
    job = await client.patchJob(current.uuid, patch, current.version_id);
    out.note(`Updated job ${job.fqn} to version ${job.version_id}${job.rollout?.rolling_mode ? ' (rolling)' : ''}`);
  }
  const urls = routeUrls(job, r.router);
  if (state === 'stopped' || o.wait === false) return { job, package: r.pkg, created: !r.existing, urls, instances: [] };
  const instances = await waitRunning(client, out, job, (o.timeoutSeconds ?? 180) * 1000);
  for (const url of urls) out.line(`${localName(job.fqn)} is running: ${url}`);
  if (urls.length === 0) out.line(`${localName(job.fqn)} is running (${instances.length} instance${instances.length === 1 ? '' : 's'}, no route)`);
  return { job: await client.getJob(job.uuid), package: r.pkg, created: !r.existing, urls, instances };
}

/**
 * The URLs of a job's HTTP routes, through the router at `router` (host:port) when one is
 * known; `.localhost` names otherwise through 8000, the port of `npm start`'s router.
 */
export function routeUrls(job: Job, router: string | undefined): string[] {
  const port = router ? router.slice(router.lastIndexOf(':') + 1) : undefined;
  return (job.ports ?? []).flatMap((p) =>
    (p.routes ?? [])
      .filter((r) => r.type === 'http' && r.endpoint)
      .map((r) => {
        const [host, ...path] = r.endpoint!.split('/');
        const withPort = port ? `${host}:${port}` : host!.endsWith('.localhost') ? `${host}:8000` : host;
        return `http://${withPort}/${path.join('/')}`;
      }),
  );
}

/**
 * Waits until the job's instances of this version (or later) are RUNNING, as many as it
 * asks for, and routed when it has routes. Says why not: a crash loop (the job went
 * `errored`), instances waiting for placement, instances that keep exiting.
 */
export async function waitRunning(client: PlatformClient, out: Output, job: Job, timeoutMs: number): Promise<Instance[]> {
  const spinner = new Spinner(out);
  const deadline = Date.now() + timeoutMs;
  const routed = routeUrls(job, undefined).length > 0;
  let why: string;
  try {
    for (;;) {
      const [current, instances, health] = await Promise.all([client.getJob(job.uuid), client.instances(job.uuid), client.jobHealth([job.uuid])]);
      const message = typeof health[0]?.['message'] === 'string' ? (health[0]['message'] as string) : undefined;
      if (current.state === 'errored') {
        const logs = await client.jobLogs(job.uuid, 20).catch(() => '');
        throw new CommandError(`the app is in a crash loop (job errored): ${message ?? 'its instances keep exiting'}${logs ? `\nits last log lines:\n${logs.trimEnd()}` : ''}`, {
          reason: 'crash_loop',
          job: job.uuid,
          message: message ?? '',
          log: logs,
        });
      }
      const fresh = instances.filter((i) => (i.job_version_id ?? 0) >= job.version_id && i.state !== 'REMOVED');
      const running = fresh.filter((i) => (i.state === 'RUNNING' || i.state === 'FIRST_RUNNING') && (!routed || i.announced_routes));
      if (running.length >= current.num_instances) return running;
      const exited = fresh.filter((i) => i.exited || i.failed);
      why = message
        ? `waiting: ${message}`
        : exited.length > 0
          ? `instances exited (${exited.map((i) => `exit code ${i.exit_code ?? '?'}${i.reason ? `: ${i.reason}` : ''}`).join('; ')}), restarting`
          : `${running.length}/${current.num_instances} instances running (${fresh.map((i) => i.state).join(', ') || 'none placed yet'})`;
      spinner.update(why);
      if (Date.now() > deadline) {
        const reason = message ? 'placement_waiting' : exited.length > 0 ? 'crash_loop' : 'timeout';
        throw new CommandError(`the app did not come up in ${Math.round(timeoutMs / 1000)} s: ${why}`, { reason, job: job.uuid });
      }
      await sleep(POLL_MS);
    }
  } finally {
    spinner.stop();
  }
}
