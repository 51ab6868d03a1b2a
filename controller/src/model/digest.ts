import { InvalidRequestError } from '../errors.js';

export const DIGEST_ALGORITHMS = { sha1: 40, sha256: 64, sha384: 96, sha512: 128 } as const;
export type DigestAlgorithm = keyof typeof DIGEST_ALGORITHMS;

export interface Digest {
  algorithm: DigestAlgorithm;
  /** Lower-case hex. */
  hex: string;
}

/** Parses `sha256:<hex>` (or a bare SHA-1 hex when `bareIsSha1`), throwing InvalidRequestError. */
export function parseDigest(text: string, field: string, bareIsSha1 = false): Digest {
  const colon = text.indexOf(':');
  const algorithm = colon < 0 ? (bareIsSha1 ? 'sha1' : '') : text.slice(0, colon).toLowerCase();
  const hex = (colon < 0 ? text : text.slice(colon + 1)).toLowerCase();
  if (!(algorithm in DIGEST_ALGORITHMS)) {
    throw new InvalidRequestError(`${field}: "${text}" must start with sha1:, sha256:, sha384: or sha512:`);
  }
  const expected = DIGEST_ALGORITHMS[algorithm as DigestAlgorithm];
  if (hex.length !== expected || !/^[0-9a-f]+$/.test(hex)) {
    throw new InvalidRequestError(`${field}: a ${algorithm} digest has ${expected} hex digits`);
  }
  return { algorithm: algorithm as DigestAlgorithm, hex };
}

export function formatDigest(d: Digest): string {
  return `${d.algorithm}:${d.hex}`;
}
