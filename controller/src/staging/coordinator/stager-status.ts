/**
 * The stager API's wire errors (spec: Errors, stager status codes), produced
 * here and nowhere else. A stager error answers a plain-text body with the
 * message; clients treat any non-200 as fatal (and a 404 means "this run is
 * gone").
 *
 *   445  the metadata could not be encoded (GET /meta)
 *   448  PUT /meta names a resource other than environment, provides, dependencies, templates
 *   450  the request names no stager token
 *   451  the token is not of our form
 *   452  the run has reported its outcome already (done, failed, relaunch): no longer current
 *   499  anything else; the message says what (missing Content-Length, wrong sha256, bad form)
 *   404  no such run: never issued, or the run has ended
 */
import { STAGER_STATUS } from '@platform/proto/common';
import { NotFoundError, PlatformError } from '../../errors.js';

export type StagerErrorKind = 'marshal' | 'unsupported_resource' | 'missing_token' | 'invalid_token' | 'not_current' | 'other';

const STATUS: Record<StagerErrorKind, number> = {
  marshal: STAGER_STATUS.ENVIRONMENT_MARSHAL_FAILED,
  unsupported_resource: STAGER_STATUS.RESOURCE_NOT_SUPPORTED,
  missing_token: STAGER_STATUS.MISSING_UUID,
  invalid_token: STAGER_STATUS.INVALID_UUID,
  not_current: STAGER_STATUS.UUID_NOT_CURRENT,
  other: STAGER_STATUS.OTHER,
};

export class StagerApiError extends Error {
  override readonly name = 'StagerApiError';
  constructor(
    readonly kind: StagerErrorKind,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

export interface StagerStatus {
  status: number;
  message: string;
  /** True for failures of ours (logged at error level); the message is generic then. */
  internal: boolean;
}

/** Maps anything a stager handler throws to the status and message sent. */
export function toStagerStatus(err: unknown): StagerStatus {
  if (err instanceof StagerApiError) return { status: STATUS[err.kind], message: err.message, internal: false };
  if (err instanceof NotFoundError) return { status: 404, message: err.message, internal: false };
  // The closed set's client errors (a digest mismatch from the blob store, a body over the limit) are the stager's fault.
  if (err instanceof PlatformError) return { status: STATUS.other, message: err.message, internal: false };
  return { status: STATUS.other, message: 'internal error of the staging coordinator; see the controller log', internal: true };
}
