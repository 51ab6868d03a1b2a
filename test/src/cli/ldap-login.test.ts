/**
 * `platform login --ldap` against a real OpenLDAP server (slapd, started on loopback by the
 * test) and the real controller configured for it: the token names the LDAP principal, the
 * configuration keeps the mechanism and the user's sandbox, and commands work with it.
 */
import test from 'ava';
import { Cli } from '../harness/cli.js';
import { ControllerProcess } from '../harness/controller-process.js';
import { findSlapdTools, Slapd } from '../harness/slapd.js';

const found = findSlapdTools();

test('cli: login --ldap with --password-stdin gets an LDAP token; a wrong password exits 1 with the refusal', async (t) => {
  if (!found.tools) {
    const message = `needs ${found.missing.join(', ')}: apt-get install slapd ldap-utils`;
    if (process.env['PLATFORM_REQUIRE_SYSTEM_TOOLS'] === '1') throw new Error(message);
    t.log(`skipped: ${message}`);
    t.pass();
    return;
  }
  const slapd = await Slapd.start({ users: [{ uid: 'carol', password: 'carol-password' }] });
  t.teardown(() => slapd.dispose());
  const controller = await ControllerProcess.start({
    env: { PLATFORM_LDAP_URL: slapd.url, PLATFORM_LDAP_BIND_DN_TEMPLATE: `uid={user},ou=people,${slapd.suffix}` },
    readyTimeoutMs: 90_000,
  });
  t.teardown(() => controller.dispose());

  const cli = await Cli.create(t);
  const wrong = await cli.run(['login', controller.url, '--ldap', '--user', 'carol', '--password-stdin'], { stdin: 'not-her-password\n' });
  t.is(wrong.code, 1);
  t.regex(wrong.stderr, /^error: .* \(POST \/v1\/oauth2\/token: HTTP 401, request id \S+\)$/m);

  await cli.ok(['login', controller.url, '--ldap', '--user', 'carol', '--password-stdin'], { stdin: 'carol-password\n' });
  const me = await cli.json<{ user: string; principal: string; mechanism: string; namespace: string }>(['whoami']);
  t.deepEqual(me, { ...me, user: 'carol', principal: 'carol@ldap.platform.local', mechanism: 'ldap', namespace: '/sandbox/carol' });
  t.deepEqual(await cli.json<unknown[]>(['app', 'list']), []);
});
