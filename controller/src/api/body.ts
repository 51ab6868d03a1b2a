import type { IncomingMessage } from 'node:http';
import { InvalidRequestError, PlatformError, TooLargeError } from '../errors.js';
import { checkJsonDepth } from '../model/validate.js';

/** The request's Content-Length, undefined when it sent none; refuses a malformed one. */
export function contentLengthOf(req: IncomingMessage): number | undefined {
  const header = req.headers['content-length'];
  if (header === undefined) return undefined;
  if (!/^\d{1,15}$/.test(header)) throw new InvalidRequestError(`Content-Length "${header}" is not a byte count`);
  return Number(header);
}

/**
 * Reads the whole request body as UTF-8 text; refuses (413) once it passes `limit` bytes, and
 * stops reading then (the answer closes the connection, as the body was not read whole). A body
 * that ends early (the client went away) is refused with 400. Read with the stream's events: its
 * async iterator cost a promise and a turn per chunk, about 4% of a small POST.
 */
export function readBodyText(req: IncomingMessage, limit: number): Promise<string> {
  if (req.readableEnded) return Promise.resolve('');
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const done = () => {
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onError);
      req.off('close', onClose);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        done();
        req.pause();
        reject(new TooLargeError(`the request body is over the limit of ${limit} bytes`));
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = () => {
      done();
      resolve(chunks.length === 1 ? chunks[0]!.toString('utf8') : Buffer.concat(chunks, size).toString('utf8'));
    };
    const onError = (err: Error) => {
      done();
      // A body failed by the server (util/http-limits.ts: a malformed chunk, a stall) says why itself.
      reject(err instanceof PlatformError ? err : new InvalidRequestError(`the request body could not be read: ${err.message}`));
    };
    // 'close' before 'end': the connection ended before the body did.
    const onClose = () => {
      done();
      reject(new InvalidRequestError('the request body ended before its end (the connection closed)'));
    };
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onError);
    req.on('close', onClose);
  });
}

/** Parses JSON request text, refusing (400) malformed JSON and nesting deeper than MAX_JSON_DEPTH. */
export function parseJsonText(text: string): unknown {
  checkJsonDepth(text);
  try {
    return JSON.parse(text) as unknown;
  } catch (err) {
    throw new InvalidRequestError(`the request body is not valid JSON: ${jsonSyntaxProblem(err)}`);
  }
}

/**
 * JSON.parse's complaint without the body's text. For an unexpected token V8 quotes the text
 * around it (`Unexpected token 'h', "{"value": hunter2}" is not valid JSON`), and a body may
 * hold a secret (POST /secrets with its value unquoted): the answer, and the log line of the
 * refusal, say where instead. Its other complaints name a position, never the text.
 */
export function jsonSyntaxProblem(err: unknown): string {
  const message = err instanceof Error ? err.message : String(err);
  if (!/is not valid JSON\s*$/.test(message) && !message.includes('"')) return message;
  return 'unexpected character (the body is not shown here: it may hold a secret)';
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
