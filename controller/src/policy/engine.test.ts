import test from 'ava';
import { BOOTSTRAP_POLICY } from './bootstrap.js';
import { fqnWithin, PolicyEngine, type Caller } from './engine.js';
import { PolicyParseError } from './errors.js';

const basic = (name: string): Caller => ({ name, mechanism: 'basic', principal: `${name}@platform.local` });
const ldap = (name: string): Caller => ({ name, mechanism: 'ldap', principal: `${name}@ldap.platform.local` });
const engine = (...texts: string[]) => PolicyEngine.build(texts.map((text, i) => ({ name: `doc${i}`, text })));

test('policy engine: realms cover FQNs by prefix at segment boundaries; * covers every type', (t) => {
  const e = engine('job::/a { permit read }', '*::/shared { permit read }', 'package::/p::one { permit read }');
  const tom = basic('tom');
  t.true(e.check(tom, 'job::/a', 'read').allowed);
  t.true(e.check(tom, 'job::/a::x', 'read').allowed);
  t.true(e.check(tom, 'job::/a/b::x', 'read').allowed);
  t.false(e.check(tom, 'job::/ab::x', 'read').allowed);
  t.false(e.check(tom, 'package::/a::x', 'read').allowed);
  t.true(e.check(tom, 'package::/shared/deep::x', 'read').allowed);
  t.true(e.check(tom, 'stagpipe::/shared::x', 'read').allowed);
  t.true(e.check(tom, 'package::/p::one', 'read').allowed);
  t.true(e.check(tom, 'package::/p::one/two', 'read').allowed);
  t.false(e.check(tom, 'package::/p::onetwo', 'read').allowed);
  t.false(e.check(tom, 'package::/p/q::one', 'read').allowed);
  t.false(e.check(tom, 'job::/a::x', 'update').allowed);
  t.deepEqual(e.check(tom, 'job::/a::x', 'update'), { allowed: false, missingClaim: 'permit update' });
  t.false(e.check(tom, 'not an fqn', 'read').allowed);
  t.true(fqnWithin('job::/a/b::c', 'job::/a'));
  t.true(fqnWithin('job::/a/b::c', '*::/a/b'));
  t.false(fqnWithin('job::/ab', 'job::/a'));
});

test('policy engine: conditions on the caller claims; a missing claim never grants, not even with !=', (t) => {
  const e = engine(`job::/team {
    if (auth_server@platform->name == "tom") { permit read }
    if (auth_server@platform->name != "eve") { permit update }
    if (auth_server@platform->name beginsWith "ad" && auth_server@platform->principal endsWith "@platform.local") { permit delete }
    if (ldap_auth@platform->name == "tom" || auth_server@platform->name == "ann") { permit start }
    if (auth_server@platform->principal fqnMatch "job::/x") { permit stop }
  }`);
  t.true(e.check(basic('tom'), 'job::/team::a', 'read').allowed);
  t.false(e.check(basic('ann'), 'job::/team::a', 'read').allowed);
  t.true(e.check(basic('ann'), 'job::/team::a', 'update').allowed);
  t.false(e.check(basic('eve'), 'job::/team::a', 'update').allowed);
  t.false(e.check(ldap('ann'), 'job::/team::a', 'update').allowed, 'an LDAP caller has no auth_server claims');
  t.true(e.check(basic('adam'), 'job::/team::a', 'delete').allowed);
  t.false(e.check(basic('tom'), 'job::/team::a', 'delete').allowed);
  t.true(e.check(ldap('tom'), 'job::/team::a', 'start').allowed);
  t.false(e.check(basic('tom'), 'job::/team::a', 'start').allowed);
  t.true(e.check(basic('ann'), 'job::/team::a', 'start').allowed);
  t.false(e.check(basic('tom'), 'job::/team::a', 'stop').allowed);
});

test('policy engine: realm templating binds a segment; the same user is allowed one namespace and denied another', (t) => {
  const e = engine(BOOTSTRAP_POLICY);
  const tom = basic('tom');
  for (const p of ['create', 'read', 'update', 'delete', 'start', 'stop']) {
    t.true(e.check(tom, 'job::/sandbox/tom::app', p).allowed, p);
    t.true(e.check(tom, 'job::/sandbox/tom/deeper::app', p).allowed, p);
    t.false(e.check(tom, 'job::/sandbox/ann::app', p).allowed, p);
    t.false(e.check(tom, 'job::/sandbox::tom', p).allowed, p);
  }
  t.true(e.check(tom, 'package::/sandbox/tom::pkg', 'create').allowed);
  t.true(e.check(ldap('tom'), 'job::/sandbox/tom::app', 'create').allowed);
  t.true(e.check(tom, 'package::/platform/runtimes::node', 'read').allowed);
  t.false(e.check(tom, 'package::/platform/runtimes::node', 'delete').allowed);
  t.true(e.check(tom, 'auth::/', 'issue').allowed);
  t.false(e.check(tom, 'auth::/', 'update').allowed);
  t.false(e.check(tom, 'policy::/', 'read').allowed);
  t.false(e.check(tom, 'audit::/', 'read').allowed);
  const admin = basic('admin');
  for (const [fqn, p] of [['job::/anything::x', 'delete'], ['policy::/', 'update'], ['audit::/', 'read'], ['auth::/', 'update'], ['job::/sandbox/tom::app', 'ssh']]) {
    t.true(e.check(admin, fqn!, p!).allowed, `${fqn} ${p}`);
  }
  t.false(e.check(ldap('admin'), 'policy::/', 'update').allowed, 'the administrator is the basic user admin only');
});

test('policy engine: documents and realms combine as a union of permits', (t) => {
  const e = engine('job::/ { permit read }', 'job::/a { permit update }', 'job::/a/b { if (auth_server@platform->name == "tom") { permit delete } }');
  t.deepEqual([...e.permits(basic('tom'), 'job::/a/b::x')].sort(), ['delete', 'read', 'update']);
  t.deepEqual([...e.permits(basic('ann'), 'job::/a/b::x')].sort(), ['read', 'update']);
  t.deepEqual([...e.permits(basic('ann'), 'job::/c::x')], ['read']);
});

test('policy engine: roles grant what their role realm grants; admin is built in; undefined roles are refused', (t) => {
  const e = engine(
    'role::/deployer { permit read, create, start, stop  role viewer }',
    'role::/viewer { permit read }  role::/looper { role looper }',
    'job::/prod { if (auth_server@platform->name == "dee") { role deployer } role looper }',
  );
  t.deepEqual([...e.permits(basic('dee'), 'job::/prod::x')].sort(), ['create', 'read', 'start', 'stop']);
  t.deepEqual([...e.permits(basic('vic'), 'job::/prod::x')], []);
  const err = t.throws(() => engine('job::/a { role ghost }'), { instanceOf: PolicyParseError });
  t.regex(err.message, /role "ghost" is not defined/);
  t.throws(() => engine('role::/admin { permit read }'), { instanceOf: PolicyParseError, message: /built in/ });
});

test('policy engine: settings follow the most specific realm, then the later rule', (t) => {
  const e = engine(
    `auth::/ { tokenTimeout "86400s" if (auth_server@platform->name == "short") { tokenTimeout "60s" } }
     audit::/ { log deny }
     *::/ { log none }
     quota::/sandbox { total.memory 2GB max.instances 5 }`,
  );
  t.is(e.settings(basic('tom'), 'auth::/').tokenTimeoutSeconds, 86400);
  t.is(e.settings(basic('short'), 'auth::/').tokenTimeoutSeconds, 60);
  t.is(e.settings(basic('tom'), 'audit::/').log, 'none', 'audit::/ and *::/ are equally specific: the later wins');
  const nested = engine('job::/ { log allow }', 'job::/a { log deny }', 'job::/a/b::c { log none }');
  t.is(nested.settings(basic('tom'), 'job::/a/b::c').log, 'none');
  t.is(nested.settings(basic('tom'), 'job::/a/b::d').log, 'deny');
  t.is(nested.settings(basic('tom'), 'job::/z').log, 'allow');
  t.is(e.settings(basic('tom'), 'auth::/').defaultNamespace, undefined);
});

test('policy engine: quotas hold for the namespace of their realm and below, every level, whoever asks', (t) => {
  const e = engine(
    `quota::/sandbox/[name] { total.memory 2GB max.instances 5 }
     quota::/teams { total.memory "10GB" }
     *::/teams/a { total.memory 1GiB }
     quota::/teams/[t] { if ([t] == "b") { total.disk 1GB } }`,
    `quota::/teams/a { total.memory 512MB }`,
  );
  const of = (ns: string) => e.quotasFor(ns).map((q) => `${q.scope} ${q.name} ${q.amount} ${q.realm}`).sort();
  t.deepEqual(of('/sandbox/tom'), ['/sandbox/tom max.instances 5 quota::/sandbox/[name]', `/sandbox/tom total.memory ${2 * 1024 ** 3} quota::/sandbox/[name]`]);
  t.deepEqual(of('/sandbox/tom/app'), of('/sandbox/tom'), 'a namespace below is limited by the quota of its parent');
  t.deepEqual(of('/sandbox'), [], 'the realm needs a segment for [name]');
  t.deepEqual(of('/teams/a/b'), [`/teams total.memory ${10 * 1024 ** 3} quota::/teams`, `/teams/a total.memory ${512 * 1024 ** 2} quota::/teams/a`], 'the later realm of the same namespace wins; both levels hold');
  t.deepEqual(of('/teams/b'), [`/teams total.memory ${10 * 1024 ** 3} quota::/teams`, `/teams/b total.disk ${1024 ** 3} quota::/teams/[t]`], 'a condition on the realm\'s variables');
  t.deepEqual(of('/elsewhere'), []);
  t.deepEqual(e.quotaRules().get('quota::/teams/[t]'), { 'total.disk': '1GB' });
  t.deepEqual(e.quotaRules().get('*::/teams/a'), { 'total.memory': '1GiB' });
});

test('policy engine: a repeated check is answered from the cache', (t) => {
  const e = engine(BOOTSTRAP_POLICY);
  const tom = basic('tom');
  const n = 200_000;
  const start = process.hrtime.bigint();
  for (let i = 0; i < n; i++) e.check(tom, 'job::/sandbox/tom::app', 'read');
  const perCheckNs = Number(process.hrtime.bigint() - start) / n;
  t.log(`${perCheckNs.toFixed(0)} ns per cached check`);
  t.true(perCheckNs < 20_000, `a cached check takes ${perCheckNs} ns`);
});

test('policy engine: the grants a caller holds alike on many FQNs are one object; different ones stay apart', (t) => {
  const e = engine('job::/team { if (auth_server@platform->name == "tom") { permit read, create } permit use }  job::/team/deny { log deny }');
  const tom = basic('tom');
  // A grant is remembered for each FQN asked about (a listing of many jobs asks about each):
  // equal ones share their permits and settings instead of holding a copy each.
  const permits = new Set(Array.from({ length: 50 }, (_, i) => e.permits(tom, `job::/team::app${i}`)));
  t.is(permits.size, 1);
  t.deepEqual([...[...permits][0]!].sort(), ['create', 'read', 'use']);
  t.is(e.settings(tom, 'job::/team::a'), e.settings(tom, 'job::/team/b::c'));
  t.is(e.permits(basic('ann'), 'job::/team::a'), e.permits(basic('bob'), 'job::/team::b'), 'another caller holding the same shares it too');
  // A different grant is another object with its own content.
  t.deepEqual([...e.permits(basic('ann'), 'job::/team::a')], ['use']);
  t.is(e.settings(tom, 'job::/team/deny::x').log, 'deny');
  t.is(e.settings(tom, 'job::/team::x').log, undefined);
  t.deepEqual([...e.permits(tom, 'job::/elsewhere::x')], []);
  t.true(Object.isFrozen(e.settings(tom, 'job::/team/deny::x')), 'a shared settings object cannot be changed by one of its holders');
});

test('policy engine: an identity provider\'s claims, several values in one (groups), and the principal setting', (t) => {
  const e = engine(`auth::/ {
    if (corp_auth@platform->group == "ops" && corp_auth@platform->email_domain endsWith "example.com") { permit issue principal "ops@corp.platform.local" }
    if (corp_auth@platform->group != "banned") { permit read }
  }`);
  const user = (groups: string[]) => ({ name: 'a@example.com', mechanism: 'corp', principal: 'a@example.com@corp.platform.local', claims: { email_domain: 'example.com', group: groups } });
  t.true(e.check(user(['dev', 'ops']), 'auth::/', 'issue').allowed, 'one of the values is equal');
  t.is(e.settings(user(['dev', 'ops']), 'auth::/').principal, 'ops@corp.platform.local');
  t.false(e.check(user(['dev']), 'auth::/', 'issue').allowed);
  t.true(e.check(user(['dev']), 'auth::/', 'read').allowed);
  t.false(e.check(user(['dev', 'banned']), 'auth::/', 'read').allowed, '!= holds only when no value is equal');
  t.false(e.check(user([]), 'auth::/', 'read').allowed, 'an empty list holds nothing');
  t.false(e.check(basic('tom'), 'auth::/', 'read').allowed, 'another issuer has none of these claims');
});
