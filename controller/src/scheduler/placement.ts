/**
 * Placement: which agent gets one new instance of a job. A pure function of the request and
 * the agents' state, so that it is tested without agents and decided synchronously (the caller
 * reserves the chosen agent's resources before anything else can place).
 *
 * Rules, in order:
 *   1. hard scheduling tags: every one must be among the agent's tags (operator or system tags);
 *   2. resources: the job's cpu, memory and disk must fit in what the agent has not provisioned
 *      (cpu 0 asks for no share; an agent reporting 0 of something is not limited in it);
 *   3. among those that fit: the most soft tags matched, then the fewest instances of this job
 *      (spread), then the most free memory, then the uuid (a stable order).
 * When none fits, the answer says why, for the job's health and the operator.
 */
import type { Resource } from '../model/job.js';

export interface PlacementRequest {
  resources: Resource;
  hardTags: readonly string[];
  softTags: readonly string[];
}

export interface PlacementCandidate {
  uuid: string;
  tags: readonly string[];
  total: Readonly<Resource>;
  provisioned: Readonly<Resource>;
  /** Instances of the job being placed already on this agent. */
  jobInstances: number;
}

export type Placement = { agent: string } | { agent?: undefined; reason: string };

const MiB = 1024 * 1024;

function fmtBytes(n: number): string {
  return n >= 1024 * MiB ? `${(n / (1024 * MiB)).toFixed(1)} GiB` : `${Math.round(n / MiB)} MiB`;
}

function free(total: number, used: number): number {
  return total <= 0 ? Number.POSITIVE_INFINITY : total - used;
}

/** What `c` lacks for `r`, or undefined when it fits. */
function shortage(c: PlacementCandidate, r: Resource): string | undefined {
  if (r.memory > 0 && free(c.total.memory, c.provisioned.memory) < r.memory) {
    return `memory (${fmtBytes(Math.max(0, c.total.memory - c.provisioned.memory))} free, ${fmtBytes(r.memory)} needed)`;
  }
  if (r.disk > 0 && free(c.total.disk, c.provisioned.disk) < r.disk) {
    return `disk (${fmtBytes(Math.max(0, c.total.disk - c.provisioned.disk))} free, ${fmtBytes(r.disk)} needed)`;
  }
  if (r.cpu > 0 && free(c.total.cpu, c.provisioned.cpu) < r.cpu) {
    return `cpu (${Math.max(0, c.total.cpu - c.provisioned.cpu)} ms/s free, ${r.cpu} needed)`;
  }
  return undefined;
}

export function place(request: PlacementRequest, candidates: readonly PlacementCandidate[]): Placement {
  if (candidates.length === 0) return { reason: 'no instance manager is connected' };
  const { hardTags, softTags } = request;
  const soft = (c: PlacementCandidate) => {
    let n = 0;
    for (const t of softTags) if (c.tags.includes(t)) n++;
    return n;
  };
  const tagged = (c: PlacementCandidate) => {
    for (const t of hardTags) if (!c.tags.includes(t)) return false;
    return true;
  };
  // The first in that order among those that fit, in one pass without intermediate lists or
  // sorting (with a thousand agents, sorting them, or the lists of each step, were most of a
  // placement's cost and garbage); the reasons are worked out only when none fits.
  let best: PlacementCandidate | undefined;
  let bestSoft = 0;
  let bestFree = 0;
  let anyTagged = false;
  for (const c of candidates) {
    if (!tagged(c)) continue;
    anyTagged = true;
    if (shortage(c, request.resources) !== undefined) continue;
    const s = softTags.length > 0 ? soft(c) : 0;
    const f = free(c.total.memory, c.provisioned.memory);
    if (best !== undefined) {
      const order = bestSoft - s || c.jobInstances - best.jobInstances || (f === bestFree ? 0 : f > bestFree ? -1 : 1) || (c.uuid < best.uuid ? -1 : c.uuid > best.uuid ? 1 : 0);
      if (order >= 0) continue;
    }
    best = c;
    bestSoft = s;
    bestFree = f;
  }
  if (best) return { agent: best.uuid };
  if (!anyTagged) return { reason: `no connected instance manager has the hard scheduling tags ${request.hardTags.join(', ')}` };
  const lacks = new Set<string>();
  for (const c of candidates) if (tagged(c)) lacks.add(shortage(c, request.resources)!);
  return { reason: `no instance manager has room for another instance: ${[...lacks].join('; ')}` };
}
