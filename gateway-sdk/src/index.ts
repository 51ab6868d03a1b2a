/**
 * @platform/gateway-sdk: for people who write service gateways.
 *
 * The gateway server scaffolding arrives with the services capability. The
 * persisted-state headers are fixed by the specification already: the cluster
 * stores what a gateway returns in them and sends it back on later requests.
 */

export const STATE_HEADERS = {
  provider: 'X-Provider-State',
  service: 'X-Service-State',
  binding: 'X-Binding-State',
} as const;

/** Limit of a state header value (spec: 4 KB, URL-safe Base64). */
export const MAX_STATE_BYTES = 4096;

export class GatewayStateError extends Error {
  override readonly name = 'GatewayStateError';
}

/** Encodes gateway state for a state header, refusing values over the limit. */
export function encodeState(state: unknown): string {
  const encoded = Buffer.from(JSON.stringify(state), 'utf8').toString('base64url');
  if (encoded.length > MAX_STATE_BYTES) {
    throw new GatewayStateError(`state encodes to ${encoded.length} bytes; the limit is ${MAX_STATE_BYTES}`);
  }
  return encoded;
}

/** Decodes a state header value; undefined when the header was absent or empty. */
export function decodeState<T = unknown>(header: string | undefined): T | undefined {
  if (header === undefined || header === '') return undefined;
  if (header.length > MAX_STATE_BYTES || !/^[A-Za-z0-9_-]+={0,2}$/.test(header)) {
    throw new GatewayStateError('state header is not URL-safe Base64 of at most 4 KB');
  }
  try {
    return JSON.parse(Buffer.from(header, 'base64url').toString('utf8')) as T;
  } catch (err) {
    throw new GatewayStateError('state header does not hold JSON', { cause: err });
  }
}
