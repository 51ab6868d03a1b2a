/**
 * A look into a stored record's JSON text before parsing it. A scan at start (every job, to find
 * the started ones and those with routes) parsed every record: with 100,000 jobs, two parses of
 * each were most of a restart's 10 s. Most records are then thrown away at once; a substring
 * test skips them.
 *
 * It holds for the text JSON.stringify writes (every record the store keeps): no whitespace
 * between tokens, so a member `key` of any object of the record (at any depth) whose value
 * starts with `valueStart` is always the text `"key":valueStart`. A false answer is certain; a
 * true one only says "parse it and look" (the text also ends a key that holds `\"key`).
 */

/**
 * False when no object in `json` (JSON.stringify's text) has the member `key` whose value's text
 * starts with `valueStart`; true when one may. `key` and `valueStart` must be written as
 * JSON.stringify writes them (`valueStart` '"started"' for the string, '[{' for an array whose
 * first element is an object), and `key` must need no escaping.
 */
export function mayHaveMember(json: string, key: string, valueStart: string): boolean {
  return json.includes(`"${key}":${valueStart}`);
}
