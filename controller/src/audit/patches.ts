/**
 * The patch payload of update events: one entry per changed field, with paths
 * such as `job/num_instances` or `job/resources/memory`. Objects are compared
 * field by field; arrays and other values are replaced whole.
 */
import { jsonEqual } from '../util/json.js';

export interface Patch {
  op: 'add' | 'remove' | 'replace';
  path: string;
  value?: unknown;
  oldvalue?: unknown;
}

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

export function diffPatches(path: string, before: unknown, after: unknown, out: Patch[] = []): Patch[] {
  if (jsonEqual(before, after)) return out;
  if (isObject(before) && isObject(after)) {
    const keys = new Set([...Object.keys(before), ...Object.keys(after)]);
    for (const key of keys) {
      const was = before[key];
      const now = after[key];
      if (was === undefined && now !== undefined) out.push({ op: 'add', path: `${path}/${key}`, value: now });
      else if (was !== undefined && now === undefined) out.push({ op: 'remove', path: `${path}/${key}`, value: was });
      else diffPatches(`${path}/${key}`, was, now, out);
    }
    return out;
  }
  out.push({ op: 'replace', path, value: after, oldvalue: before });
  return out;
}
