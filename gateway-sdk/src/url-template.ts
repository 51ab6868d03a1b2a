/**
 * The binding `url_template` syntax (spec: stager-and-gateway-api.md, Binding):
 * a URL-like string with one or more tags `{{alphanum n}}`, n an integer from 1
 * to 256 inclusive, optionally followed by a modifier after a pipe:
 * `{{alphanum 14 | lower}}` is 14 random digits and lower-case letters,
 * `| upper` digits and upper-case letters; without a modifier, digits and
 * letters of both cases. Spaces inside the braces are optional. Any other
 * `{{...}}` is an error, and so is a template without a tag.
 *
 *   renderUrlTemplate('postgres://u_{{alphanum 8 | lower}}:{{alphanum 24}}@db:5432/app')
 *   // 'postgres://u_k3v9x0qa:Zr81...@db:5432/app'
 */
import { randomBytes } from 'node:crypto';
import { UrlTemplateError } from './errors.js';

export type AlphanumCase = 'mixed' | 'lower' | 'upper';

export type UrlTemplatePart = { text: string } | { alphanum: number; case: AlphanumCase };

export const MIN_ALPHANUM = 1;
export const MAX_ALPHANUM = 256;

const TAG = /\{\{(.*?)\}\}/g;
const ALPHANUM = /^\s*alphanum\s+(\d+)\s*(?:\|\s*(lower|upper)\s*)?$/;

const ALPHABETS: Record<AlphanumCase, string> = {
  mixed: '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz',
  lower: '0123456789abcdefghijklmnopqrstuvwxyz',
  upper: '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ',
};

/** Splits a template into text and tags; throws UrlTemplateError when it breaks the syntax. */
export function parseUrlTemplate(template: string): UrlTemplatePart[] {
  const parts: UrlTemplatePart[] = [];
  let at = 0;
  for (const m of template.matchAll(TAG)) {
    const inner = m[1] ?? '';
    const tag = ALPHANUM.exec(inner);
    if (!tag) throw new UrlTemplateError(`url_template: "{{${inner}}}" is not a tag; tags are {{alphanum n}} with an optional "| lower" or "| upper"`);
    const n = Number(tag[1]);
    if (!Number.isInteger(n) || n < MIN_ALPHANUM || n > MAX_ALPHANUM) {
      throw new UrlTemplateError(`url_template: alphanum ${tag[1]} is out of range; n is from ${MIN_ALPHANUM} to ${MAX_ALPHANUM}`);
    }
    if (m.index > at) parts.push({ text: template.slice(at, m.index) });
    parts.push({ alphanum: n, case: (tag[2] as AlphanumCase | undefined) ?? 'mixed' });
    at = m.index + m[0].length;
  }
  if (at < template.length) parts.push({ text: template.slice(at) });
  const rest = parts.filter((p): p is { text: string } => 'text' in p).map((p) => p.text).join('');
  if (rest.includes('{{') || rest.includes('}}')) throw new UrlTemplateError('url_template: unbalanced "{{" or "}}"');
  if (!parts.some((p) => 'alphanum' in p)) throw new UrlTemplateError('url_template: must contain a tag {{alphanum n}}');
  return parts;
}

/** Undefined when `template` is valid, else what is wrong with it. */
export function urlTemplateProblem(template: string): string | undefined {
  try {
    parseUrlTemplate(template);
    return undefined;
  } catch (err) {
    if (err instanceof UrlTemplateError) return err.message;
    throw err;
  }
}

/** `n` characters of `alphabet`, uniformly random (rejection sampling, no modulo bias). */
export function randomAlphanum(n: number, alphabetCase: AlphanumCase = 'mixed', random: (size: number) => Buffer = randomBytes): string {
  const alphabet = ALPHABETS[alphabetCase];
  const limit = 256 - (256 % alphabet.length);
  let out = '';
  while (out.length < n) {
    for (const byte of random(n * 2)) {
      if (byte < limit) out += alphabet[byte % alphabet.length];
      if (out.length === n) break;
    }
  }
  return out;
}

/** Renders a template, each tag replaced by fresh random characters. `random` is injectable for tests. */
export function renderUrlTemplate(template: string, random: (size: number) => Buffer = randomBytes): string {
  return parseUrlTemplate(template)
    .map((p) => ('text' in p ? p.text : randomAlphanum(p.alphanum, p.case, random)))
    .join('');
}
