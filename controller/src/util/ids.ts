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

const requestIdAlphabet = customAlphabet('0123456789abcdefghijklmnopqrstuvwxyz', 20);

export const randomIds: IdSource = {
  uuid: () => randomUUID(),
  requestId: () => requestIdAlphabet(),
};
