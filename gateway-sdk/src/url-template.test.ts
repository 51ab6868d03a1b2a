import test from 'ava';
import { parseUrlTemplate, randomAlphanum, renderUrlTemplate, urlTemplateProblem, UrlTemplateError } from './index.js';

test('url_template: tags {{alphanum n}} with lower and upper render fresh random characters', (t) => {
  const out = renderUrlTemplate('postgres://u_{{alphanum 8 | lower}}:{{alphanum 24}}@db:5432/{{ alphanum 3|upper }}');
  const m = /^postgres:\/\/u_([0-9a-z]{8}):([0-9A-Za-z]{24})@db:5432\/([0-9A-Z]{3})$/.exec(out);
  t.truthy(m, out);
  t.not(renderUrlTemplate('x{{alphanum 32}}'), renderUrlTemplate('x{{alphanum 32}}'));
  t.deepEqual(parseUrlTemplate('a{{alphanum 256}}b'), [{ text: 'a' }, { alphanum: 256, case: 'mixed' }, { text: 'b' }]);
  t.is(renderUrlTemplate('{{alphanum 1}}').length, 1);
  t.is(randomAlphanum(300, 'upper').length, 300);
});

test('url_template: n from 1 to 256, known modifiers, balanced braces, at least one tag', (t) => {
  for (const bad of ['x{{alphanum 0}}', 'x{{alphanum 257}}', 'x{{alphanum -1}}', 'x{{alphanum 2.5}}', 'x{{alphanum 8 | title}}', 'x{{uuid}}', 'postgres://u@h:1/x', 'x{{alphanum 3}}}}', 'x{{alphanum 3']) {
    t.throws(() => parseUrlTemplate(bad), { instanceOf: UrlTemplateError }, bad);
    t.truthy(urlTemplateProblem(bad), bad);
  }
  t.is(urlTemplateProblem('redis://{{alphanum 14 | lower}}@h:0'), undefined);
});

test('url_template: a rendered character is uniform over its alphabet (no modulo bias)', (t) => {
  let i = 0;
  // bytes 0..255 in turn: 248 of them map evenly onto 62 characters, the rest are drawn again
  const random = (size: number) => Buffer.from(Array.from({ length: size }, () => i++ % 256));
  const counts = new Map<string, number>();
  for (const c of randomAlphanum(62 * 4 * 10, 'mixed', random)) counts.set(c, (counts.get(c) ?? 0) + 1);
  t.is(counts.size, 62);
  t.deepEqual(new Set(counts.values()), new Set([40]));
});
