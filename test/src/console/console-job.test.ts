/**
 * The job page's other actions in a real browser (headless Chromium through playwright-core)
 * against a real controller and agent: a provider, a service and a network made from the pages
 * (the scripted gateway of harness/gateway-app.ts makes the service); Restart replaces the
 * instances; the service bound and a job linked from the page, then unbound and unlinked; the
 * services page lists them; every control of the job page is reached with Tab; at phone width
 * no page scrolls sideways; the audit log pages through its entries.
 */
import test from 'ava';
import type { Page } from 'playwright-core';
import type { AuditLogItem, Job } from '@platform/controller';
import { uploadPackage } from '../harness/apps.js';
import { chromiumOrSkip, launchBrowser } from '../harness/browser.js';
import { instancesOf, runningInstances, startCluster } from '../harness/cluster.js';
import { TEST_ADMIN_PASSWORD } from '../harness/controller-process.js';
import { unique } from '../harness/fixtures.js';
import { envAppArchive, envAppJob, gatewayAppArchive, gatewayAppJob } from '../harness/gateway-app.js';
import type { ApiClient } from '../harness/http.js';
import { eventually } from '../harness/wait.js';

async function signIn(page: Page, user: string, password: string): Promise<void> {
  await page.getByLabel('User name').fill(user);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

/** The errors the browser logged, less refusals with the `expected` status codes. */
function unexpected(errors: string[], expected: number[] = []): string[] {
  return errors.filter((e) => !expected.some((x) => e.includes(`the server responded with a status of ${x}`)));
}

/**
 * Presses Tab until the focus comes round again; answers the controls of the page, and those it
 * never reached (buttons, links, fields and focusable regions that are shown and enabled), each
 * named by its tag and label.
 */
async function tabThrough(page: Page): Promise<{ controls: string[]; unreached: string[] }> {
  const describe = `(el) => {
    const label = el.getAttribute('aria-label') || (el.labels && el.labels[0] && el.labels[0].innerText) || el.getAttribute('placeholder') || el.innerText || el.getAttribute('name') || el.getAttribute('href') || '';
    return el.tagName.toLowerCase() + ': ' + label.trim().replace(/\\s+/g, ' ').slice(0, 60);
  }`;
  const all = await page.evaluate(`(() => {
    const d = ${describe};
    const els = [...document.querySelectorAll('a[href], button, input, select, textarea, summary, [tabindex]')];
    return els.filter((el) => !el.disabled && el.tabIndex >= 0 && el.getClientRects().length > 0 && getComputedStyle(el).visibility !== 'hidden').map(d);
  })()`) as string[];
  const reached = new Set<string>();
  await page.evaluate('document.activeElement && document.activeElement.blur && document.activeElement.blur()');
  let first: string | undefined;
  for (let i = 0; i < all.length * 2 + 10; i++) {
    await page.keyboard.press('Tab');
    const now = (await page.evaluate(`(() => { const el = document.activeElement; return el && el !== document.body ? (${describe})(el) : '' })()`)) as string;
    if (now === '') continue;
    if (now === first) break;
    first ??= now;
    reached.add(now);
  }
  const controls = [...new Set(all)];
  return { controls, unreached: controls.filter((c) => !reached.has(c)) };
}

/**
 * Whether the page fits the window's width (would not scroll sideways), once it has settled: the
 * charts follow their boxes a frame after a resize. Answers false with what reaches past the edge.
 */
async function fitsWidth(page: Page): Promise<string | true> {
  const wider = async () => ((await page.evaluate('document.documentElement.scrollWidth - window.innerWidth')) as number) > 0;
  try {
    await eventually(async () => !(await wider()), { timeoutMs: 5000, what: 'the page to fit the window' });
    return true;
  } catch {
    return widerThanWindow(page);
  }
}

/** The elements that reach past the window's right edge, outside a scrolling box (for a failure's message). */
async function widerThanWindow(page: Page): Promise<string> {
  return (await page.evaluate(`[...document.querySelectorAll('body *')]
    .filter((e) => e.getBoundingClientRect().right > window.innerWidth + 1 && !e.closest('.table-wrap, .log'))
    .slice(0, 8)
    .map((e) => e.tagName.toLowerCase() + '.' + e.className + ' ' + Math.round(e.getBoundingClientRect().right) + 'px ' + (e.getAttribute('aria-label') || (e.textContent || '').slice(0, 50)))
    .join('; ')`)) as string;
}

/** A started scripted gateway (three-tier), promoted to a new type. */
async function promotedGateway(api: ApiClient, ns: string, t: { is: (a: unknown, b: unknown, m?: string) => void }): Promise<string> {
  const gatewayPkg = (await uploadPackage(api, ns, gatewayAppArchive())).uuid;
  const type = unique('t').toLowerCase();
  const gw = await api.post<Job>('/jobs', { ...gatewayAppJob(`job::${ns}::gw`, gatewayPkg), ports: [{ number: 0, optional: false, routes: [{ type: 'http', endpoint: `${type}.gw.test` }] }], state: 'started' });
  t.is(gw.status, 200, gw.text);
  await runningInstances(api, gw.body.uuid, 1);
  t.is((await api.post('/gateways', { job_fqn: gw.body.fqn, type })).status, 200);
  return type;
}

test('console: a provider, a service and a network made from the pages; Restart replaces the instances; the service bound and a job linked from the page, then unbound and unlinked; Tab reaches every control; nothing scrolls sideways at phone width', async (t) => {
  const chromium = chromiumOrSkip(t);
  if (!chromium) return t.pass();
  const cluster = await startCluster(t, [{}]);
  const api = cluster.api;
  const ns = `/console/${unique('j')}`;
  const type = await promotedGateway(api, ns, t);
  const provider = `provider::${ns}::prov`;
  const service = `service::${ns}::db`;
  const envPkg = (await uploadPackage(api, ns, envAppArchive())).uuid;
  const app = await api.post<Job>('/jobs', envAppJob(`job::${ns}::app`, envPkg));
  t.is(app.status, 200, app.text);
  const db = await api.post<Job>('/jobs', envAppJob(`job::${ns}::db`, envPkg));
  t.is(db.status, 200, db.text);
  const [before] = await runningInstances(api, app.body.uuid, 1);
  await runningInstances(api, db.body.uuid, 1);

  const browser = await launchBrowser(t, chromium);
  const { page, errors } = await browser.page();
  page.on('dialog', (d) => void d.accept());
  await page.goto(`${cluster.controller.url}/console/#/services`);
  await signIn(page, 'admin', TEST_ADMIN_PASSWORD);

  // A provider and a service made from the services page; the parameters start as the gateway's example.
  const newProvider = page.getByRole('form', { name: 'New provider' });
  await newProvider.getByLabel('New provider type').selectOption(type);
  t.deepEqual(JSON.parse(await newProvider.getByLabel('New provider parameters').inputValue()), { url: 'scripted://admin@host' });
  await newProvider.getByLabel('New provider FQN').fill(provider);
  await newProvider.getByLabel('New provider parameters').fill('{"url": "scripted://admin:hunter2@db.example:5432"}');
  await newProvider.getByRole('button', { name: 'Create provider' }).click();
  await page.getByRole('table', { name: 'Providers' }).getByText(provider).waitFor({ timeout: 30_000 });
  t.false((await newProvider.getByLabel('New provider parameters').inputValue()).includes('hunter2'), 'the password is not left in the form');
  const newService = page.getByRole('form', { name: 'New service' });
  await newService.getByLabel('New service provider or type').selectOption(`provider:${provider}`);
  await newService.getByLabel('New service FQN').fill(service);
  // Not JSON: said so, nothing sent.
  await newService.getByLabel('New service parameters').fill('{db: 3}');
  await newService.getByRole('button', { name: 'Create service' }).click();
  t.regex(await newService.getByRole('alert').innerText(), /^The parameters are not JSON/);
  await newService.getByLabel('New service parameters').fill('{"db": "3"}');
  await newService.getByRole('button', { name: 'Create service' }).click();
  await page.getByRole('table', { name: 'Services' }).getByText(service).waitFor({ timeout: 30_000 });
  const made = (await api.get<{ fqn: string; provider_fqn: string; parameters: Record<string, unknown> }[]>('/services')).body.find((x) => x.fqn === service);
  t.like(made, { provider_fqn: provider, parameters: { db: '3' } });
  await browser.screenshot(page, 'services-create');

  // A network made and deleted from the networks page.
  const network = `network::${ns}::back`;
  await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Networks' }).click();
  const newNetwork = page.getByRole('form', { name: 'New network' });
  await newNetwork.getByLabel('New network FQN').fill(network);
  await newNetwork.getByLabel('New network description').fill('made in the console');
  await newNetwork.getByRole('button', { name: 'Create network' }).click();
  const networks = page.getByRole('table', { name: 'Networks' });
  await networks.getByText(network).waitFor({ timeout: 30_000 });
  t.true((await api.get<{ fqn: string }[]>('/networks')).body.some((n) => n.fqn === network));
  await networks.getByRole('row').filter({ hasText: network }).getByRole('button', { name: 'Delete' }).click();
  await networks.getByText(network).waitFor({ state: 'detached', timeout: 30_000 });
  t.false((await api.get<{ fqn: string }[]>('/networks')).body.some((n) => n.fqn === network));

  await page.goto(`${cluster.controller.url}/console/#/jobs/${app.body.uuid}`);
  const instances = page.getByRole('table', { name: 'Instances' });
  await instances.getByText(before!.uuid.slice(0, 8)).waitFor();

  // Restart: the running instance is replaced by a new one, which the page shows.
  await page.getByRole('group', { name: 'Job actions' }).getByRole('button', { name: 'Restart' }).click();
  const after = await eventually(
    async () => {
      const running = (await instancesOf(api, app.body.uuid)).filter((i) => i.state === 'RUNNING' && i.uuid !== before!.uuid);
      return running.length === 1 ? running[0] : undefined;
    },
    { timeoutMs: 60_000, what: 'a new instance running after the restart' },
  );
  await instances.getByText(after.uuid.slice(0, 8)).waitFor({ timeout: 15_000 });
  t.is((await api.get<Job>(`/jobs/${app.body.uuid}`)).body.state, 'started');

  // Bind the service from the page: the binding and its variables are listed, and the API has it.
  const section = page.getByRole('region', { name: 'Bindings and links' });
  await section.getByLabel('Service', { exact: true }).selectOption(service);
  await section.getByRole('button', { name: 'Bind', exact: true }).click();
  const bindings = page.getByRole('table', { name: 'Service bindings' });
  await bindings.getByText(service).or(section.getByRole('alert')).first().waitFor({ timeout: 30_000 });
  t.deepEqual(await section.getByRole('alert').allInnerTexts(), [], 'the binding was not refused');
  const bound = (await api.get<Job>(`/jobs/${app.body.uuid}`)).body.bindings ?? {};
  t.true(Object.values(bound).some((b) => b.service_fqn === service), JSON.stringify(bound));
  // Link to the other job from the page. Its name would be the job's, "db", which the service's
  // binding has taken: the API's refusal is shown, and a name given in the form does it.
  await section.getByLabel('Job FQN').fill(db.body.fqn);
  await section.getByRole('button', { name: 'Link', exact: true }).click();
  const refusal = section.getByRole('alert');
  await refusal.waitFor({ timeout: 30_000 });
  t.regex(await refusal.innerText(), /has a binding named db already/);
  await section.getByLabel('Link name').fill('store');
  await section.getByRole('button', { name: 'Link', exact: true }).click();
  const links = page.getByRole('table', { name: 'Links' });
  // The API names the target by uuid; the page shows its FQN, linked to its page.
  await links.getByRole('link', { name: db.body.fqn }).or(refusal).first().waitFor({ timeout: 30_000 });
  t.deepEqual(await refusal.allInnerTexts(), [], 'the link was not refused');
  t.is(await links.locator('tbody td').first().innerText(), 'store');
  t.true(Object.values((await api.get<Job>(`/jobs/${app.body.uuid}`)).body.bindings ?? {}).some((b) => b.name === 'store' && b.target_job_uuid === db.body.uuid));
  await browser.screenshot(page, 'job-bindings');

  // The services page lists the service, its provider and the binding.
  await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Services' }).click();
  await page.getByRole('table', { name: 'Services' }).getByText(service).waitFor();
  await page.getByRole('table', { name: 'Providers' }).getByText(provider).waitFor();
  const all = page.getByRole('table', { name: 'Bindings', exact: true });
  await all.getByRole('link', { name: db.body.fqn }).waitFor();
  await browser.screenshot(page, 'services-bindings');

  // Every control of the job page is reached with the keyboard.
  await page.goto(`${cluster.controller.url}/console/#/jobs/${app.body.uuid}`);
  await page.getByRole('table', { name: 'Links' }).getByText(db.body.fqn).waitFor();
  // The page's parts come as their requests answer: every control is there before the Tabs start.
  for (const name of ['Restart', 'Unlink']) await page.getByRole('button', { name, exact: true }).first().waitFor({ timeout: 30_000 });
  await page.getByLabel('Link name').first().waitFor({ timeout: 30_000 });
  const { controls, unreached } = await tabThrough(page);
  for (const c of ['a: Skip to content', 'button: Restart', 'button: Unlink', 'input: Link name', 'pre: Log lines']) t.true(controls.includes(c), `${c} in ${controls.join(' | ')}`);
  t.deepEqual(unreached, []);

  // At phone width the job page and the others fit the window; wide tables scroll inside.
  await page.setViewportSize({ width: 390, height: 844 });
  t.is(await fitsWidth(page), true, 'the job page fits at phone width');
  await browser.screenshot(page, 'job-phone');
  for (const [link, heading] of [
    ['Apps & jobs', 'Apps & jobs'],
    ['Deploy', 'Deploy an app'],
    ['Packages', 'Packages'],
    ['Instance managers', 'Instance managers'],
    ['Services', 'Services'],
    ['Networks', 'Networks'],
    ['Routes', 'Routes'],
    ['Audit log', 'Audit log'],
    ['Policy', 'Policy'],
    ['Users', 'Users'],
  ] as const) {
    await page.getByRole('button', { name: 'Menu' }).click();
    await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: link }).click();
    await page.getByRole('heading', { name: heading, exact: true }).first().waitFor();
    t.is(await fitsWidth(page), true, `${link} fits at phone width`);
  }
  await page.setViewportSize({ width: 1280, height: 900 });

  // Unlink and unbind from the page.
  await page.goto(`${cluster.controller.url}/console/#/jobs/${app.body.uuid}`);
  await links.getByRole('button', { name: 'Unlink' }).click();
  await links.getByText('No links.').waitFor({ timeout: 30_000 });
  await bindings.getByRole('button', { name: 'Unbind' }).click();
  await bindings.getByText('No service bindings.').waitFor({ timeout: 30_000 });
  t.deepEqual((await api.get<Job>(`/jobs/${app.body.uuid}`)).body.bindings ?? {}, {});
  const audit: string[] = (await api.get<AuditLogItem[]>(`/audit?fqn=${encodeURIComponent(app.body.fqn)}`)).body.map((e) => e.event_type);
  for (const event of ['job.stop', 'job.start']) t.true(audit.includes(event), `${event} in ${audit.join(', ')}`);
  t.deepEqual(unexpected(errors, [409]), []);
});

test('console: the audit log pages through its entries, 50 a page, newest first, and filters', async (t) => {
  const chromium = chromiumOrSkip(t);
  if (!chromium) return t.pass();
  const cluster = await startCluster(t, []);
  const api = cluster.api;
  const ns = `/pages/${unique('a')}`;
  // 60 job.create entries in a namespace of their own.
  for (let i = 0; i < 60; i++) {
    const r = await api.post('/jobs', { fqn: `job::${ns}::j${String(i).padStart(2, '0')}`, num_instances: 1, processes: { app: { start_command: 'sleep 1000' } } });
    t.is(r.status, 200, r.text);
  }
  const expected = (await api.get<AuditLogItem[]>(`/audit?fqn=${encodeURIComponent(`job::${ns}`)}&limit=100`)).body.map((e) => e.fqn);
  t.is(expected.length, 60);

  const browser = await launchBrowser(t, chromium);
  const { page, errors } = await browser.page();
  await page.goto(`${cluster.controller.url}/console/#/audit`);
  await signIn(page, 'admin', TEST_ADMIN_PASSWORD);
  await page.getByRole('heading', { name: 'Audit log' }).waitFor();
  await page.getByLabel('FQN').fill(`job::${ns}`);
  await page.getByRole('button', { name: 'Filter' }).click();
  const rows = page.getByTestId('audit-row');
  const fqns = async () => page.getByRole('table', { name: 'Audit entries' }).locator('tbody tr td:nth-child(3)').allInnerTexts();
  await eventually(async () => (await fqns())[0] === expected[0], { what: 'the first page of the filtered entries' });
  t.deepEqual(await fqns(), expected.slice(0, 50));
  const pager = page.getByRole('navigation', { name: 'Audit pages' });
  t.true(await pager.getByRole('button', { name: 'Newer' }).isDisabled());
  t.is(await pager.locator('span').innerText(), '1–50');
  await pager.getByRole('button', { name: 'Older' }).click();
  await eventually(async () => (await rows.count()) === 10, { what: 'the second page' });
  t.deepEqual(await fqns(), expected.slice(50));
  t.is(await pager.locator('span').innerText(), '51–60');
  t.true(await pager.getByRole('button', { name: 'Older' }).isDisabled(), 'no page after the last');
  await pager.getByRole('button', { name: 'Newer' }).click();
  await eventually(async () => (await rows.count()) === 50, { what: 'the first page again' });
  t.deepEqual(await fqns(), expected.slice(0, 50));
  t.deepEqual(unexpected(errors), []);
});
