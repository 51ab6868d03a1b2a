/**
 * The manifest kinds of the service catalog (services/): top-level `services`, a job's
 * `services` (bindings) and `links`, deployed through the catalog's own operations, with the
 * caller's permissions checked by them as on POST /services and POST /bindings.
 *
 * - services: created when new; one that exists is left as it is (`unchanged`): the gateway API
 *   has no update of a service, so rule 1 cannot change one in place (delete and redeploy);
 * - bindings and links (rule 2): a job's binding of that service (a link to that job and port)
 *   that exists is left alone; `delete: true` removes it instead of making it.
 */
import { InvalidRequestError } from '../errors.js';
import { parseFqn } from '../model/fqn.js';
import { OUTBOUND_SERVICE_FQN, outboundParameterError } from '../model/outbound.js';
import type { JobService } from '../jobs/job-service.js';
import type { ServiceCatalog } from '../services/catalog.js';
import { parseBind, parseService } from '../services/service-model.js';
import { existingFor, requireReferenced, type AttachmentDeployer, type BindingDeclaration, type DeclarationDeployer, type LinkDeclaration, type ManifestKinds } from './kinds.js';

/** The kinds the catalog deploys (networks, drains, autoscaling, affinity and ssh stay refused). */
export function serviceKinds(catalog: ServiceCatalog, jobs: JobService): ManifestKinds {
  const serviceNamed = (fqn: string) => catalog.services().find((s) => s.fqn === fqn);
  const serviceRequest = (fqn: string, config: Record<string, unknown>) => {
    const { params, ...rest } = config;
    return parseService({ fqn, ...rest, ...(params !== undefined ? { parameters: params } : {}) });
  };
  const jobBindings = async (jobUuid: string) => Object.values((await jobs.find(jobUuid))?.bindings ?? {});

  const services: DeclarationDeployer = {
    async validate(fqn, config, access) {
      const req = serviceRequest(fqn, config);
      if (await existingFor(access, fqn, serviceNamed(fqn)?.uuid)) return;
      await access.authorize(fqn, 'create');
      if (!req.provider_fqn && req.type && !catalog.gateway(req.type)) {
        throw new InvalidRequestError(`services."${fqn}".type: no gateway serves service type ${req.type}`);
      }
    },
    async deploy(fqn, config, step) {
      if (serviceNamed(fqn)) return 'unchanged';
      await step.access.authorize(fqn, 'create');
      const made = await catalog.createService(serviceRequest(fqn, config), step.ctx, step.access.refs);
      await step.report(`made service ${fqn} (${made.type})`, { service_uuid: made.uuid, service_fqn: made.fqn });
      return 'created';
    },
  };

  const bindings: AttachmentDeployer<BindingDeclaration> = {
    async validate(jobFqn, entries, access, manifest) {
      for (const [name, b] of Object.entries(entries)) {
        parseFqn(b.fqn, { type: 'service', field: `jobs."${jobFqn}".services.${name}.fqn` });
        // A service of the manifest is checked by its own declaration; another must exist and be
        // bindable by the caller, with one answer for "not there" and "not yours" (as POST /bindings).
        if (!manifest.services?.[b.fqn] && !b.delete) {
          await requireReferenced(access, 'service', b.fqn, 'bind', `jobs."${jobFqn}".services.${name}`);
        }
        const req = parseBind({ job_fqn: jobFqn, service_fqn: b.fqn, name, ...(b.params ? { parameters: b.params } : {}) });
        // The outbound network service's openings are checked here, before anything is deployed.
        const problem = b.fqn === OUTBOUND_SERVICE_FQN && !b.delete ? outboundParameterError(req.parameters) : undefined;
        if (problem) throw new InvalidRequestError(`jobs."${jobFqn}".services.${name}.params: ${problem}`);
      }
    },
    async apply(job, entries, step) {
      for (const [name, b] of Object.entries(entries)) {
        // The same service, or the same name (the binding's variable): an existing binding.
        const existing = (await jobBindings(job.uuid)).find((e) => e.service_fqn === b.fqn || e.name === name);
        if (b.delete) {
          if (existing) {
            await catalog.unbind({ jobFqn: job.fqn, serviceFqn: b.fqn, force: false }, step.ctx, step.access.refs);
            await step.report(`unbound ${job.fqn} from ${b.fqn}`);
          }
          continue;
        }
        if (existing) {
          await step.report(`${job.fqn} is bound to ${b.fqn} already: left alone`);
          continue;
        }
        const req = parseBind({ job_fqn: job.fqn, service_fqn: b.fqn, name, ...(b.params ? { parameters: b.params } : {}) });
        const made = await catalog.bind(req, step.ctx, step.access.refs);
        await step.report(`bound ${job.fqn} to ${b.fqn}`, { binding_fqn: made.fqn ?? '', job_fqn: job.fqn, service_fqn: b.fqn });
      }
    },
  };

  const linkRequest = (jobFqn: string, name: string, l: LinkDeclaration) =>
    parseBind({
      job_fqn: jobFqn,
      target_job_fqn: l.fqn,
      name,
      target_job_port: l.port ?? 0,
      ...(l.bound_ip !== undefined ? { target_job_bound_ip: l.bound_ip } : {}),
      ...(l.bound_port !== undefined ? { target_job_bound_port: l.bound_port } : {}),
    });
  const links: AttachmentDeployer<LinkDeclaration> = {
    async validate(jobFqn, entries, access, manifest) {
      for (const [name, l] of Object.entries(entries)) {
        linkRequest(jobFqn, name, l);
        // A target of the manifest is checked by its own step; another must exist and be linkable
        // by the caller, with one answer for "not there" and "not yours" (as POST /bindings).
        if (manifest.jobs[l.fqn] || l.delete) continue;
        await requireReferenced(access, 'job', l.fqn, 'link', `jobs."${jobFqn}".links.${name}`);
      }
    },
    async apply(job, entries, step) {
      for (const [name, l] of Object.entries(entries)) {
        const port = String(l.port ?? 0);
        const target = await jobs.findByFqn(l.fqn);
        // A link to that job and port, or one of the same name (its variable): an existing link.
        const existing = (await jobBindings(job.uuid)).find(
          (e) => e.name === name || ((e.target_job_fqn === l.fqn || (target !== undefined && e.target_job_uuid === target)) && (e.target_job_port ?? '0') === port),
        );
        if (l.delete) {
          if (existing) {
            await catalog.unlink({ fromJobFqn: job.fqn, toJobFqn: l.fqn, port: l.port ?? 0 }, step.ctx, step.access.refs);
            await step.report(`unlinked ${job.fqn} from ${l.fqn}`);
          }
          continue;
        }
        if (existing) {
          await step.report(`${job.fqn} links to ${l.fqn} port ${port} already: left alone`);
          continue;
        }
        const made = await catalog.bind(linkRequest(job.fqn, name, l), step.ctx, step.access.refs);
        await step.report(`linked ${job.fqn} to ${l.fqn}`, { binding_fqn: made.fqn ?? '', job_fqn: job.fqn, target_job_fqn: l.fqn });
      }
    },
  };

  return { services, bindings, links };
}
