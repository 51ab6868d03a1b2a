/**
 * Package templates: files rendered with the instance's environment before it starts.
 *
 * Syntax (between the template's delimiters, `{{` and `}}` by default; spaces around the
 * expression are ignored):
 *   {{ env "NAME" }}   the value of the instance's environment variable NAME ("" when unset)
 *   {{ .Env.NAME }}    the same, shorter
 * Nothing else is an expression: anything else between delimiters is an error naming the line,
 * and the instance fails to start with it. A file without delimiters is left unchanged.
 */
import { readFileSync, writeFileSync, lstatSync } from 'node:fs';
import { join } from 'node:path';
import { PackageError } from './cache.js';
import { safeComponents } from './extract.js';

const MAX_TEMPLATE_BYTES = 4 * 1024 * 1024;

export class TemplateError extends PackageError {
  override readonly name = 'TemplateError';
}

const ENV_CALL = /^env\s+(?:"([^"]*)"|'([^']*)')$/;
const ENV_FIELD = /^\.Env\.([A-Za-z_][A-Za-z0-9_]*)$/;

/** Renders `text`; throws TemplateError naming `path` and the line of a bad expression. */
export function renderTemplate(text: string, env: Readonly<Record<string, string>>, left = '{{', right = '}}', path = 'template'): string {
  if (!left || !right) throw new TemplateError(`template ${path}: empty delimiter`);
  let out = '';
  let pos = 0;
  for (;;) {
    const start = text.indexOf(left, pos);
    if (start < 0) break;
    const end = text.indexOf(right, start + left.length);
    const line = text.slice(0, start).split('\n').length;
    if (end < 0) throw new TemplateError(`template ${path}: line ${line}: "${left}" without "${right}"`);
    const expr = text.slice(start + left.length, end).trim();
    const m = ENV_CALL.exec(expr) ?? ENV_FIELD.exec(expr);
    if (!m) throw new TemplateError(`template ${path}: line ${line}: unknown expression "${expr}" (use env "NAME" or .Env.NAME)`);
    const name = m[1] ?? m[2] ?? '';
    out += text.slice(pos, start) + (env[name] ?? '');
    pos = end + right.length;
  }
  return out + text.slice(pos);
}

/** Renders the template file at `path` (relative to `base`, which is inside the instance root) in place. */
export function renderTemplateFile(base: string, path: string, env: Readonly<Record<string, string>>, left: string, right: string): void {
  const parts = safeComponents(path, 'template path');
  let file = base;
  for (const p of parts) {
    file = join(file, p);
    let st;
    try {
      st = lstatSync(file);
    } catch {
      throw new TemplateError(`template ${path}: no such file in the instance root`);
    }
    if (st.isSymbolicLink()) throw new TemplateError(`template ${path}: is (or passes through) a symlink`);
  }
  const st = lstatSync(file);
  if (!st.isFile()) throw new TemplateError(`template ${path}: not a regular file`);
  if (st.size > MAX_TEMPLATE_BYTES) throw new TemplateError(`template ${path}: larger than ${MAX_TEMPLATE_BYTES} bytes`);
  const text = readFileSync(file, 'utf8');
  writeFileSync(file, renderTemplate(text, env, left || '{{', right || '}}', path));
}
