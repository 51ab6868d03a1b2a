import test from 'ava';
import { BOOTSTRAP_POLICY } from './bootstrap.js';
import { PolicyParseError } from './errors.js';
import { tokenize } from './lexer.js';
import { MAX_CONDITION_TERMS, MAX_NESTING, parseDurationSeconds, parsePolicy } from './parser.js';

function parseError(text: string): PolicyParseError {
  try {
    parsePolicy('x', text);
  } catch (err) {
    if (err instanceof PolicyParseError) return err;
    throw err;
  }
  throw new Error('expected a parse error');
}

test('policy lexer: tokens carry line and column; comments are skipped', (t) => {
  const tokens = tokenize('x', '// a comment\n# another\non job::/a/[name] {\n  if (auth_server@platform->name == [name]) { permit read, update }\n}');
  t.deepEqual(
    tokens.map((k) => `${k.kind}:${k.value}@${k.line}:${k.column}`).slice(0, 8),
    ['ident:on@3:1', 'realm:job::/a/[name]@3:4', 'punct:{@3:19', 'ident:if@4:3', 'punct:(@4:6', 'claimref:auth_server@platform->name@4:7', 'punct:==@4:34', 'template:name@4:37'],
  );
  t.is(tokens.at(-1)!.kind, 'eof');
  t.deepEqual(
    tokenize('x', '"a\\"b\\n" 2GB 5 total.memory *::/').map((k) => [k.kind, k.value]),
    [['string', 'a"b\n'], ['number', '2GB'], ['number', '5'], ['ident', 'total.memory'], ['realm', '*::/'], ['eof', '']],
  );
});

test('policy parser: the skeleton of the behaviour notes, with and without "on"', (t) => {
  const doc = parsePolicy('tom', 'job::/sandbox/tom { if (auth_server@platform->name == "tom") { permit create, read, update, delete, start, stop } }');
  t.is(doc.realms.length, 1);
  const realm = doc.realms[0]!;
  t.like(realm, { type: 'job', name: 'job::/sandbox/tom', segments: [{ literal: 'sandbox' }, { literal: 'tom' }] });
  const rule = realm.rules[0]!;
  t.is(rule.kind, 'if');
  if (rule.kind !== 'if') return;
  t.deepEqual(rule.condition, { kind: 'compare', op: '==', left: { kind: 'claim', key: 'auth_server@platform->name' }, right: { kind: 'string', value: 'tom' } });
  t.like(rule.body[0], { kind: 'permit', permissions: ['create', 'read', 'update', 'delete', 'start', 'stop'] });
  t.is(parsePolicy('x', 'on job::/sandbox/tom { permit read }').realms[0]!.name, 'job::/sandbox/tom');
});

test('policy parser: conditions, templating, roles, settings and quotas', (t) => {
  const doc = parsePolicy(
    'x',
    `on *::/sandbox/[name] {
       if (auth_server@platform->name == [name] && (auth_server@platform->principal endsWith "@platform.local" || ldap_auth@platform->name beginsWith "a")) { role admin; }
       if (auth_server@platform->name != "x") { if (auth_server@platform->principal fqnMatch "job::/a") { permit read } }
     }
     on auth::/ { tokenTimeout "1h" defaultNamespace "/dev/team" permit issue }
     on audit::/ { log allow }
     on quota::/sandbox { total.memory 2GB total.disk "10GB" max.instances 5 }
     role::/reader { permit read }`,
  );
  t.is(doc.realms.length, 5);
  t.deepEqual(doc.realms[0]!.segments, [{ literal: 'sandbox' }, { variable: 'name' }]);
  t.like(doc.realms[1]!.rules[0], { kind: 'tokenTimeout', seconds: 3600 });
  t.like(doc.realms[1]!.rules[1], { kind: 'defaultNamespace', namespace: '/dev/team' });
  t.like(doc.realms[2]!.rules[0], { kind: 'log', level: 'allow' });
  t.deepEqual(
    doc.realms[3]!.rules.map((r) => (r.kind === 'quota' ? [r.name, r.value, r.amount] : [])),
    [['total.memory', '2GB', 2 * 1024 ** 3], ['total.disk', '10GB', 10 * 1024 ** 3], ['max.instances', '5', 5]],
  );
  t.is(doc.realms[4]!.type, 'role');
  t.is(parseDurationSeconds('3600s'), 3600);
  t.is(parseDurationSeconds('90m'), 5400);
  t.is(parseDurationSeconds('1d'), 86400);
  t.is(parseDurationSeconds('soon'), undefined);
});

test('policy parser: errors name the document, line and column', (t) => {
  const cases: [string, number, number, RegExp][] = [
    ['on job::/a\n  permit read }', 2, 3, /expected "\{", found "permit"/],
    ['job::/a {\n  permit reed\n}', 2, 10, /"reed" is not a permission/],
    ['job::/a {\n  if (auth_server@platform->name = "x") { permit read }\n}', 2, 34, /unexpected character "="/],
    ['job::/a {\n  if (auth_server@platform->name contains "x") { permit read }\n}', 2, 34, /expected a comparison/],
    ['job::/a { if (auth_server@platform->name == [user]) { permit read } }', 1, 45, /\[user\] is not a variable of this realm's name/],
    ['thing::/a { permit read }', 1, 1, /"thing" is not a realm type/],
    ['job::a { permit read }', 1, 1, /must start with "\/"/],
    ['job::/a { frobnicate }', 1, 11, /"frobnicate" is not a claim/],
    ['job::/a { permit read ', 1, 23, /expected "\}", found end of document/],
    ['auth::/ {\n  tokenTimeout "forever"\n}', 2, 16, /expected a duration/],
    ['audit::/ { log everything }', 1, 16, /expected allow, deny or none/],
    ['job::/a { if (auth_server@platform->name == "x) { permit read } }', 1, 45, /unterminated string/],
    ['permit read', 1, 1, /expected a realm/],
    ['role::/a/b { permit read }', 1, 1, /a role is defined as role::\/<role name>/],
    ['quota::/a { total.memory lots }', 1, 26, /expected a size such as 512MB, 2GB or 1.5GiB after "total.memory", found "lots"/],
    ['quota::/a { max.instances 2.5 }', 1, 27, /expected a whole number/],
    ['quota::/a { total.network 5GB }', 1, 27, /expected a rate such as 100Mbps/],
    ['job::/a { total.memory 1GB }', 1, 11, /a quota goes in a quota:: realm/],
    ['quota::/a::x { total.memory 1GB }', 1, 16, /its realm names no resource/],
    ['quota::/a { if (auth_server@platform->name == "tom") { max.instances 1 } }', 1, 56, /cannot sit under a condition on the caller's claims/],
    ['role::/r { max.instances 1 }', 1, 12, /a role grants permits and roles only; quotas go in the realm itself/],
  ];
  for (const [text, line, column, reason] of cases) {
    const err = parseError(text);
    t.is(err.line, line, text);
    t.is(err.column, column, text);
    t.regex(err.reason, reason, text);
    t.is(err.message, `policy "x" line ${line}, column ${column}: ${err.reason}`);
  }
});

test('policy parser: the bootstrap policy parses', (t) => {
  const doc = parsePolicy('bootstrap', BOOTSTRAP_POLICY);
  t.deepEqual(
    doc.realms.map((r) => r.name),
    ['*::/', 'auth::/', 'audit::/', '*::/sandbox/[name]', 'package::/platform', 'stagpipe::/platform'],
  );
});

test('policy parser: nesting and condition size are bounded, refused with a parse error, not a stack overflow', (t) => {
  const cmp = 'auth_server@platform->name == "x"';
  const parens = (n: number) => `job::/a { if (${'('.repeat(n)}${cmp}${')'.repeat(n)}) { permit read } }`;
  t.notThrows(() => parsePolicy('x', parens(MAX_NESTING)));
  t.regex(parseError(parens(MAX_NESTING + 1)).reason, /nest deeper than 32 levels/);
  t.regex(parseError(parens(20_000)).reason, /nest deeper than 32 levels/);

  const ifs = (n: number) => `job::/a { ${`if (${cmp}) { `.repeat(n)}permit read${' }'.repeat(n)} }`;
  t.notThrows(() => parsePolicy('x', ifs(MAX_NESTING)));
  t.regex(parseError(ifs(MAX_NESTING + 1)).reason, /nest deeper than 32 levels/);

  const chain = (n: number) => `job::/a { if (${Array.from({ length: n }, () => cmp).join(' && ')}) { permit read } }`;
  t.notThrows(() => parsePolicy('x', chain(MAX_CONDITION_TERMS)));
  t.regex(parseError(chain(MAX_CONDITION_TERMS + 1)).reason, /more than 256 comparisons/);
  t.regex(parseError(chain(20_000)).reason, /more than 256 comparisons/);
});
