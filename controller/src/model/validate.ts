/**
 * Validation at the edge. Request bodies are checked against zod schemas that
 * list only the fields a client may set: unknown and server-assigned fields are
 * dropped, wrong types are refused with a message that names the field.
 */
import { z } from 'zod';
import { InvalidRequestError } from '../errors.js';
import { isUuid } from '../util/ids.js';

/**
 * How deep arrays and objects may nest in a request body. Real bodies stay
 * under ten; the code that walks a parsed body (null dropping, validation,
 * diffs) recurses, so an unbounded depth would overflow its stack. The edge
 * (`api/body.ts`) refuses deeper text before parsing it; `dropNulls` checks
 * again for bodies that come another way.
 */
export const MAX_JSON_DEPTH = 64;

function tooDeep(): never {
  throw new InvalidRequestError(`the request body nests arrays and objects deeper than ${MAX_JSON_DEPTH} levels`, { details: { max_depth: MAX_JSON_DEPTH } });
}

/**
 * Go clients send `null` for empty slices, maps and pointers. Treat a null
 * object property as absent, at every depth, before validation. Refuses (400)
 * nesting deeper than MAX_JSON_DEPTH.
 */
export function dropNulls(value: unknown, depth = 0): unknown {
  if (value === null || typeof value !== 'object') return value;
  if (depth >= MAX_JSON_DEPTH) tooDeep();
  if (Array.isArray(value)) return value.map((v) => dropNulls(v, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) if (v !== null) out[k] = dropNulls(v, depth + 1);
  return out;
}

/**
 * Refuses (400) JSON text whose arrays and objects nest deeper than
 * MAX_JSON_DEPTH. One pass over the text that skips strings, to run before
 * JSON.parse so that nothing deeper is ever built. Malformed text is left for
 * JSON.parse to describe.
 */
export function checkJsonDepth(text: string): void {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++; // backslash: the next character is escaped
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      if (++depth > MAX_JSON_DEPTH) tooDeep();
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
}

function describe(issue: z.core.$ZodIssue): string {
  const path = issue.path.length > 0 ? issue.path.map(String).join('.') : '(body)';
  return `${path}: ${issue.message}`;
}

/** Parses `input` with `schema`, or throws InvalidRequestError listing every problem. */
export function parseInput<S extends z.ZodType>(schema: S, input: unknown, what: string): z.output<S> {
  const result = schema.safeParse(dropNulls(input));
  if (result.success) return result.data;
  const problems = result.error.issues.map(describe);
  throw new InvalidRequestError(`invalid ${what}: ${problems.join('; ')}`, { details: { problems } });
}

/** An integer within [min, max]. */
export const int = (min = Number.MIN_SAFE_INTEGER, max = Number.MAX_SAFE_INTEGER) =>
  z.number({ error: (i) => `expected an integer, got ${i.input === undefined ? 'nothing' : typeof i.input}` })
    .int({ error: 'expected an integer' })
    .min(min, { error: `must be at least ${min}` })
    .max(max, { error: `must be at most ${max}` });

export const str = (max = 4096) =>
  z.string({ error: (i) => `expected a string, got ${i.input === undefined ? 'nothing' : typeof i.input}` }).max(max, {
    error: `must be at most ${max} characters`,
  });

export const bool = () => z.boolean({ error: (i) => `expected a boolean, got ${typeof i.input}` });

export const uuid = () => str(64).refine(isUuid, { error: 'expected a UUID' });

/** A map of string to string. */
export const stringMap = (maxEntries = 1024) =>
  z.record(str(256), str(65536)).refine((m) => Object.keys(m).length <= maxEntries, {
    error: `must have at most ${maxEntries} entries`,
  });

/**
 * A process's environment: names that execve can carry (not empty, no `=`, no NUL) and values
 * without NUL. Anything else cannot reach a process as written, so it is refused rather than cut.
 */
export const envMap = (maxEntries = 1024) =>
  z
    .record(
      str(256).refine((name) => name !== '' && !name.includes('=') && !name.includes('\0'), { error: 'an environment variable name must not be empty or hold "=" or NUL' }),
      str(65536).refine((value) => !value.includes('\0'), { error: 'an environment variable value must not hold NUL' }),
    )
    .refine((m) => Object.keys(m).length <= maxEntries, { error: `must have at most ${maxEntries} entries` });

/** Checks a UUID taken from a path. */
export function requireUuid(value: string, what: string): string {
  if (!isUuid(value)) throw new InvalidRequestError(`${what} "${value}" is not a UUID`, { details: { value } });
  return value.toLowerCase();
}
