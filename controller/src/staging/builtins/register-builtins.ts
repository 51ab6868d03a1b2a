/**
 * Built-in packages, stager jobs and staging pipelines, registered at every
 * start (idempotent: what exists is brought up to date, nothing is duplicated):
 *
 *   package::/platform/os::linux                    provides os.linux, os.<id>, os.<id>-<version>; host system dirs
 *   package::/platform/runtimes::<rt>-<version>     provides runtime.<rt>, runtime.<rt>-<major>, ...; PATH; depends on os.linux
 *   package::/platform/stagers::stager-sdk          the stager SDK's built code (host paths); depends on runtime.node
 *   job::/platform/stagers::<runtime>               one process `app`: node <sdk>/dist/bin/builtin-stager.js <runtime>
 *   stagpipe::/platform::<runtime>                  [that job]
 *
 * Built-in packages have no archive: agents bind their `host_paths` read-only.
 */
import { realpath } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ChangeContext } from '../../context.js';
import type { JobService } from '../../jobs/job-service.js';
import type { Logger } from '@platform/proto/common';
import type { BuiltinPackageSpec, PackageService } from '../../packages/package-service.js';
import type { ReferenceCheck } from '../../policy/references.js';
import type { PipelineService } from '../pipeline.js';
import { RUNTIMES } from '../runtimes.js';
import { probeOs, probeRuntimes, versionLevels, type HostOs, type HostRuntime } from './host-probe.js';

export const BUILTIN_PRINCIPAL = 'platform@platform.local';
export const OS_PACKAGE_FQN = 'package::/platform/os::linux';
export const STAGER_SDK_PACKAGE_FQN = 'package::/platform/stagers::stager-sdk';

export const stagerJobFqn = (runtime: string) => `job::/platform/stagers::${runtime}`;
export const pipelineFqn = (runtime: string) => `stagpipe::/platform::${runtime}`;

export function osPackageSpec(os: HostOs): BuiltinPackageSpec {
  const provides = [{ type: 'os' as const, name: os.kernel }];
  if (os.id) provides.push({ type: 'os', name: os.id });
  if (os.id && os.versionId) provides.push({ type: 'os', name: `${os.id}-${os.versionId}` });
  return { fqn: OS_PACKAGE_FQN, provides, dependencies: [], environment: {}, hostPaths: os.hostPaths, tags: { builtin: 'os' } };
}

export function runtimePackageSpec(rt: HostRuntime): BuiltinPackageSpec {
  return {
    fqn: `package::/platform/runtimes::${rt.name}-${rt.version}`,
    provides: versionLevels(rt.name, rt.version).map((name) => ({ type: 'runtime' as const, name })),
    dependencies: [{ type: 'os', name: 'linux' }],
    environment: { PATH: `${rt.binDir}:$PATH`, ...rt.environment },
    hostPaths: rt.hostPaths,
    tags: { builtin: 'runtime' },
  };
}

/**
 * Where the stager SDK is installed, and what its code imports from: the node_modules holding
 * its dependencies (tar), and the real directory of the workspace packages it uses
 * (@platform/proto, linked into node_modules from elsewhere in a clone of the repository).
 */
export async function locateStagerSdk(): Promise<{ root: string; hostPaths: string[] } | undefined> {
  try {
    const entry = fileURLToPath(import.meta.resolve('@platform/stager-sdk'));
    const root = await realpath(dirname(dirname(entry))); // <root>/dist/index.js
    const require = createRequire(join(root, 'package.json'));
    const tar = await realpath(require.resolve('tar'));
    const modules = tar.slice(0, tar.lastIndexOf('/node_modules/') + '/node_modules'.length);
    const proto = dirname(dirname(dirname(await realpath(require.resolve('@platform/proto/common'))))); // <proto>/dist/common/index.js
    const paths = [root, modules, proto];
    return { root, hostPaths: paths.filter((p, i, all) => all.indexOf(p) === i && !all.some((o, j) => j !== i && p.startsWith(`${o}/`))) };
  } catch {
    return undefined;
  }
}

export interface BuiltinsResult {
  os: string;
  runtimes: string[];
  pipelines: string[];
}

/** What the host offers built-in packages: its system and the runtimes found on it. */
export interface HostFindings {
  os: HostOs;
  runtimes: HostRuntime[];
}

/**
 * Probes the host for built-in packages (it runs each runtime found, a few hundred milliseconds
 * in all): a controller starts it first thing and registers what it found once its state is
 * loaded, so that the probe does not lengthen the start.
 */
export async function probeHost(log: Logger): Promise<HostFindings> {
  const os = await probeOs();
  const runtimes = await probeRuntimes(os, (name, err) => log.warn('runtime probe failed', { runtime: name, err }));
  return { os, runtimes };
}

export async function registerBuiltins(
  deps: { packages: PackageService; jobs: JobService; pipelines: PipelineService; log: Logger; references: ReferenceCheck },
  options: { stagerSdk?: { root: string; hostPaths: string[] } | undefined; host?: Promise<HostFindings> } = {},
): Promise<BuiltinsResult> {
  const ctx: ChangeContext = { principal: BUILTIN_PRINCIPAL, requestId: 'builtins' };
  const { os, runtimes } = await (options.host ?? probeHost(deps.log));
  await deps.packages.registerBuiltin(osPackageSpec(os), ctx);
  for (const rt of runtimes) await deps.packages.registerBuiltin(runtimePackageSpec(rt), ctx);

  const sdk = options.stagerSdk ?? (await locateStagerSdk());
  const pipelines: string[] = [];
  if (!sdk) {
    deps.log.warn('the stager SDK was not found: no built-in stagers or pipelines');
  } else {
    const sdkPackage = await deps.packages.registerBuiltin(
      {
        fqn: STAGER_SDK_PACKAGE_FQN,
        provides: [],
        dependencies: [{ type: 'runtime', name: 'node' }],
        environment: { STAGER_SDK: sdk.root },
        hostPaths: sdk.hostPaths,
        tags: { builtin: 'stager' },
      },
      ctx,
    );
    const script = join(sdk.root, 'dist', 'bin', 'builtin-stager.js');
    for (const { runtime } of RUNTIMES) {
      const body = {
        fqn: stagerJobFqn(runtime),
        packages: [{ uuid: sdkPackage.uuid }],
        processes: { app: { start_command_raw: ['node', script, runtime] } },
        tags: { builtin: 'stager' },
      };
      const [existing] = await deps.jobs.list({ fqn: { type: 'job', namespace: '/platform/stagers', localName: runtime }, matchPartialFqn: false, health: false });
      const job = existing ? (await deps.jobs.update(existing.uuid, body, ctx, deps.references)).job : await deps.jobs.create(body, ctx, deps.references);
      const pipeline = await deps.pipelines.findByFqn(pipelineFqn(runtime));
      if (!pipeline) await deps.pipelines.create({ fqn: pipelineFqn(runtime), stagers: [{ uuid: job.uuid }] }, ctx, deps.references);
      else if (pipeline.stagers.length !== 1 || pipeline.stagers[0]!.uuid !== job.uuid) {
        await deps.pipelines.update(pipeline.uuid, { fqn: pipeline.fqn, stagers: [{ uuid: job.uuid }] }, ctx, deps.references);
      }
      pipelines.push(pipelineFqn(runtime));
    }
  }
  return { os: OS_PACKAGE_FQN, runtimes: runtimes.map((r) => `${r.name}-${r.version}`), pipelines };
}
