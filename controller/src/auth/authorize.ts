/**
 * Authorization until the policy engine exists. Policy will decide every claim
 * on every realm; until then the claims of the `auth::/` and `audit::/` realms
 * (managing users, reading the audit log) are held by the bootstrap
 * administrator alone, and everything else is open to any valid token.
 */
import type { ApiContext } from '../api/endpoint.js';
import { ForbiddenError } from '../errors.js';
import { ADMIN_USER } from './bootstrap.js';

/** Refuses with 403 and `missing_claims: [claim]` unless the caller is the bootstrap administrator. */
export function requireAdministrator(ctx: ApiContext, claim: string, what: string): void {
  if (ctx.state.user?.mechanism !== 'basic' || ctx.state.user.name !== ADMIN_USER) {
    throw new ForbiddenError(`${what} needs ${claim}`, [claim]);
  }
}
