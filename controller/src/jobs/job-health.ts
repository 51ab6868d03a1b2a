import type { InstanceStateName } from '@platform/proto';
import { RUNNING_STATES } from '../model/instance.js';
import type { Job, JobHealth } from '../model/job.js';

/** What the health computation needs to know of an instance. */
export interface InstanceHealthInput {
  state: InstanceStateName;
}

/**
 * JobHealth from the instances that agents report. `score` is the share of the
 * configured instances that run, between 0 and 1; a job configured for no
 * instances is fully healthy.
 */
export function computeJobHealth(job: Job, instances: readonly InstanceHealthInput[], flapping = false): JobHealth {
  const counts: Record<string, number> = {};
  let running = 0;
  for (const i of instances) {
    counts[i.state] = (counts[i.state] ?? 0) + 1;
    if (RUNNING_STATES.has(i.state)) running++;
  }
  const score = job.num_instances === 0 ? 1 : Math.min(1, running / job.num_instances);
  return { uuid: job.uuid, flapping, score, instance_state_count: counts };
}
