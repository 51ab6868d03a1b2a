import test from 'ava';
import { escapeDnValue, escapeFilterValue, ldapPrincipalOf, normalizeLdapName, resolveLdapOptions } from './ldap.js';

test('ldap: DN values are escaped per RFC 4514', (t) => {
  t.is(escapeDnValue('alice'), 'alice');
  t.is(escapeDnValue('smith,j'), 'smith\\,j');
  t.is(escapeDnValue('a+b=c;d<e>f"g\\h'), 'a\\+b\\=c\\;d\\<e\\>f\\"g\\\\h');
  t.is(escapeDnValue('#lead'), '\\#lead');
  t.is(escapeDnValue('mid#dle'), 'mid#dle');
  t.is(escapeDnValue(' both '), '\\ both\\ ');
  t.is(escapeDnValue('nul\0'), 'nul\\00');
  t.is(escapeDnValue('ünïcode'), 'ünïcode');
});

test('ldap: filter values are escaped per RFC 4515', (t) => {
  t.is(escapeFilterValue('alice'), 'alice');
  t.is(escapeFilterValue('*'), '\\2a');
  t.is(escapeFilterValue('alice)(uid=*'), 'alice\\29\\28uid=\\2a');
  t.is(escapeFilterValue('back\\slash\0'), 'back\\5cslash\\00');
});

test('ldap: names are lower-cased; names that cannot be a user are refused', (t) => {
  t.is(normalizeLdapName('Alice'), 'alice');
  t.is(normalizeLdapName('first.last@example.org'), 'first.last@example.org');
  t.is(ldapPrincipalOf('alice'), 'alice@ldap.platform.local');
  for (const bad of ['', ' alice', 'alice ', 'al\nice', 'al\0ice', 'x'.repeat(257)]) {
    t.is(normalizeLdapName(bad), undefined, JSON.stringify(bad));
  }
});

test('ldap: options pick one mode and default the filter and timeout', (t) => {
  const direct = resolveLdapOptions({ url: 'ldap://127.0.0.1:389', bindDnTemplate: 'uid={user},ou=people,dc=example,dc=org' });
  t.deepEqual(direct.mode, { kind: 'direct', dnTemplate: 'uid={user},ou=people,dc=example,dc=org' });
  t.is(direct.timeoutMs, 5000);
  const anonymous = resolveLdapOptions({ url: 'ldaps://ldap.example.org', searchBase: 'dc=example,dc=org' });
  t.deepEqual(anonymous.mode, { kind: 'search', base: 'dc=example,dc=org', filter: '(uid={user})', service: undefined });
  const service = resolveLdapOptions({ url: 'ldap://ldap.example.org/', searchBase: 'dc=x', searchFilter: '(&(objectClass=person)(mail={user}))', bindDn: 'cn=svc,dc=x', bindPassword: 'pw', startTls: true });
  t.like(service, { startTls: true, mode: { kind: 'search', filter: '(&(objectClass=person)(mail={user}))', service: { dn: 'cn=svc,dc=x', password: 'pw' } } });
});

test('ldap: bad options are refused with a message that names the setting', (t) => {
  const base = { url: 'ldap://127.0.0.1' };
  const cases: [object, RegExp][] = [
    [{ url: 'http://x', bindDnTemplate: 'uid={user}' }, /must start with ldap:\/\/ or ldaps:\/\//],
    [{ url: 'not a url', bindDnTemplate: 'uid={user}' }, /not a URL/],
    [{ url: 'ldap://h/dc=x', bindDnTemplate: 'uid={user}' }, /only the server/],
    [{ url: 'ldaps://h', bindDnTemplate: 'uid={user}', startTls: true }, /StartTLS is for ldap:\/\//],
    [{ ...base }, /PLATFORM_LDAP_BIND_DN_TEMPLATE .* or PLATFORM_LDAP_SEARCH_BASE/],
    [{ ...base, bindDnTemplate: 'uid={user}', searchBase: 'dc=x' }, /not both/],
    [{ ...base, bindDnTemplate: 'uid=alice,dc=x' }, /must contain \{user\}/],
    [{ ...base, bindDnTemplate: 'uid={user}', bindDn: 'cn=svc' }, /for search then bind/],
    [{ ...base, searchBase: 'dc=x', searchFilter: '(uid=alice)' }, /must contain \{user\}/],
    [{ ...base, searchBase: 'dc=x', searchFilter: '(uid={user}' }, /not a valid filter/],
    [{ ...base, searchBase: 'dc=x', bindDn: 'cn=svc,dc=x' }, /both the LDAP bind DN and its password/],
    [{ ...base, searchBase: 'dc=x', bindPassword: 'pw' }, /both the LDAP bind DN and its password/],
    [{ ...base, searchBase: 'dc=x', timeoutMs: 0 }, /timeout/],
  ];
  for (const [options, message] of cases) {
    t.throws(() => resolveLdapOptions(options as Parameters<typeof resolveLdapOptions>[0]), { message }, JSON.stringify(options));
  }
});
