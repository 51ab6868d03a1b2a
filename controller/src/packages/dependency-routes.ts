/** POST /packages/dependencies: which packages satisfy a list of requirements. */
import { z } from 'zod';
import { readJsonObject } from '../api/body.js';
import { sendJson, v1, type Endpoint } from '../api/endpoint.js';
import { InvalidRequestError } from '../errors.js';
import { canAccess } from '../policy/access.js';
import { namespaceProblem, parseFqn } from '../model/fqn.js';
import { parseInput, str } from '../model/validate.js';
import type { DependencyResolver } from './dependencies.js';
import { packageView, requirementSchema } from '../model/package.js';

export const requestSchema = z.object({
  job_target: str(512).optional(),
  dependencies: z
    .array(requirementSchema)
    .min(1, { error: 'name at least one dependency' })
    .max(256),
});

/** `job_target` is a namespace (`/dev`) or an FQN whose namespace is meant (`job::/dev::web`). */
function targetNamespace(target: string | undefined): string | undefined {
  if (!target) return undefined;
  if (target.includes('::')) return parseFqn(target, { field: 'job_target', localName: 'optional' }).namespace;
  const problem = namespaceProblem(target);
  if (problem) throw new InvalidRequestError(`job_target: ${problem}`);
  return target;
}

export function dependencyEndpoints(resolver: DependencyResolver, maxBodyBytes: number): Endpoint[] {
  return [
    {
      method: 'POST',
      path: '/packages/dependencies',
      doc: { summary: 'Which packages satisfy a list of requirements', body: requestSchema },
      media: v1('packages'),
      handler: async (ctx) => {
        const input = parseInput(requestSchema, await readJsonObject(ctx.req, maxBodyBytes), 'package dependency request');
        // Only packages the caller may read can satisfy its request: others' packages stay unseen.
        const resolved = await resolver.resolveRequirements(input.dependencies, targetNamespace(input.job_target), (fqn) =>
          canAccess(ctx, fqn, 'read'),
        );
        sendJson(ctx, v1('packages'), resolved.map((r) => packageView(r.package)));
      },
    },
  ];
}
