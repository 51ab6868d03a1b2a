/** Errors of the stager SDK: one class per failure kind, each with `name` and `cause`. */

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

/** STAGER_URL is missing or malformed: the program is not running as a stager. */
export class StagerEnvironmentError extends Error {
  override readonly name = 'StagerEnvironmentError';
}

/** The coordinator answered a request with a status other than 200. */
export class StagerRequestError extends Error {
  override readonly name = 'StagerRequestError';
  constructor(
    readonly method: string,
    readonly path: string,
    readonly status: number,
    readonly body: string,
  ) {
    super(`${method} ${path}: ${status} ${body.trim() || '(no message)'}`);
  }

  /** A 404 means the run is gone (ended, timed out): nothing more can be reported. */
  get runGone(): boolean {
    return this.status === 404;
  }
}

/** The source is not something this stager can stage; the message tells the user why. */
export class StagingError extends Error {
  override readonly name = 'StagingError';
}
