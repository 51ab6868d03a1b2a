/**
 * Step `cgroups`: the instance's cgroups with its memory and cpu limits, when the host has them
 * (a failure leaves the instance without limits, as a host without cgroups would). Released
 * once their processes are gone (the runner kills them first).
 */
import type { InstanceStep } from '../context.js';

export const cgroupsStep: InstanceStep = {
  name: 'cgroups',
  prepare(ctx) {
    const { deps, rec, spec } = ctx;
    if (!deps.cgroups.available) return;
    try {
      rec.cgroups = deps.cgroups.create(spec.instanceUuid, { memory: spec.resources.memory, cpu: spec.resources.cpu });
    } catch (err) {
      ctx.log.warn('cgroup setup failed; running without limits', { err });
      rec.cgroups = [];
    }
  },
  release(ctx) {
    ctx.deps.cgroups.remove(ctx.rec.cgroups);
  },
};
