/**
 * GET /permissions: what the caller may do, by FQN, so that the web console shows only the
 * actions the signed-in user holds (it hides or disables the others). The answer is advice for
 * a user interface: every endpoint still checks policy itself, whatever this one said.
 *
 *   GET /v1/permissions?fqn=job::/sandbox/alice::web&fqn=audit::/
 *   {"job::/sandbox/alice::web": ["read", "update", "start", "stop", ...], "audit::/": []}
 *
 * It names the permissions of each FQN's realm type (policy/permissions.ts) that the caller's
 * policy grants there; it records nothing in the audit log (a question is not an access) and
 * says nothing of whether a resource of that FQN exists.
 */
import { z } from 'zod';
import { sendJson, v1, type Endpoint } from '../api/endpoint.js';
import { queryList } from '../api/query.js';
import { InvalidRequestError } from '../errors.js';
import { canAccess } from '../policy/access.js';
import { REALM_PERMISSIONS } from '../policy/permissions.js';

/** FQNs one question may name. */
export const MAX_PERMISSION_FQNS = 100;
const MAX_FQN_LENGTH = 1024;

const permissionsSchema = z.record(z.string(), z.array(z.string()));

export function consoleEndpoints(): Endpoint[] {
  return [
    {
      method: 'GET',
      path: '/permissions',
      media: v1('permissions'),
      doc: {
        summary: 'The permissions the caller holds on each FQN (for user interfaces; endpoints check policy themselves)',
        query: { fqn: `an FQN or a realm such as job::/ns or audit::/ (repeatable, at most ${MAX_PERMISSION_FQNS})` },
        response: permissionsSchema,
      },
      handler: async (ctx) => {
        const fqns = queryList(ctx, 'fqn') ?? [];
        if (fqns.length === 0) throw new InvalidRequestError('query fqn: name at least one FQN');
        if (fqns.length > MAX_PERMISSION_FQNS) throw new InvalidRequestError(`query fqn: at most ${MAX_PERMISSION_FQNS} FQNs in one request, got ${fqns.length}`);
        const answer: Record<string, string[]> = {};
        for (const fqn of fqns) {
          const sep = fqn.indexOf('::');
          const type = sep > 0 ? fqn.slice(0, sep) : '';
          if (fqn.length > MAX_FQN_LENGTH || !Object.hasOwn(REALM_PERMISSIONS, type) || !fqn.slice(sep + 2).startsWith('/')) {
            throw new InvalidRequestError(`query fqn: "${fqn.slice(0, 200)}" is not <type>::<namespace>[::<name>] of a realm type (${Object.keys(REALM_PERMISSIONS).join(', ')})`);
          }
          const permissions: readonly string[] = REALM_PERMISSIONS[type as keyof typeof REALM_PERMISSIONS];
          answer[fqn] = permissions.filter((p) => canAccess(ctx, fqn, p));
        }
        sendJson(ctx, v1('permissions'), answer);
      },
    },
  ];
}
