/** What the shipped gateways share. */
import { BadRequestError, GatewayError } from '../errors.js';

/**
 * At provider creation the server is the caller's parameter: not reaching it
 * (the 502 of a later call) is their 400.
 */
export async function asParameter<T>(work: Promise<T>): Promise<T> {
  try {
    return await work;
  } catch (err) {
    if (err instanceof GatewayError && err.status === 502) throw new BadRequestError(`params.url: ${err.message}`, undefined, { cause: err });
    throw err;
  }
}
