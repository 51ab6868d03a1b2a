/**
 * Errors of the policy language. They stay inside the policy folder: the
 * policy service turns them into the closed-set InvalidRequestError (400) with
 * the document, line and column in `error_details`.
 */

/** A document does not follow the grammar, or says something that cannot hold (unknown permission, bad duration). */
export class PolicyParseError extends Error {
  override readonly name = 'PolicyParseError';

  constructor(
    readonly docName: string,
    readonly line: number,
    readonly column: number,
    readonly reason: string,
  ) {
    super(`policy "${docName}" line ${line}, column ${column}: ${reason}`);
  }
}
