/**
 * Staging pipelines: ordered lists of stager jobs (StagingPipeline in the spec).
 * Pipelines change rarely, so their writes go through one mailbox rather than
 * an actor each; that one mailbox also keeps their FQNs unique.
 */
import { z } from 'zod';
import type { ChangeContext, Deps } from '../context.js';
import { Mailbox } from '../actors/mailbox.js';
import { DuplicateError, InvalidRequestError, NotFoundError } from '../errors.js';
import { diffPatches } from '../audit/patches.js';
import { parseFqn } from '../model/fqn.js';
import { parseInput, str, uuid } from '../model/validate.js';
import type { ReferenceCheck, ReferenceLookup } from '../policy/references.js';
import { keys } from '../store/keys.js';
import { getJson, type BatchOp } from '../store/store.js';
import { formatTimestampNs } from '../util/clock.js';
import { jsonEqual } from '../util/json.js';
import type { StagingPipeline } from '../model/pipeline.js';

export type { StagingPipeline };

export const pipelineInputSchema = z.object({
  fqn: str(512),
  name: str(512).optional(),
  stagers: z.array(z.object({ uuid: uuid() })).max(32).optional(),
});

/** Index entries from each stager job to the pipeline that runs it. */
function stagerIndexOps(pipeline: string, before: { uuid: string }[], after: { uuid: string }[]): BatchOp[] {
  const was = new Set(before.map((s) => s.uuid));
  const now = new Set(after.map((s) => s.uuid));
  const ops: BatchOp[] = [];
  for (const job of was) if (!now.has(job)) ops.push({ type: 'del', key: keys.stagerOf(job, pipeline) });
  for (const job of now) if (!was.has(job)) ops.push({ type: 'put', key: keys.stagerOf(job, pipeline), value: '' });
  return ops;
}

export class PipelineService {
  readonly #writes = new Mailbox();

  constructor(private readonly deps: Deps) {}

  #parse(body: unknown): { fqn: string; name: string; stagers: { uuid: string }[] } {
    const input = parseInput(pipelineInputSchema, body, 'staging pipeline');
    const fqn = parseFqn(input.fqn, { type: 'stagpipe' });
    if (input.name && input.name !== fqn.localName) {
      throw new InvalidRequestError(`name: "${input.name}" does not match the name in fqn "${input.fqn}"`);
    }
    return { fqn: input.fqn, name: fqn.localName!, stagers: (input.stagers ?? []).map((s) => ({ uuid: s.uuid.toLowerCase() })) };
  }

  /** Rebuilds the stager index from the pipelines (a data directory written before it existed). */
  async restore(): Promise<void> {
    const ops: BatchOp[] = [];
    for await (const [, value] of this.deps.store.iterate({ prefix: keys.pipelinePrefix })) {
      const p = JSON.parse(value) as StagingPipeline;
      for (const s of p.stagers) ops.push({ type: 'put', key: keys.stagerOf(s.uuid, p.uuid), value: '' });
    }
    // Entries that are there already are written again alike: any split is safe (etcd's --max-txn-ops).
    const max = this.deps.store.maxBatchOps ?? Infinity;
    for (let i = 0; i < ops.length; i += max) await this.deps.store.batch(ops.slice(i, i + max));
  }

  /** A pipeline runs its stager jobs: the caller must be allowed to `start` each (policy/references.ts). */
  async #checkStagers(stagers: { uuid: string }[], refs: ReferenceCheck): Promise<void> {
    await refs.resolve(stagers.map((s) => ({ type: 'job', uuid: s.uuid, permission: 'start', field: 'stagers' })));
  }

  /** `refs` checks the stager jobs the body names for the caller. */
  async create(body: unknown, ctx: ChangeContext, refs: ReferenceCheck): Promise<StagingPipeline> {
    const input = this.#parse(body);
    await this.#checkStagers(input.stagers, refs);
    return this.#writes.post(async () => {
      const existing = await this.deps.store.get(keys.pipelineByFqn(input.fqn));
      if (existing !== undefined) throw new DuplicateError(`staging pipeline ${input.fqn} exists already (uuid ${existing})`);
      const counter = Number((await this.deps.store.get(keys.meta('pipeline-auto-id'))) ?? '0') + 1;
      const now = formatTimestampNs(this.deps.clock.nowNs());
      const pipeline: StagingPipeline = {
        uuid: this.deps.ids.uuid(),
        fqn: input.fqn,
        name: input.name,
        stagers: input.stagers,
        auto_id: counter,
        version_id: 1,
        created_at: now,
        updated_at: now,
        created_by: ctx.principal,
        updated_by: ctx.principal,
      };
      await this.deps.store.batch([
        { type: 'put', key: keys.pipeline(pipeline.uuid), value: JSON.stringify(pipeline) },
        { type: 'put', key: keys.pipelineByFqn(pipeline.fqn), value: pipeline.uuid },
        { type: 'put', key: keys.meta('pipeline-auto-id'), value: String(counter) },
        ...stagerIndexOps(pipeline.uuid, [], pipeline.stagers),
        this.deps.audit.entry(ctx, 'stagpipe.create', pipeline.fqn),
      ]);
      return pipeline;
    });
  }

  /** How bodies refer to pipelines (policy/references.ts): by uuid or FQN. */
  referenceLookup(): ReferenceLookup {
    const { store } = this.deps;
    return {
      byUuid: async (uuids) => {
        const raw = await store.getMany(uuids.map((u) => keys.pipeline(u)));
        return new Map(raw.flatMap((v) => (v === undefined ? [] : [[(JSON.parse(v) as StagingPipeline).uuid, (JSON.parse(v) as StagingPipeline).fqn]])));
      },
      byFqn: async (fqns) => {
        const ids = await store.getMany(fqns.map((f) => keys.pipelineByFqn(f)));
        return new Map(fqns.flatMap((f, i) => (ids[i] === undefined ? [] : [[f, ids[i]]])));
      },
    };
  }

  async get(uuid: string): Promise<StagingPipeline> {
    const pipeline = await getJson<StagingPipeline>(this.deps.store, keys.pipeline(uuid));
    if (!pipeline) throw new NotFoundError(`staging pipeline ${uuid} not found`);
    return pipeline;
  }

  async findByFqn(fqn: string): Promise<StagingPipeline | undefined> {
    const id = await this.deps.store.get(keys.pipelineByFqn(fqn));
    return id === undefined ? undefined : getJson<StagingPipeline>(this.deps.store, keys.pipeline(id));
  }

  /** All pipelines, or the one named by `fqn`, ordered by FQN. */
  async list(fqn?: string): Promise<StagingPipeline[]> {
    if (fqn !== undefined) {
      parseFqn(fqn, { type: 'stagpipe' });
      const found = await this.findByFqn(fqn);
      return found ? [found] : [];
    }
    const out: StagingPipeline[] = [];
    for await (const [, value] of this.deps.store.iterate({ prefix: keys.pipelinePrefix })) {
      out.push(JSON.parse(value) as StagingPipeline);
    }
    return out.sort((a, b) => (a.fqn < b.fqn ? -1 : a.fqn > b.fqn ? 1 : 0));
  }

  /** `refs` checks the stager jobs the body names for the caller. */
  async update(uuid: string, body: unknown, ctx: ChangeContext, refs: ReferenceCheck): Promise<StagingPipeline> {
    const input = this.#parse(body);
    await this.#checkStagers(input.stagers, refs);
    return this.#writes.post(async () => {
      const current = await this.get(uuid);
      if (input.fqn !== current.fqn) {
        throw new InvalidRequestError(`fqn: a staging pipeline's fqn cannot be changed (this one is ${current.fqn})`);
      }
      if (jsonEqual(input.stagers, current.stagers)) return current;
      const next: StagingPipeline = {
        ...current,
        stagers: input.stagers,
        version_id: current.version_id + 1,
        updated_at: formatTimestampNs(this.deps.clock.nowNs()),
        updated_by: ctx.principal,
      };
      await this.deps.store.batch([
        { type: 'put', key: keys.pipeline(uuid), value: JSON.stringify(next) },
        ...stagerIndexOps(uuid, current.stagers, next.stagers),
        this.deps.audit.entry(ctx, 'stagpipe.update', next.fqn, { patches: diffPatches('stagpipe', current, next) }),
      ]);
      return next;
    });
  }

  async delete(uuid: string, ctx: ChangeContext): Promise<void> {
    await this.#writes.post(async () => {
      const current = await this.get(uuid);
      await this.deps.store.batch([
        { type: 'del', key: keys.pipeline(uuid) },
        { type: 'del', key: keys.pipelineByFqn(current.fqn) },
        ...stagerIndexOps(uuid, current.stagers, []),
        this.deps.audit.entry(ctx, 'stagpipe.delete', current.fqn),
      ]);
    });
  }

  /** The FQNs of a pipeline's stager jobs, in order; stagers whose job is gone are left out. */
  async stagerJobFqns(pipeline: StagingPipeline): Promise<string[]> {
    const raw = await this.deps.store.getMany(pipeline.stagers.map((s) => keys.job(s.uuid)));
    return raw.filter((v): v is string => v !== undefined).map((v) => (JSON.parse(v) as { fqn: string }).fqn);
  }
}
