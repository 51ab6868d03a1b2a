import type { IncomingMessage } from 'node:http';
import { InvalidRequestError, TooLargeError } from '../errors.js';
import { checkJsonDepth } from '../model/validate.js';

/** The request's Content-Length, undefined when it sent none; refuses a malformed one. */
export function contentLengthOf(req: IncomingMessage): number | undefined {
  const header = req.headers['content-length'];
  if (header === undefined) return undefined;
  if (!/^\d{1,15}$/.test(header)) throw new InvalidRequestError(`Content-Length "${header}" is not a byte count`);
  return Number(header);
}

/** Reads the whole request body as UTF-8 text; refuses (413) once it passes `limit` bytes. */
export async function readBodyText(req: IncomingMessage, limit: number): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > limit) throw new TooLargeError(`the request body is over the limit of ${limit} bytes`);
    chunks.push(chunk);
  }
  return Buffer.concat(chunks, size).toString('utf8');
}

/** Parses JSON request text, refusing (400) malformed JSON and nesting deeper than MAX_JSON_DEPTH. */
export function parseJsonText(text: string): unknown {
  checkJsonDepth(text);
  try {
    return JSON.parse(text) as unknown;
  } catch (err) {
    throw new InvalidRequestError(`the request body is not valid JSON: ${(err as Error).message}`);
  }
}

/**
 * Reads and parses a JSON request body of at most `limit` bytes. Refuses a
 * larger one (413) without reading it whole, malformed JSON (400) and nesting
 * deeper than MAX_JSON_DEPTH (400).
 */
export async function readJsonBody(req: IncomingMessage, limit: number): Promise<unknown> {
  const declared = contentLengthOf(req);
  if (declared !== undefined && declared > limit) {
    throw new TooLargeError(`the request body of ${declared} bytes is over the limit of ${limit} bytes`);
  }
  const text = await readBodyText(req, limit);
  if (text === '') throw new InvalidRequestError('the request body is empty; a JSON object was expected');
  return parseJsonText(text);
}

/** Reads a JSON body that must be an object. */
export async function readJsonObject(req: IncomingMessage, limit: number): Promise<Record<string, unknown>> {
  const body = await readJsonBody(req, limit);
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    throw new InvalidRequestError(`the request body must be a JSON object, got ${Array.isArray(body) ? 'an array' : typeof body === 'object' ? 'null' : typeof body}`);
  }
  return body as Record<string, unknown>;
}
