/**
 * Status codes of the stager API (spec: stager-and-gateway-api.md, Errors), for both ends:
 * the staging coordinator in the controller answers them, the stager SDK reads them.
 */
export const STAGER_STATUS = {
  OK: 200,
  /** The metadata could not be encoded (GET /meta). */
  ENVIRONMENT_MARSHAL_FAILED: 445,
  /** PUT /meta names a resource other than environment, provides, dependencies, templates. */
  RESOURCE_NOT_SUPPORTED: 448,
  /** The request names no stager token. */
  MISSING_UUID: 450,
  /** The token is not of our form. */
  INVALID_UUID: 451,
  /** The run has reported its outcome already: it is no longer current. */
  UUID_NOT_CURRENT: 452,
  /** Anything else; the message says what. */
  OTHER: 499,
} as const;

export type StagerStatusCode = (typeof STAGER_STATUS)[keyof typeof STAGER_STATUS];
