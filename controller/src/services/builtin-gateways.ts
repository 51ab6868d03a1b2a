/**
 * The gateways shipped with the platform as built-in jobs, registered at every start like the
 * built-in stagers (idempotent: what exists is brought up to date):
 *
 *   package::/platform/gateways::gateway-sdk    the gateway SDK's built code and its dependencies
 *                                               (pg, redis) as host paths; depends on runtime.node
 *   job::/platform/gateways::postgres           node <sdk>/dist/bin/postgres-gateway.js, port 0
 *   job::/platform/gateways::redis              node <sdk>/dist/bin/redis-gateway.js, port 0
 *
 * The jobs are not started nor promoted: an administrator starts one and promotes it
 * (POST /gateways {"job_fqn": "job::/platform/gateways::postgres", "type": "postgres"}).
 */
import { realpath } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Logger } from '@platform/proto/common';
import type { ChangeContext } from '../context.js';
import type { JobService } from '../jobs/job-service.js';
import type { PackageService } from '../packages/package-service.js';
import type { ReferenceCheck } from '../policy/references.js';

export const GATEWAY_SDK_PACKAGE_FQN = 'package::/platform/gateways::gateway-sdk';
export const BUILTIN_GATEWAYS = [
  { type: 'postgres', script: 'postgres-gateway.js' },
  { type: 'redis', script: 'redis-gateway.js' },
] as const;
export const gatewayJobFqn = (type: string) => `job::/platform/gateways::${type}`;

/** Where the gateway SDK is installed, and the node_modules holding its dependencies. */
export async function locateGatewaySdk(): Promise<{ root: string; hostPaths: string[] } | undefined> {
  try {
    const entry = fileURLToPath(import.meta.resolve('@platform/gateway-sdk'));
    const root = await realpath(dirname(dirname(entry))); // <root>/dist/index.js
    const require = createRequire(join(root, 'package.json'));
    const paths = [root];
    for (const dep of ['pg', 'redis']) {
      const file = await realpath(require.resolve(dep));
      paths.push(file.slice(0, file.lastIndexOf('/node_modules/') + '/node_modules'.length));
    }
    return { root, hostPaths: paths.filter((p, i, all) => all.indexOf(p) === i && !all.some((o, j) => j !== i && p.startsWith(`${o}/`))) };
  } catch {
    return undefined;
  }
}

export async function registerBuiltinGateways(
  deps: { packages: PackageService; jobs: JobService; log: Logger; references: ReferenceCheck },
  ctx: ChangeContext,
  sdk: { root: string; hostPaths: string[] } | undefined,
): Promise<string[]> {
  if (!sdk) {
    deps.log.warn('the gateway SDK was not found: no built-in gateway jobs');
    return [];
  }
  const pkg = await deps.packages.registerBuiltin(
    {
      fqn: GATEWAY_SDK_PACKAGE_FQN,
      provides: [],
      dependencies: [{ type: 'runtime', name: 'node' }],
      environment: { GATEWAY_SDK: sdk.root },
      hostPaths: sdk.hostPaths,
      tags: { builtin: 'gateway' },
    },
    ctx,
  );
  const jobs: string[] = [];
  for (const { type, script } of BUILTIN_GATEWAYS) {
    const fqn = gatewayJobFqn(type);
    const body = {
      fqn,
      packages: [{ uuid: pkg.uuid }],
      processes: { app: { start_command_raw: ['node', join(sdk.root, 'dist', 'bin', script)] } },
      ports: [{ number: 0, optional: false }],
      tags: { builtin: 'gateway' },
    };
    const [existing] = await deps.jobs.list({ fqn: { type: 'job', namespace: '/platform/gateways', localName: type }, matchPartialFqn: false, health: false });
    // An update keeps what the administrator set (state, instances, rollout): only the program is the platform's.
    if (existing) await deps.jobs.update(existing.uuid, { ...deps.jobs.inputOf(existing), packages: body.packages, processes: body.processes }, ctx, deps.references, { mode: 'patch' });
    else await deps.jobs.create(body, ctx, deps.references);
    jobs.push(fqn);
  }
  return jobs;
}
