import test from 'ava';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { renderTemplate, renderTemplateFile, TemplateError } from './templates.js';
import { tempDir } from '../test-support/temp.js';

test('templates: env "NAME" and .Env.NAME are replaced, unset names are empty', (t) => {
  const env = { PORT: '8123', HOST: 'h' };
  t.is(renderTemplate('listen {{ env "PORT" }} on {{.Env.HOST}}{{ env \'NOPE\' }}!', env), 'listen 8123 on h!');
});

test('templates: custom delimiters leave the default ones alone', (t) => {
  t.is(renderTemplate('a {{x}} <% env "PORT" %>', { PORT: '1' }, '<%', '%>'), 'a {{x}} 1');
});

test('templates: an unknown expression names its line', (t) => {
  const err = t.throws(() => renderTemplate('ok\n{{ exec "rm" }}', {}, '{{', '}}', '/app/conf'), { instanceOf: TemplateError });
  t.regex(err.message, /template \/app\/conf: line 2: unknown expression "exec "rm""/);
  t.throws(() => renderTemplate('{{ env "X" ', {}), { message: /without "}}"/ });
});

test('templates: a file is rendered in place; paths with .. are refused', (t) => {
  const root = tempDir(t, 'agent-tpl-');
  mkdirSync(join(root, 'app'));
  writeFileSync(join(root, 'app/conf'), 'port={{ env "PORT" }}\n');
  renderTemplateFile(root, '/app/conf', { PORT: '9' }, '{{', '}}');
  t.is(readFileSync(join(root, 'app/conf'), 'utf8'), 'port=9\n');
  t.throws(() => renderTemplateFile(root, '../x', {}, '{{', '}}'), { message: /"\.\."/ });
  t.throws(() => renderTemplateFile(root, '/app/missing', {}, '{{', '}}'), { message: /no such file/ });
});
