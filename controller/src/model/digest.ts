/**
 * Digests as the API takes them: parsed by the one parser the programs share
 * (@platform/proto/common), refused with an InvalidRequestError that names the field.
 */
import { DigestError, parseDigest as parseSharedDigest, type Digest } from '@platform/proto/common';
import { InvalidRequestError } from '../errors.js';

export { DIGEST_ALGORITHMS, formatDigest, type Digest, type DigestAlgorithm } from '@platform/proto/common';

/** Parses `sha256:<hex>` (or a bare SHA-1 hex when `bareIsSha1`), throwing InvalidRequestError. */
export function parseDigest(text: string, field: string, bareIsSha1 = false): Digest {
  try {
    return parseSharedDigest(text, { bareIsSha1 });
  } catch (err) {
    if (err instanceof DigestError) throw new InvalidRequestError(`${field}: ${err.message}`);
    throw err;
  }
}
