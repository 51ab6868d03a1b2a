/**
 * Where the resource kinds that other capabilities own plug into manifests: one interface per
 * kind. A manifest that names a kind with no deployer is refused before anything changes
 * (checkSupported), never deployed in part.
 *
 *   services, networks       DeclarationDeployer, deployed before every job (a job may bind or
 *                            join them); rule 1 (update what exists), rule 3 (never delete);
 *                            what needs the jobs (a network's members joining) comes after
 *                            every job (`afterJobs`)
 *   links, services (field)  AttachmentDeployer, applied after their job was created or
 *                            updated, link targets first (deploymentOrder); rule 2 (existing
 *                            ones are left alone unless `delete` is true)
 *   drains, autoscaling,     carried by the job body itself (jobBodyOf): enabled once their
 *   affinity, ssh            capability acts on them
 */
import type { ChangeContext } from '../context.js';
import { InvalidRequestError } from '../errors.js';
import type { ReferenceCheck } from '../policy/references.js';
import type { Manifest, ManifestJob } from './manifest.js';

/** What the caller may do, from its request (policy/access.ts). */
export interface ManifestAccess {
  authorize(fqn: string, permission: string): Promise<void>;
  readable(fqn: string): boolean;
  refs: ReferenceCheck;
  mayMap: (realm: string) => Promise<void>;
}

/**
 * Whether the declaration of `fqn` updates something that exists: only when the caller may read
 * it. One that exists but that the caller may not read is answered as a new one would be (403 for
 * `permit create`, without which a caller learns nothing of what others have), and, for a caller
 * that may create there, 403 for `permit read`: a manifest is no way to learn of, or change, a
 * resource its author cannot see.
 */
export async function existingFor(access: ManifestAccess, fqn: string, found: string | undefined): Promise<string | undefined> {
  if (found === undefined || access.readable(fqn)) return found;
  await access.authorize(fqn, 'create');
  await access.authorize(fqn, 'read');
  return found; // authorised for read after all: it is the caller's to update
}

/**
 * Checks that the resource a declaration refers to, and that the manifest does not declare,
 * exists and allows `permission` to the caller; throws 400 `<field>: <type> <fqn> does not exist
 * and is not declared in the manifest` alike when it is not there and when the caller may not
 * read it (policy/references.ts), 403 when the caller may read it but lacks the permission.
 */
export async function requireReferenced(access: ManifestAccess, type: 'job' | 'service', fqn: string, permission: string, field: string): Promise<void> {
  try {
    await access.refs.resolve([{ type, fqn, permission, field }]);
  } catch (err) {
    if (!(err instanceof InvalidRequestError)) throw err;
    throw new InvalidRequestError(`${field}: ${type} ${fqn} does not exist and is not declared in the manifest`);
  }
}

/** What a deployer is given while the manifest's task runs. */
export interface ManifestStep {
  ctx: ChangeContext;
  access: ManifestAccess;
  /** Records an event of the task (`creating service::...`, `bound ...`). */
  report(name: string, payload?: Record<string, string>): Promise<void>;
}

/** A top-level declaration kind (`services`, `networks`). */
export interface DeclarationDeployer {
  /** Checks one declaration before anything changes (shape, policy, references); throws a PlatformError. */
  validate(fqn: string, config: Record<string, unknown>, access: ManifestAccess, manifest: Manifest): Promise<void>;
  /** Creates it, or updates it when it exists (rule 1). */
  deploy(fqn: string, config: Record<string, unknown>, step: ManifestStep): Promise<'created' | 'updated' | 'unchanged'>;
  /** What the declaration does once every job of the manifest exists (networks: the joins). */
  afterJobs?(fqn: string, config: Record<string, unknown>, step: ManifestStep): Promise<void>;
  /** What POST /manifests/expansion shows of it (checked by `validate` first). */
  expand?(fqn: string, config: Record<string, unknown>): Record<string, unknown>;
}

export type LinkDeclaration = NonNullable<ManifestJob['links']>[string];
export type BindingDeclaration = NonNullable<ManifestJob['services']>[string];

/** A kind attached to a job (`links`, the job's `services` bindings). */
export interface AttachmentDeployer<T> {
  /** Checks a job's entries before anything changes (targets exist or are declared, policy). */
  validate(jobFqn: string, entries: Record<string, T>, access: ManifestAccess, manifest: Manifest): Promise<void>;
  /** Applies them to the job once it exists: new ones made, existing ones left alone unless `delete` (rule 2). */
  apply(job: { uuid: string; fqn: string }, entries: Record<string, T>, step: ManifestStep): Promise<void>;
}

/** The kinds this cluster deploys beyond jobs. */
export interface ManifestKinds {
  services?: DeclarationDeployer;
  networks?: DeclarationDeployer;
  links?: AttachmentDeployer<LinkDeclaration>;
  bindings?: AttachmentDeployer<BindingDeclaration>;
  /** Job fields the job body carries, honoured once their capability acts on them. */
  drains?: boolean;
  autoscaling?: boolean;
  affinity?: boolean;
  ssh?: boolean;
}

/** Jobs only: what a controller without the services, metrics and networks capabilities deploys. */
export const JOBS_ONLY: ManifestKinds = {};

/** Refuses what the cluster cannot deploy yet, naming the resource and the field. */
export function checkSupported(manifest: Manifest, can: ManifestKinds): void {
  const refuse = (where: string, kind: string) => {
    throw new InvalidRequestError(`${where}: ${kind} are not yet supported by this cluster's manifests; deploy the manifest without them`, {
      details: { unsupported: kind, where },
    });
  };
  if (manifest.services && Object.keys(manifest.services).length > 0 && !can.services) refuse('services', 'services');
  if (manifest.networks && Object.keys(manifest.networks).length > 0 && !can.networks) refuse('networks', 'virtual networks');
  for (const [fqn, job] of Object.entries(manifest.jobs)) {
    const at = (field: string) => `jobs."${fqn}".${field}`;
    if (job.links && Object.keys(job.links).length > 0 && !can.links) refuse(at('links'), 'job links');
    if (job.services && Object.keys(job.services).length > 0 && !can.bindings) refuse(at('services'), 'service bindings');
    if (job.drains && job.drains.length > 0 && !can.drains) refuse(at('drains'), 'log drains');
    if (job.autoscaling && !can.autoscaling) refuse(at('autoscaling'), 'autoscaling');
    if (job.affinity && !can.affinity) refuse(at('affinity'), 'affinity rules');
    if (job.ssh === true && !can.ssh) refuse(at('ssh'), 'SSH into instances');
  }
}
