/** Optimistic concurrency on `version_id` (If-Match on PUT and PATCH; see api/conditional.ts). */
import { PreconditionFailedError } from '../errors.js';

/** Throws 412 unless `current` is one of the versions `expected` names (none: any). */
export function checkVersion(what: string, current: number, expected: readonly number[] | undefined): void {
  if (expected === undefined || expected.includes(current)) return;
  throw new PreconditionFailedError(
    `${what} is at version_id ${current}, not ${expected.join(' or ')} as If-Match requires: it was changed since you read it; read it again (GET), reapply your change and send it with If-Match: "${current}"`,
    { details: { version_id: current, if_match: expected } },
  );
}
