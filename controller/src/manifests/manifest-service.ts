/**
 * Deploying manifests (POST /manifests) and expanding them (POST /manifests/expansion).
 *
 *   body ─▶ variables filled ─▶ schema, FQNs, rule 4, what is not supported yet ─▶ per job, in
 *   dependency order: policy, packages resolved (rule 4: they must exist), images parsed, the
 *   job body checked ─── all before anything changes ───▶ task: per job, the image pulled (a
 *   docker job), then the job created, or updated with what the manifest declares (rule 1).
 *
 * Nothing is deleted (rule 3). A failure half way ends the task errored naming the job that
 * failed and why; what was done before it is whole (each job change is atomic) and listed in
 * the task's events.
 *
 * Resource kinds that other capabilities deploy come in through `ManifestKinds` (kinds.ts):
 * services and networks are deployed before the jobs, links and bindings after their job, the
 * members of networks join once every job exists; a
 * manifest naming a kind that is not there is refused with a message saying so.
 */
import type { ChangeContext } from '../context.js';
import { InvalidRequestError } from '../errors.js';
import { parseJobInput, type ParsedJobInput } from '../model/job.js';
import type { ContainerService } from '../images/container-service.js';
import { packageFqnOfJob } from '../images/container-service.js';
import { parseImageRef, type ImageRef } from '../images/image-ref.js';
import type { JobService } from '../jobs/job-service.js';
import type { TaskRecord, TaskService } from '../tasks/task-service.js';
import {
  deploymentOrder,
  expandVariables,
  jobBodyOf,
  parseManifest,
  splitBody,
  type Manifest,
  type ManifestJob,
} from './manifest.js';
import { checkSupported, existingFor, type ManifestAccess, type ManifestKinds, type ManifestStep } from './kinds.js';

export type { ManifestAccess } from './kinds.js';

interface Step {
  fqn: string;
  job: ManifestJob;
  /** The existing job's uuid (rule 1: updated), else created. */
  existing?: string;
  packageUuids: string[];
  image?: { ref: ImageRef; pull: boolean; packageFqn: string };
}

export interface PreparedManifest {
  manifest: Manifest;
  warnings: string[];
  steps: Step[];
}

export class ManifestService {
  constructor(
    private readonly jobs: JobService,
    private readonly containers: ContainerService,
    private readonly tasks: TaskService,
    private readonly kinds: ManifestKinds,
  ) {}

  /** Checks everything that can be checked before a change; throws a 400/403 otherwise. */
  async prepare(body: Record<string, unknown>, access: ManifestAccess): Promise<PreparedManifest> {
    const { manifest: raw, variables } = splitBody(body);
    const { manifest, warnings } = parseManifest(expandVariables(raw, variables));
    checkSupported(manifest, this.kinds);
    for (const [fqn, config] of Object.entries(manifest.services ?? {})) await this.kinds.services!.validate(fqn, config, access, manifest);
    for (const [fqn, config] of Object.entries(manifest.networks ?? {})) await this.kinds.networks!.validate(fqn, config, access, manifest);
    const steps: Step[] = [];
    for (const fqn of deploymentOrder(manifest)) {
      const job = manifest.jobs[fqn]!;
      const existing = await existingFor(access, fqn, await this.jobs.findByFqn(fqn));
      await access.authorize(fqn, existing ? 'update' : 'create');
      if (job.state === 'started') await access.authorize(fqn, 'start');
      const step: Step = { fqn, job, packageUuids: [], ...(existing ? { existing } : {}) };
      if (job.links && Object.keys(job.links).length > 0) await this.kinds.links!.validate(fqn, job.links, access, manifest);
      if (job.services && Object.keys(job.services).length > 0) await this.kinds.bindings!.validate(fqn, job.services, access, manifest);
      let parsed: ParsedJobInput;
      if (job.docker) {
        const ref = parseImageRef(job.docker.image, `jobs."${fqn}".docker.image`);
        if (job.docker.username !== undefined) ref.credentials = { username: job.docker.username, password: job.docker.password ?? '' };
        const packageFqn = packageFqnOfJob(fqn);
        await access.authorize(packageFqn, 'create');
        await this.containers.checkRegistry(ref, `jobs."${fqn}".docker.image`);
        step.image = { ref, pull: job.docker.pull !== false, packageFqn };
        // The body's own fields, checked now (units, routes); the image's come at deploy time.
        parsed = parseJobInput(jobBodyOf(fqn, job, [], { startCommand: [], user: '', exposedPorts: job.exposed_ports ?? [], udpPorts: [] }), () => '00000000-0000-4000-8000-000000000000');
      } else {
        const resolved = await access.refs.resolve((job.packages ?? []).map((p) => ({ type: 'package' as const, fqn: p.fqn, permission: 'use', field: `jobs."${fqn}".packages` })));
        step.packageUuids = resolved.map((r) => r.uuid);
        parsed = parseJobInput(jobBodyOf(fqn, job, step.packageUuids), () => '00000000-0000-4000-8000-000000000000');
      }
      // Its secrets must exist and be the caller's to install: refused now rather than half way.
      if (parsed.spec.secrets.length > 0) {
        await access.refs.resolve(parsed.spec.secrets.map((s) => ({ type: 'secret' as const, fqn: s.fqn, permission: 'install', field: `jobs."${fqn}".secrets` })));
      }
      // Drains and http_metric urls at refused addresses: refused now rather than half way.
      await this.jobs.checkDestinations(parsed, existing ? await this.jobs.find(existing) : undefined);
      steps.push(step);
    }
    return { manifest, warnings, steps };
  }

  /** POST /manifests/expansion: the expanded manifest, the job bodies it makes, warnings. */
  expansion(prepared: PreparedManifest): { expanded_manifest: string; expanded_json: string; warnings: string } {
    const jobs = prepared.steps.map((s) => ({
      action: s.existing ? 'update' : 'create',
      ...(s.existing ? { uuid: s.existing } : {}),
      job: jobBodyOf(s.fqn, s.job, s.packageUuids),
      ...(s.image ? { image: `${s.image.ref.registry}/${s.image.ref.name}:${s.image.ref.tag}`, package_fqn: s.image.packageFqn, pull: s.image.pull } : {}),
    }));
    const networks = Object.entries(prepared.manifest.networks ?? {}).map(([fqn, config]) => this.kinds.networks!.expand?.(fqn, config) ?? { fqn });
    const manifest = JSON.parse(JSON.stringify(prepared.manifest)) as Manifest;
    for (const job of Object.values(manifest.jobs)) if (job.docker?.password !== undefined) job.docker.password = '********';
    return {
      expanded_manifest: JSON.stringify(manifest),
      expanded_json: JSON.stringify({ jobs, ...(networks.length > 0 ? { networks } : {}) }),
      warnings: prepared.warnings.join(','),
    };
  }

  /** Starts the deploy task of a prepared manifest. */
  deploy(prepared: PreparedManifest, ctx: ChangeContext, access: ManifestAccess): Promise<TaskRecord> {
    const first = prepared.steps[0]!.fqn;
    return this.tasks.start('manifest', { fqn: first, principal: ctx.principal }, async (task) => {
      const declarations = [
        ...Object.entries(prepared.manifest.services ?? {}).map(([fqn, config]) => ({ fqn, config, deployer: this.kinds.services! })),
        ...Object.entries(prepared.manifest.networks ?? {}).map(([fqn, config]) => ({ fqn, config, deployer: this.kinds.networks! })),
      ];
      const after = declarations.filter((d) => d.deployer.afterJobs);
      const total = declarations.length + prepared.steps.length + after.length;
      const done: string[] = [];
      const stepOf = (index: number): ManifestStep => ({
        ctx,
        access,
        report: (name, payload) => task.event({ stage: 'Deploy', name, index, total, progress: { current: index, total }, ...(payload ? { payload } : {}) }),
      });
      for (const [index, d] of declarations.entries()) {
        try {
          const step = stepOf(index);
          await step.report(`deploying ${d.fqn}`);
          const outcome = await d.deployer.deploy(d.fqn, d.config, step);
          done.push(d.fqn);
          await step.report(`${outcome} ${d.fqn}`);
        } catch (err) {
          throw new Error(`${d.fqn} failed: ${err instanceof Error ? err.message : String(err)}; done before it: ${done.length > 0 ? done.join(', ') : 'nothing'}`, { cause: err });
        }
      }
      for (const [jobIndex, step] of prepared.steps.entries()) {
        const index = declarations.length + jobIndex;
        const report = (name: string, extra: { payload?: Record<string, string>; current?: number } = {}) =>
          task.event({
            stage: 'Deploy',
            name,
            index,
            total,
            progress: { current: extra.current ?? index, total },
            ...(extra.payload ? { payload: extra.payload } : {}),
          });
        try {
          let packageUuids = step.packageUuids;
          let image: Parameters<typeof jobBodyOf>[3];
          if (step.image) {
            await report(`looking up image ${step.image.ref.registry}/${step.image.ref.name}:${step.image.ref.tag}`);
            const made = await this.containers.packageOf(step.image.ref, step.image.packageFqn, task, ctx, {
              pull: step.image.pull,
              readable: access.readable,
              renameIfTaken: true,
            });
            packageUuids = [made.package.uuid];
            image = made.plan;
            if (!made.reused) done.push(made.package.fqn);
          } else {
            for (const p of step.job.packages ?? []) await report(`looking up ${p.fqn}`);
          }
          const body = jobBodyOf(step.fqn, step.job, packageUuids, image);
          if (step.existing) {
            await report(`updating ${step.fqn}`);
            const current = await this.jobs.find(step.existing);
            if (!current) throw new InvalidRequestError(`${step.fqn} was deleted meanwhile`);
            const input = this.jobs.inputOf(current) as Record<string, unknown> & { processes?: Record<string, Record<string, unknown>> };
            const app = (body['processes'] as Record<string, Record<string, unknown>>)['app']!;
            const merged = { ...input, ...body, processes: { ...(input.processes ?? {}), app: { ...(input.processes?.['app'] ?? {}), ...app } } };
            const { job } = await this.jobs.update(step.existing, merged, ctx, access.refs, { mode: 'patch', mayMap: access.mayMap });
            done.push(step.fqn);
            await this.#attach(job, step.job, stepOf(index));
            await report(`updated ${step.fqn}`, { current: index + 1, payload: { job_uuid: job.uuid, job_fqn: job.fqn } });
          } else {
            await report(`creating ${step.fqn}`);
            const job = await this.jobs.create({ num_instances: 1, ...body }, ctx, access.refs, access.mayMap);
            done.push(step.fqn);
            await this.#attach(job, step.job, stepOf(index));
            await report(`created ${step.fqn}`, { current: index + 1, payload: { job_uuid: job.uuid, job_fqn: job.fqn } });
          }
        } catch (err) {
          const message = err instanceof Error ? err.message : String(err);
          throw new Error(`${step.fqn} failed: ${message}; done before it: ${done.length > 0 ? done.join(', ') : 'nothing'}`, { cause: err });
        }
      }
      // What declarations do once every job exists (networks: their members join).
      for (const [i, d] of after.entries()) {
        try {
          await d.deployer.afterJobs!(d.fqn, d.config, stepOf(declarations.length + prepared.steps.length + i));
        } catch (err) {
          throw new Error(`${d.fqn} failed: ${err instanceof Error ? err.message : String(err)}; done before it: ${done.join(', ')}`, { cause: err });
        }
      }
    });
  }

  /** The job's links and bindings, once it exists (their deployers are there: prepare checked). */
  async #attach(job: { uuid: string; fqn: string }, declared: ManifestJob, step: ManifestStep): Promise<void> {
    if (declared.links && Object.keys(declared.links).length > 0) await this.kinds.links!.apply(job, declared.links, step);
    if (declared.services && Object.keys(declared.services).length > 0) await this.kinds.bindings!.apply(job, declared.services, step);
  }
}
