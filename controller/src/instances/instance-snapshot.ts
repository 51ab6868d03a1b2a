/**
 * Snapshots of running instances (cluster-api.md: POST /jobs/{uuid}/instances/{instance_uuid}/snapshot,
 * and the package state table): a new package holding the files that the instance changed since
 * its process started (below `directory`, the instance root by default).
 *
 *   POST ─▶ package `uploading` (answered at once, Location names it)
 *             ├─ agent sends the changed files ─▶ stored as the package's archive ─▶ `ready`
 *             └─ no agent, no such directory, no changed file, too large ─▶ `failed` + error_message
 *
 * The agent's part is the one staging's POST /snapshot uses (Snapshot, UploadSnapshot); the
 * archive is re-packed with full paths (`/app/...`) like every package archive.
 *
 * Policy: reading the job and creating the package (`permit read` on the job's FQN, `permit
 * create` on pkgFQN). Audit: `job.instancesnapshot` on the job, `pkg.create` on the package.
 */
import { createReadStream } from 'node:fs';
import type { ChangeContext, Deps } from '../context.js';
import type { AgentDirectory } from '../agents/agent-directory.js';
import { baseUrl, changeContext, queryValue, sendJson, v1, type Endpoint } from '../api/endpoint.js';
import { parseDigest } from '../model/digest.js';
import { InvalidRequestError, NotFoundError } from '../errors.js';
import type { JobService } from '../jobs/job-service.js';
import { requireUuid } from '../model/validate.js';
import type { PackageService } from '../packages/package-service.js';
import { authorize, authorizeFound } from '../policy/access.js';
import { EmptySnapshotError, mergeSnapshot } from '../staging/coordinator/snapshot.js';
import type { InstanceTable } from '../scheduler/instance-table.js';

export class InstanceSnapshots {
  readonly #running = new Set<Promise<void>>();

  constructor(
    private readonly deps: Deps,
    private readonly packages: PackageService,
    private readonly agents: AgentDirectory,
    private readonly table: InstanceTable,
    /** Where archives are re-packed (in the controller's data directory). */
    private readonly tmpDir: string,
  ) {}

  /**
   * Creates the package (`uploading`) and takes the snapshot in the background. The caller
   * has checked policy. Throws (and creates nothing) when the instance is not running.
   */
  async start(job: { uuid: string; fqn: string }, instanceUuid: string, pkgFqn: string, directory: string, ctx: ChangeContext) {
    const instance = this.table.get(instanceUuid);
    if (!instance || instance.job_uuid !== job.uuid || instance.state === 'REMOVED') {
      throw new NotFoundError(`job ${job.uuid} has no running instance ${instanceUuid}`);
    }
    if (directory.split('/').includes('..')) throw new InvalidRequestError(`query directory: "${directory}" has a ".." component; it names a directory inside the instance`);
    const pkg = await this.packages.createSnapshot(pkgFqn, { job_uuid: job.uuid, instance_uuid: instanceUuid }, ctx);
    await this.deps.audit.record(ctx, 'job.instancesnapshot', job.fqn, { instance_uuid: instanceUuid, package_uuid: pkg.uuid, package_fqn: pkg.fqn, directory });
    const task = this.#take(pkg.uuid, instance.agent_uuid, instanceUuid, directory, ctx).finally(() => this.#running.delete(task));
    this.#running.add(task);
    return pkg;
  }

  async #take(packageUuid: string, agent: string, instanceUuid: string, directory: string, ctx: ChangeContext): Promise<void> {
    let digest: string | undefined;
    try {
      const changes = this.agents.requestSnapshot(agent, instanceUuid, directory);
      const merged = await mergeSnapshot(undefined, changes, this.tmpDir);
      try {
        digest = `sha256:${merged.sha256}`;
        await this.packages.ingestStagedArchive(packageUuid, createReadStream(merged.file), merged.length, parseDigest(digest, 'sha256'));
        await this.packages.finishSnapshot(packageUuid, { length: merged.length, digest }, ctx);
      } finally {
        await merged.dispose();
      }
      this.deps.log.info('instance snapshot taken', { package: packageUuid, instance: instanceUuid, request_id: ctx.requestId });
    } catch (err) {
      const message =
        err instanceof EmptySnapshotError
          ? `the instance changed no file below ${directory || '/'} since it started`
          : `the snapshot failed: ${err instanceof Error ? err.message : String(err)}`;
      this.deps.log.info('instance snapshot failed', { package: packageUuid, instance: instanceUuid, error: message });
      await this.packages.failSnapshot(packageUuid, message, ctx).catch((e: unknown) => this.deps.log.warn('snapshot failure not recorded', { package: packageUuid, err: e }));
      if (digest) await this.packages.releaseStagingBlobs(packageUuid, [digest]).catch(() => undefined);
    }
  }

  /** Snapshots under way (for tests and metrics). A controller stop abandons them; the next start fails them. */
  get running(): number {
    return this.#running.size;
  }
}

export function instanceSnapshotEndpoints(jobs: JobService, snapshots: InstanceSnapshots): Endpoint[] {
  return [
    {
      method: 'POST',
      path: '/jobs/:uuid/instances/:instance/snapshot',
      media: v1('package'),
      handler: async (ctx) => {
        const uuid = requireUuid(ctx.params['uuid'] ?? '', 'job uuid');
        const instance = requireUuid(ctx.params['instance'] ?? '', 'instance uuid');
        const job = await jobs.find(uuid);
        if (!job) throw new NotFoundError(`job ${uuid} not found`);
        await authorizeFound(ctx, job.fqn, 'read', `job ${uuid} not found`);
        const pkgFqn = queryValue(ctx, 'pkgFQN') ?? '';
        if (pkgFqn === '') throw new InvalidRequestError('query pkgFQN is required: the FQN of the package to create, e.g. package::/sandbox/admin::snap');
        await authorize(ctx, pkgFqn, 'create');
        const pkg = await snapshots.start(job, instance, pkgFqn, queryValue(ctx, 'directory') ?? '', changeContext(ctx));
        ctx.set('Location', `${baseUrl(ctx)}/v1/packages/${pkg.uuid}`);
        sendJson(ctx, v1('package'), pkg);
      },
    },
  ];
}
