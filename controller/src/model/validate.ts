/**
 * Validation at the edge. Request bodies are checked against zod schemas that
 * list only the fields a client may set: unknown and server-assigned fields are
 * dropped, wrong types are refused with a message that names the field.
 */
import { z } from 'zod';
import { InvalidRequestError } from '../errors.js';
import { isUuid } from '../util/ids.js';

/**
 * Go clients send `null` for empty slices, maps and pointers. Treat a null
 * object property as absent, at every depth, before validation.
 */
export function dropNulls(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(dropNulls);
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) if (v !== null) out[k] = dropNulls(v);
    return out;
  }
  return value;
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

/** Checks a UUID taken from a path. */
export function requireUuid(value: string, what: string): string {
  if (!isUuid(value)) throw new InvalidRequestError(`${what} "${value}" is not a UUID`, { details: { value } });
  return value.toLowerCase();
}
