/** Content digests as the API and the agents write them: `<algorithm>:<hex>`. */

/** The algorithms accepted, with the length of their hex digest. */
export const DIGEST_ALGORITHMS = { sha1: 40, sha256: 64, sha384: 96, sha512: 128 } as const;
export type DigestAlgorithm = keyof typeof DIGEST_ALGORITHMS;

export interface Digest {
  algorithm: DigestAlgorithm;
  /** Lower-case hex. */
  hex: string;
}

/** A digest that cannot be parsed: an unknown algorithm, or hex of the wrong length or alphabet. */
export class DigestError extends Error {
  override readonly name = 'DigestError';
  constructor(
    readonly text: string,
    readonly problem: 'algorithm' | 'hex',
    /** The algorithm, when it is known (problem `hex`). */
    readonly algorithm?: DigestAlgorithm,
  ) {
    super(
      problem === 'algorithm'
        ? `"${text}" must start with sha1:, sha256:, sha384: or sha512:`
        : `a ${algorithm} digest has ${algorithm ? DIGEST_ALGORITHMS[algorithm] : '?'} hex digits`,
    );
  }
}

/** Parses `sha256:<hex>` (any case; or bare hex as SHA-1 when `bareIsSha1`); throws DigestError. */
export function parseDigest(text: string, options: { bareIsSha1?: boolean } = {}): Digest {
  const colon = text.indexOf(':');
  const algorithm = colon < 0 ? (options.bareIsSha1 ? 'sha1' : '') : text.slice(0, colon).toLowerCase();
  const hex = (colon < 0 ? text : text.slice(colon + 1)).toLowerCase();
  if (!Object.hasOwn(DIGEST_ALGORITHMS, algorithm)) throw new DigestError(text, 'algorithm');
  const known = algorithm as DigestAlgorithm;
  if (hex.length !== DIGEST_ALGORITHMS[known] || !/^[0-9a-f]+$/.test(hex)) throw new DigestError(text, 'hex', known);
  return { algorithm: known, hex };
}

export function formatDigest(d: Digest): string {
  return `${d.algorithm}:${d.hex}`;
}
