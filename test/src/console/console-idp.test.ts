/**
 * The console's sign-in at an identity provider, in a real browser (headless Chromium through
 * playwright-core) against a real controller trusting a real OpenID provider (oidc-provider) on
 * loopback: the page shows the code and the provider's page, waits for the sign-in there, and
 * is signed in; a user policy refuses sees the API's message; Cancel offers the providers again.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import type { AuditLogItem } from '@platform/controller';
import { chromiumOrSkip, launchBrowser } from '../harness/browser.js';
import { ControllerProcess } from '../harness/controller-process.js';
import { TestIdp } from '../harness/oidc.js';

/**
 * Errors the browser logged, less the answers the device flow gives on purpose: 429 while the
 * user has not signed in at the provider yet (the controller's `authorization_pending`), and
 * those `expected` names.
 */
function unexpected(errors: string[], expected: number[] = []): string[] {
  return errors.filter((e) => ![429, ...expected].some((x) => e.includes(`the server responded with a status of ${x}`)));
}

test('console: sign-in at an identity provider shows the code and the provider\'s page, and signs in once the user has signed in there; a user policy refuses sees why; Cancel goes back', async (t) => {
  const chromium = chromiumOrSkip(t);
  if (!chromium) return t.pass();
  const idp = await TestIdp.start({ accounts: { alice: { email: 'alice@example.com' }, mallory: { email: 'mallory@evil.test' } } });
  t.teardown(() => idp.stop());
  const secrets = await mkdtemp(join(tmpdir(), 'console-idp-'));
  t.teardown(() => rm(secrets, { recursive: true, force: true }));
  await writeFile(join(secrets, 'corp'), `${idp.clientSecret}\n`, { mode: 0o600 });
  const controller = await ControllerProcess.start({
    args: ['--idp', `name=corp,issuer=${idp.issuer},client-id=${idp.clientId},client-secret-file=${join(secrets, 'corp')},scopes=openid email offline_access,display-name=Example Corp`],
    // The test's provider is on loopback, which the controller refuses unless listed.
    allowedDestinations: ['127.0.0.1'],
  });
  t.teardown(() => controller.dispose());
  const admin = await controller.admin();
  const policy = await admin.put('/v1/policy', {
    docs: [{ name: 'console-idp', for_version: 0, text: 'auth::/ { if (corp_auth@platform->email_domain == "example.com") { permit issue } }\n' }],
  });
  t.is(policy.status, 200, policy.text);
  const browser = await launchBrowser(t, chromium);

  // Alice: the provider's button, the code and the link to the provider's page, then signed in.
  const { page, errors } = await browser.page();
  await page.goto(`${controller.url}/console/`);
  await page.getByRole('button', { name: 'Example Corp' }).click();
  const code = page.getByTestId('user-code');
  await code.waitFor();
  const link = page.getByTestId('verification-link');
  const href = (await link.getAttribute('href')) ?? '';
  t.true(href.startsWith(`${idp.issuer}/`), href);
  t.true(href.includes(encodeURIComponent(await code.innerText())) || href.includes(await code.innerText()), `${href} holds the code`);
  t.is(await link.getAttribute('target'), '_blank', 'the provider opens in a new tab');
  t.is(await link.innerText(), href.split('?')[0] ?? '');
  await browser.screenshot(page, 'sign-in-provider');
  // The user signs in at the provider (playing their browser there).
  await idp.signIn(href, 'alice');
  await page.getByRole('heading', { name: 'Apps & jobs' }).waitFor({ timeout: 30_000 });
  t.is(await page.locator('header .user span').innerText(), 'alice@example.com');
  // Signed in for real: the page's requests carry a token the API takes.
  const allow = (await admin.get<AuditLogItem[]>('/audit?event_type=auth.allow')).body;
  t.true(allow.some((e) => JSON.stringify(e.audit_payload).includes('alice@example.com')), 'auth.allow recorded for alice');
  t.deepEqual(unexpected(errors), []);

  // Mallory: policy gives her domain no token; the page shows the API's reason and offers the providers again.
  const refused = await browser.page();
  await refused.page.goto(`${controller.url}/console/`);
  await refused.page.getByRole('button', { name: 'Example Corp' }).click();
  const refusedLink = refused.page.getByTestId('verification-link');
  await refusedLink.waitFor();
  await idp.signIn((await refusedLink.getAttribute('href')) ?? '', 'mallory');
  const alert = refused.page.getByRole('alert');
  await alert.waitFor({ timeout: 30_000 });
  t.regex(await alert.innerText(), /permit issue on auth::\//);
  t.true(await refused.page.getByRole('button', { name: 'Example Corp' }).isVisible());
  t.true(await refused.page.getByRole('button', { name: 'Sign in' }).isVisible(), 'still at the sign-in');
  t.deepEqual(unexpected(refused.errors, [403]), []);

  // Cancel: the code goes and the providers are offered again.
  const cancel = await browser.page();
  await cancel.page.goto(`${controller.url}/console/`);
  await cancel.page.getByRole('button', { name: 'Example Corp' }).click();
  await cancel.page.getByTestId('user-code').waitFor();
  await cancel.page.getByRole('button', { name: 'Cancel' }).click();
  await cancel.page.getByRole('button', { name: 'Example Corp' }).waitFor();
  t.is(await cancel.page.getByTestId('user-code').count(), 0);
  t.deepEqual(unexpected(cancel.errors), []);
});
