import { randomUUID } from 'node:crypto';
import { customAlphabet } from 'nanoid';

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** True when `s` has the textual form of a UUID (any version). */
export function isUuid(s: string): boolean {
  return UUID_RE.test(s);
}

/** Generates identifiers; injected so that tests can make them predictable. */
export interface IdSource {
  uuid(): string;
  requestId(): string;
}

/**
 * Request ids: a random prefix per process and a counter, 20 characters of
 * [a-z0-9]. Unique across restarts without paying for randomness per request.
 */
function requestIds(): () => string {
  const prefix = customAlphabet('0123456789abcdefghijklmnopqrstuvwxyz', 10)();
  let counter = 0;
  return () => prefix + (counter++).toString(36).padStart(10, '0');
}

export const randomIds: IdSource = {
  uuid: () => randomUUID(),
  requestId: requestIds(),
};
