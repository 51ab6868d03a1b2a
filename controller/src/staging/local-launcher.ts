/**
 * LocalStagerLauncher: runs stager instances as plain child processes on the
 * controller's host, without agents or isolation. For development (`npm start`
 * with PLATFORM_STAGER_LAUNCHER=local) and for tests of staging; a cluster
 * uses the scheduler's launcher, which runs stagers on agents.
 *
 * What it does per launch, as an agent would (the environment is built by the one
 * implementation both use, `buildEnvironment` of @platform/proto/common): picks the
 * stager job's process (`app`, else the first), layers the environment of its packages
 * and their dependencies (and of the extra packages of a relaunch) in install order,
 * then the process's own, then the platform's variables and the launch's (STAGER_URL);
 * runs the process's command (else the packages' START_COMMAND) in a fresh working
 * directory, which is also HOME and the default START_PATH; streams stdout and stderr
 * line by line to the sink. Packages' archives are not installed: built-in stager
 * packages are host paths. Nothing of the controller's own environment is passed on.
 */
import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { buildEnvironment, mainProcessName, startArgv, type Logger } from '@platform/proto/common';
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

export class LocalStagerLauncher implements StagerLauncher {
  constructor(private readonly o: LocalStagerLauncherOptions) {}

  async launch(request: StagerLaunch): Promise<StagerRun> {
    const job = await this.o.jobs.find(request.stagerJobUuid);
    if (!job) throw new Error(`stager job ${request.stagerJobUuid} does not exist`);
    const name = mainProcessName(Object.keys(job.processes));
    const proc = name === undefined ? undefined : job.processes[name];
    const installed = await this.o.resolver.resolveInstallOrder(
      [...job.packages.filter((p) => p.source === 'user').map((p) => p.uuid), ...request.extraPackageUuids],
      { bestEffort: true, ...this.o.usableBy?.(job.updated_by) },
    );
    await mkdir(this.o.workDir, { recursive: true });
    const cwd = await mkdtemp(join(this.o.workDir, 'stager-'));
    const { STAGER_URL: stagerUrl = '', ...launchEnvironment } = request.environment;
    const env = buildEnvironment({
      packages: installed.map((r) => r.package.environment),
      process: proc?.environment,
      defaultStartPath: cwd,
      home: cwd,
      platform: {
        PLATFORM_JOB_UUID: job.uuid,
        PLATFORM_JOB_FQN: job.fqn,
        PLATFORM_JOB_NAME: job.name,
        // The run stands in for the instance that an agent would have made.
        PLATFORM_INSTANCE_UUID: request.runId,
        ...launchEnvironment,
      },
      stagerUrl,
    });
    const argv = startArgv({ startCommandRaw: proc?.start_command_raw, startCommand: proc?.start_command }, env);
    if (!argv) {
      await rm(cwd, { recursive: true, force: true }).catch(() => undefined);
      throw new Error(`stager job ${job.fqn} has no start command: its process has none and no package sets START_COMMAND`);
    }
    const [file, ...args] = argv as [string, ...string[]];
    const child = spawn(file, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
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
      // What the child wrote before its request is in the pipes: one turn of the event loop reads it.
      flushLogs: () => new Promise((resolve) => setImmediate(resolve)),
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
