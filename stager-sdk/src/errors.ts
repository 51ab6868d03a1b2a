/** Errors of the stager SDK: one class per failure kind, each with `name` and `cause`. */

/** Status codes of the stager API (spec: stager-and-gateway-api.md, Errors), shared with the coordinator. */
export { STAGER_STATUS } from '@platform/proto/common';

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
