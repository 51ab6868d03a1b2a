/**
 * The manifest kind of networks/: the top-level `networks` section (cluster-api.md, network
 * configuration: `jobs` [{fqn, broadcast_enable, discovery_address, multicast_addresses}]; ours
 * besides: `description`, and `subnet` for a new network), deployed through the catalog's own
 * operations with the caller's permissions checked as on POST /networks and .../join.
 *
 * - the network is created before the jobs when new (rule 1: one that exists is kept; its
 *   subnet cannot change in place);
 * - once every job of the manifest exists, each listed job joins it, or has its options changed
 *   when it is a member already (rule 1). Members not listed stay (rule 3).
 */
import { z } from 'zod';
import { InvalidRequestError } from '../errors.js';
import { bool, parseInput, str } from '../model/validate.js';
import type { NetworkCatalog } from '../networks/network-catalog.js';
import { parseJoin, parseNetwork } from '../networks/network-model.js';
import { existingFor, requireReferenced, type DeclarationDeployer, type ManifestKinds } from './kinds.js';

const networkConfigSchema = z.strictObject({
  jobs: z
    .array(
      z.strictObject({
        fqn: str(512),
        broadcast_enable: bool().optional(),
        discovery_address: str(253).optional(),
        multicast_addresses: z.array(str(64)).max(64).optional(),
      }),
    )
    .max(1024)
    .optional(),
  description: str(4096).optional(),
  subnet: str(64).optional(),
});

interface Parsed {
  description?: string;
  subnet?: string;
  joins: ReturnType<typeof parseJoin>[];
}

function parseConfig(fqn: string, config: Record<string, unknown>): Parsed {
  const c = parseInput(networkConfigSchema, config, `networks."${fqn}"`);
  parseNetwork({ fqn, ...(c.description !== undefined ? { description: c.description } : {}), ...(c.subnet !== undefined ? { subnet: c.subnet } : {}) });
  const joins = (c.jobs ?? []).map((j, i) => parseJoin({ ...j, job_fqn: j.fqn }, `networks."${fqn}".jobs[${i}].`));
  const seen = new Set<string>();
  for (const j of joins) {
    if (seen.has(j.jobFqn)) throw new InvalidRequestError(`networks."${fqn}".jobs: ${j.jobFqn} is listed twice`);
    seen.add(j.jobFqn);
  }
  return { ...(c.description !== undefined ? { description: c.description } : {}), ...(c.subnet !== undefined ? { subnet: c.subnet } : {}), joins };
}

export function networkKinds(catalog: NetworkCatalog): ManifestKinds {
  const networks: DeclarationDeployer = {
    async validate(fqn, config, access, manifest) {
      const parsed = parseConfig(fqn, config);
      const found = catalog.byFqn(fqn);
      const existing = found && (await existingFor(access, fqn, found.uuid)) ? found : undefined;
      if (!existing) await access.authorize(fqn, 'create');
      else if (parsed.subnet !== undefined && parsed.subnet !== existing.subnet) {
        throw new InvalidRequestError(`networks."${fqn}".subnet: the network exists with subnet ${existing.subnet}; a subnet cannot change in place`);
      }
      if (parsed.joins.length > 0) await access.authorize(fqn, 'join');
      for (const [i, j] of parsed.joins.entries()) {
        // A job of the manifest is checked by its own step; another must exist and be the caller's
        // to change, with one answer for "not there" and "not yours" (as POST .../join).
        if (manifest.jobs[j.jobFqn]) continue;
        await requireReferenced(access, 'job', j.jobFqn, 'update', `networks."${fqn}".jobs[${i}].fqn`);
      }
    },
    async deploy(fqn, config, step) {
      if (catalog.byFqn(fqn)) return 'unchanged';
      await step.access.authorize(fqn, 'create');
      const c = parseConfig(fqn, config);
      const made = await catalog.create(parseNetwork({ fqn, ...(c.description !== undefined ? { description: c.description } : {}), ...(c.subnet !== undefined ? { subnet: c.subnet } : {}) }), step.ctx);
      await step.report(`made network ${fqn} (${made.subnet})`, { network_uuid: made.uuid, network_fqn: made.fqn });
      return 'created';
    },
    async afterJobs(fqn, config, step) {
      const network = catalog.byFqn(fqn);
      if (!network) throw new InvalidRequestError(`network ${fqn} was deleted meanwhile`);
      const { joins } = parseConfig(fqn, config);
      if (joins.length > 0) await step.access.authorize(fqn, 'join');
      for (const j of joins) {
        const { changed } = await catalog.join(network.uuid, j, step.ctx, step.access.refs);
        await step.report(changed ? `joined ${j.jobFqn} to ${fqn}` : `${j.jobFqn} is on ${fqn} already: left as it is`, { network_fqn: fqn, job_fqn: j.jobFqn });
      }
    },
    expand(fqn, config) {
      const c = parseConfig(fqn, config);
      const existing = catalog.byFqn(fqn);
      return {
        action: existing ? 'update' : 'create',
        fqn,
        ...(existing ? { uuid: existing.uuid, subnet: existing.subnet } : c.subnet !== undefined ? { subnet: c.subnet } : {}),
        joins: c.joins.map((j) => ({
          job_fqn: j.jobFqn,
          broadcast_enable: j.broadcastEnable,
          discovery_address: j.discoveryAddress,
          multicast_addresses: j.multicastAddresses,
          action: existing?.members && Object.values(existing.members).some((m) => m.job_fqn === j.jobFqn) ? 'update' : 'join',
        })),
      };
    },
  };
  return { networks };
}
