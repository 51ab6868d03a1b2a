/**
 * LocalStagerLauncher: runs stager instances as plain child processes on the
 * controller's host, without agents or isolation. For development (`npm start`
 * with PLATFORM_STAGER_LAUNCHER=local) and for tests of staging; a cluster
 * uses the scheduler's launcher, which runs stagers on agents.
 *
 * What it does per launch: picks the stager job's process (`app`, else the only
 * one), applies the environment of its packages and their dependencies (and of
 * the extra packages of a relaunch) in install order, then the process's own
 * environment, then the launch's (STAGER_URL); runs the command in a fresh
 * working directory; streams stdout and stderr line by line to the sink.
 * Packages' archives are not installed: built-in stager packages are host paths.
 */
import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import type { Logger } from '../log/logger.js';
import type { DependencyResolver } from '../packages/dependencies.js';
import type { UsableBy } from '../policy/references.js';
import type { StagerJobs } from './coordinator/staging-coordinator.js';
import type { StagerLaunch, StagerLauncher, StagerRun, StagerRunEnd, StagingLogSink } from './stager-launcher.js';

export interface LocalStagerLauncherOptions {
  jobs: StagerJobs;
  resolver: DependencyResolver;
  /** Dependencies resolve among the packages the stager job's principal may use. Absent: any. */
  usableBy?: UsableBy;
  sink: StagingLogSink;
  log: Logger;
  /** Where each run gets its working directory. */
  workDir: string;
  /** Between SIGTERM and SIGKILL on stop. Default 3 s. */
  killGraceMs?: number;
}

/** Expands `$NAME` and `${NAME}` from `env` (unknown names become empty), as package environments expect. */
export function expandEnv(value: string, env: Record<string, string | undefined>): string {
  return value.replace(/\$(?:\{([A-Za-z_][A-Za-z0-9_]*)\}|([A-Za-z_][A-Za-z0-9_]*))/g, (_, a: string | undefined, b: string | undefined) => env[(a ?? b)!] ?? '');
}

/** The controller's own environment without its secrets and settings. */
function baseEnvironment(): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined && !k.startsWith('PLATFORM_')) out[k] = v;
  return out;
}

export class LocalStagerLauncher implements StagerLauncher {
  constructor(private readonly o: LocalStagerLauncherOptions) {}

  async launch(request: StagerLaunch): Promise<StagerRun> {
    const job = await this.o.jobs.find(request.stagerJobUuid);
    if (!job) throw new Error(`stager job ${request.stagerJobUuid} does not exist`);
    const names = Object.keys(job.processes);
    const name = names.includes('app') ? 'app' : names.length === 1 ? names[0]! : undefined;
    if (name === undefined) throw new Error(`stager job ${job.fqn} needs one process (or one named "app"); it has ${names.length}`);
    const proc = job.processes[name]!;
    const command: [string, string[]] | undefined = proc.start_command_raw?.length
      ? [proc.start_command_raw[0]!, proc.start_command_raw.slice(1)]
      : proc.start_command
        ? ['/bin/sh', ['-c', proc.start_command]]
        : undefined;
    if (!command) throw new Error(`stager job ${job.fqn} has no start command`);
    const installed = await this.o.resolver.resolveInstallOrder(
      [...job.packages.filter((p) => p.source === 'user').map((p) => p.uuid), ...request.extraPackageUuids],
      { bestEffort: true, ...this.o.usableBy?.(job.updated_by) },
    );
    const env: Record<string, string> = baseEnvironment();
    for (const record of installed) {
      for (const [k, v] of Object.entries(record.package.environment)) {
        if (k === 'START_COMMAND' || k === 'START_PATH') continue;
        env[k] = expandEnv(v, env);
      }
    }
    for (const [k, v] of Object.entries(proc.environment ?? {})) env[k] = expandEnv(v, env);
    Object.assign(env, request.environment);

    await mkdir(this.o.workDir, { recursive: true });
    const cwd = await mkdtemp(join(this.o.workDir, 'stager-'));
    const child = spawn(command[0], command[1], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    const log = this.o.log.child({ run: request.runId, package: request.packageUuid, pid: child.pid });
    createInterface({ input: child.stdout! }).on('line', (line) => this.o.sink(request.packageUuid, 'stdout', line));
    createInterface({ input: child.stderr! }).on('line', (line) => this.o.sink(request.packageUuid, 'stderr', line));
    const ended = new Promise<StagerRunEnd>((resolve) => {
      child.once('error', (err) => resolve({ failed: true, reason: err.message }));
      child.once('exit', (code, signal) =>
        resolve(code === null ? { failed: true, reason: `killed by ${signal}` } : { failed: code !== 0, exitCode: code }),
      );
    }).then(async (end) => {
      await rm(cwd, { recursive: true, force: true }).catch(() => undefined);
      log.debug('local stager ended', { ...end });
      return end;
    });
    const signalGroup = (signal: NodeJS.Signals) => {
      try {
        // The whole process group: a shell's children must go too.
        if (child.pid !== undefined) process.kill(-child.pid, signal);
      } catch {
        // Gone already.
      }
    };
    let stopping: Promise<void> | undefined;
    return {
      ended,
      stop: (reason) => {
        stopping ??= (async () => {
          if (child.exitCode !== null || child.signalCode !== null) return void (await ended);
          log.info('stopping local stager', { reason });
          signalGroup('SIGTERM');
          const kill = setTimeout(() => signalGroup('SIGKILL'), this.o.killGraceMs ?? 3000);
          kill.unref();
          await ended;
          clearTimeout(kill);
        })();
        return stopping;
      },
    };
  }
}
