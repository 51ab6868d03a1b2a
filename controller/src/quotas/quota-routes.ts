/**
 * GET /quotas?namespace=/sandbox/tom: the quotas that hold for jobs in a namespace, with what
 * is in use against each (quota-service.ts). Readable by the namespace's users: those holding
 * `permit read` on `quota::<namespace>` or on `job::<namespace>`.
 */
import { z } from 'zod';
import { sendJson, queryValue, v1, type Endpoint } from '../api/endpoint.js';
import { InvalidRequestError } from '../errors.js';
import { namespaceProblem } from '../model/fqn.js';
import { authorize, canAccess } from '../policy/access.js';
import { QUOTA_NAMES } from '../policy/quotas.js';
import type { QuotaService } from './quota-service.js';

export const quotaUsageSchema = z.object({
  namespace: z.string(),
  quotas: z.array(
    z.object({
      name: z.enum(QUOTA_NAMES),
      namespace: z.string(),
      realm: z.string(),
      limit: z.number(),
      limit_text: z.string(),
      in_use: z.number(),
      unit: z.enum(['bytes', 'bps', 'ms/s', 'instances']),
    }),
  ),
});

export function quotaEndpoints(quotas: QuotaService): Endpoint[] {
  return [
    {
      method: 'GET',
      path: '/quotas',
      doc: { summary: 'The quotas of a namespace and what is in use against each', query: { namespace: 'a namespace such as /sandbox/tom (required)' }, response: quotaUsageSchema },
      media: v1('quotas'),
      handler: async (ctx) => {
        const namespace = queryValue(ctx, 'namespace');
        if (!namespace) throw new InvalidRequestError('query namespace: a namespace such as /sandbox/tom is required');
        const problem = namespaceProblem(namespace);
        if (problem) throw new InvalidRequestError(`query namespace: ${problem}`);
        if (!canAccess(ctx, `job::${namespace}`, 'read')) await authorize(ctx, `quota::${namespace}`, 'read');
        sendJson(ctx, v1('quotas'), { namespace, quotas: quotas.usage(namespace) });
      },
    },
  ];
}
