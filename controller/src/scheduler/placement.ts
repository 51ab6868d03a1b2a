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

function softCount(request: PlacementRequest, c: PlacementCandidate): number {
  let n = 0;
  for (const t of request.softTags) if (c.tags.includes(t)) n++;
  return n;
}

function hasHardTags(request: PlacementRequest, c: PlacementCandidate): boolean {
  for (const t of request.hardTags) if (!c.tags.includes(t)) return false;
  return true;
}

/** Why no candidate fits `request` (when none does). */
function noneFits(request: PlacementRequest, candidates: readonly PlacementCandidate[]): string {
  if (candidates.length === 0) return 'no instance manager is connected';
  const lacks = new Set<string>();
  for (const c of candidates) if (hasHardTags(request, c)) lacks.add(shortage(c, request.resources)!);
  if (lacks.size === 0) return `no connected instance manager has the hard scheduling tags ${request.hardTags.join(', ')}`;
  return `no instance manager has room for another instance: ${[...lacks].join('; ')}`;
}

export function place(request: PlacementRequest, candidates: readonly PlacementCandidate[]): Placement {
  if (candidates.length === 0) return { reason: 'no instance manager is connected' };
  const { hardTags, softTags } = request;
  const soft = (c: PlacementCandidate) => softCount(request, c);
  const tagged = (c: PlacementCandidate) => hardTags.length === 0 || hasHardTags(request, c);
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
  return { reason: noneFits(request, candidates) };
}

/** A candidate in a {@link PlacementQueue}, with the keys of the order worked out. */
interface Ranked {
  c: PlacementCandidate;
  soft: number;
  free: number;
}

/** True when `a` comes before `b` in the order of `place` (soft tags, spread, free memory, uuid). */
function before(a: Ranked, b: Ranked): boolean {
  if (a.soft !== b.soft) return a.soft > b.soft;
  if (a.c.jobInstances !== b.c.jobInstances) return a.c.jobInstances < b.c.jobInstances;
  if (a.free !== b.free) return a.free > b.free;
  return a.c.uuid < b.c.uuid;
}

/**
 * Several placements of one request in a row, each as `place` would choose given the ones
 * before: the candidates that fit, kept in a binary heap in `place`'s order. The first costs a
 * pass over the candidates, each later one the logarithm of their number (`place` for each of a
 * job's 100 instances over 1,000 agents looked at 100,000 candidates; bench:scale).
 *
 * Between two calls of `next`, only the agent it chose may change, and only by taking an
 * instance (its resources provisioned, one more instance of the job): the caller says so with
 * `reserved`. Taking resources never makes an agent fit that did not, and only moves it later
 * in the order, so the heap stays right by moving that one agent down, or out once it is full.
 */
export class PlacementQueue {
  readonly #heap: Ranked[] = [];

  constructor(
    private readonly request: PlacementRequest,
    private readonly candidates: readonly PlacementCandidate[],
  ) {
    for (const c of candidates) {
      if (!hasHardTags(request, c) || shortage(c, request.resources) !== undefined) continue;
      this.#heap.push({ c, soft: request.softTags.length > 0 ? softCount(request, c) : 0, free: free(c.total.memory, c.provisioned.memory) });
    }
    for (let i = (this.#heap.length >> 1) - 1; i >= 0; i--) this.#down(i);
  }

  /** The agent `place` would choose now. */
  next(): Placement {
    const top = this.#heap[0];
    return top ? { agent: top.c.uuid } : { reason: noneFits(this.request, this.candidates) };
  }

  /**
   * The agent last chosen took an instance: `provisioned` is what it has provisioned now,
   * `jobInstances` how many of the job's instances it holds.
   */
  reserved(agent: string, provisioned: Readonly<Resource>, jobInstances: number): void {
    const heap = this.#heap;
    const at = heap[0]?.c.uuid === agent ? 0 : heap.findIndex((r) => r.c.uuid === agent);
    if (at < 0) return;
    const r = heap[at]!;
    r.c.provisioned = provisioned;
    r.c.jobInstances = jobInstances;
    r.free = free(r.c.total.memory, provisioned.memory);
    if (shortage(r.c, this.request.resources) === undefined) {
      this.#down(at);
      return;
    }
    const last = heap.pop()!;
    if (at < heap.length) {
      heap[at] = last;
      this.#down(this.#up(at));
    }
  }

  /** Moves the entry at `i` up while it comes before its parent; answers where it ends. */
  #up(i: number): number {
    const heap = this.#heap;
    const r = heap[i]!;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!before(r, heap[parent]!)) break;
      heap[i] = heap[parent]!;
      i = parent;
    }
    heap[i] = r;
    return i;
  }

  #down(i: number): void {
    const heap = this.#heap;
    const r = heap[i]!;
    for (;;) {
      const left = 2 * i + 1;
      if (left >= heap.length) break;
      const right = left + 1;
      const child = right < heap.length && before(heap[right]!, heap[left]!) ? right : left;
      if (!before(heap[child]!, r)) break;
      heap[i] = heap[child]!;
      i = child;
    }
    heap[i] = r;
  }
}
