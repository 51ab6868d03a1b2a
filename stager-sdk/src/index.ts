/**
 * @platform/stager-sdk: for people who write stagers.
 *
 * A stager finds the staging coordinator at `$STAGER_URL`. The typed client and
 * the helpers (download, pack, upload, metadata, done/failed/relaunch) arrive
 * with the staging capability; the status codes of the stager API are fixed by
 * the specification already.
 */

/** Status codes of the stager API (spec: stager-and-gateway-api.md, Errors). */
export const STAGER_STATUS = {
  OK: 200,
  ENVIRONMENT_MARSHAL_FAILED: 445,
  RESOURCE_NOT_SUPPORTED: 448,
  MISSING_UUID: 450,
  INVALID_UUID: 451,
  UUID_NOT_CURRENT: 452,
  OTHER: 499,
} as const;

export class StagerEnvironmentError extends Error {
  override readonly name = 'StagerEnvironmentError';
}

/** The coordinator's URL from the stager's environment, checked. */
export function stagerUrlFromEnv(env: NodeJS.ProcessEnv = process.env): URL {
  const raw = env['STAGER_URL'];
  if (!raw) throw new StagerEnvironmentError('STAGER_URL is not set: a stager runs as a job of a staging pipeline');
  try {
    return new URL(raw);
  } catch (err) {
    throw new StagerEnvironmentError(`STAGER_URL "${raw}" is not a URL`, { cause: err });
  }
}
