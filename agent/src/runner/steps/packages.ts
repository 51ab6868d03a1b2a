/**
 * Step `packages`: each package with an archive, in install order, from the cache (fetched and
 * verified when missing) extracted under `root/<install_path>`; for a stager, the staged
 * package's dependencies again under `root/stagerfs` (stager rule 3). Everything is charged to
 * one budget of the job's disk resource, so a compression bomb stops there. Nothing to release:
 * the files go with the instance's directory.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { DiskBudget, extractArchive } from '../../packages/extract.js';
import type { InstanceContext, InstanceStep } from '../context.js';
import type { RunSpec } from '../spec.js';

type PackageSpec = RunSpec['packages'][number];

async function install(ctx: InstanceContext, pkgs: readonly PackageSpec[], into: string, budget: DiskBudget, suffix = ''): Promise<void> {
  const signal = ctx.signal;
  for (const pkg of pkgs) {
    if (!pkg.digest || pkg.length <= 0) continue;
    await ctx.deps.cache.use(pkg.digest, pkg.length, signal, async (file) => {
      if (signal.aborted) throw new Error('stopped during setup');
      await extractArchive(file, into, pkg.installPath, { label: `package ${pkg.fqn || pkg.uuid}${suffix}`, budget });
    });
  }
}

export const packagesStep: InstanceStep = {
  name: 'packages',
  async prepare(ctx) {
    const spec = ctx.spec;
    const budget = new DiskBudget(spec.resources.disk);
    await install(ctx, spec.packages, ctx.root, budget);
    // Charged to the same budget: the copy is on the instance's disk too.
    if (spec.stagerUrl) mkdirSync(stagerfsDir(ctx), { recursive: true });
    await install(ctx, spec.stagerfs ?? [], stagerfsDir(ctx), budget, ' (under /stagerfs)');
  },
};

/** Where a stager's /stagerfs is on the host. */
export function stagerfsDir(ctx: InstanceContext): string {
  return join(ctx.root, 'stagerfs');
}
