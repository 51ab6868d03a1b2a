/**
 * The web console in a real browser (headless Chromium through playwright-core) against real
 * controllers and an agent: an app deployed from the page, its live log, scaling and stopping
 * it, its audit entries; a user without rights; a wrong password; an expired session. Every
 * page is checked for errors in the browser's console, and a screenshot of each main page is
 * written to test/screenshots/ (kept by CI).
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import type { Page } from 'playwright-core';
import type { Job } from '@platform/controller';
import { chromiumOrSkip, launchBrowser } from '../harness/browser.js';
import { runningInstances, startCluster, instancesOf } from '../harness/cluster.js';
import { ControllerProcess, TEST_ADMIN_PASSWORD } from '../harness/controller-process.js';
import { ApiClient, basicAuth } from '../harness/http.js';
import { unique } from '../harness/fixtures.js';
import { TcpRelay } from '../harness/net.js';
import { eventually } from '../harness/wait.js';

const PASSWORD = 'a long enough password';

async function signIn(page: Page, user: string, password: string): Promise<void> {
  await page.getByLabel('User name').fill(user);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

/**
 * Errors the browser logged, less those a test caused on purpose: refusals (`expected`: their
 * status codes) and (strings) network failures it made, which the browser logs itself.
 */
function unexpected(errors: string[], expected: (number | string)[] = []): string[] {
  return errors.filter((e) => !expected.some((x) => e.includes(typeof x === 'number' ? `the server responded with a status of ${x}` : x)));
}

test('console: an app deployed from the page starts, its log is live, it scales to 2 and stops, and its audit entries are there; no page logs an error', async (t) => {
  const chromium = chromiumOrSkip(t);
  if (!chromium) return t.pass();
  const cluster = await startCluster(t, [{}], { env: { PLATFORM_STAGER_TIMEOUT_MS: '120000' } });
  const browser = await launchBrowser(t, chromium);
  const { page, errors } = await browser.page();
  const app = await mkdtemp(join(tmpdir(), 'console-app-'));
  t.teardown(() => rm(app, { recursive: true, force: true }));
  await writeFile(join(app, 'package.json'), JSON.stringify({ name: 'hello', main: 'server.js' }));
  await writeFile(
    join(app, 'server.js'),
    [
      "const http = require('http');",
      "http.createServer((q, s) => s.end('hello from the console')).listen(process.env.PORT, () => console.log('listening on ' + process.env.PORT));",
      "let n = 0; setInterval(() => console.log('tick ' + n++), 300);",
    ].join('\n'),
  );
  await writeFile(join(app, '.platformignore'), 'secret.txt\n');
  await writeFile(join(app, 'secret.txt'), 'not for the archive');
  const name = unique('hello');
  const jobFqn = `job::/sandbox/admin::${name}`;

  // The browser reaches the controller through a relay that can drop its connections.
  const relay = await TcpRelay.start(new URL(cluster.controller.url).host);
  t.teardown(() => relay.close());
  const base = `http://${relay.address}`;
  // `/` sends a browser to the console.
  await page.goto(`${base}/`);
  t.true(page.url().endsWith('/console/'), page.url());
  await signIn(page, 'admin', TEST_ADMIN_PASSWORD);
  await page.getByRole('heading', { name: 'Apps & jobs' }).waitFor();

  await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Deploy' }).click();
  // An archive is read in the page for its runtime (it goes up as it is).
  const archive = join(app, '..', `${name}.tar.gz`);
  t.teardown(() => rm(archive, { force: true }));
  execFileSync('tar', ['-czf', archive, '-C', app, 'package.json', 'server.js']);
  await page.getByTestId('deploy-archive').setInputFiles(archive);
  await eventually(async () => (await page.getByTestId('deploy-source').innerText()).startsWith('2 files'), { what: 'the archive read' });
  t.is(await page.getByLabel('Name', { exact: true }).inputValue(), name);
  t.is(await page.getByLabel('Runtime').locator('option').first().innerText(), 'detected: nodejs');
  // The directory is what is deployed.
  await page.getByTestId('deploy-directory').setInputFiles(app);
  await page.getByTestId('deploy-source').waitFor();
  t.regex(await page.getByTestId('deploy-source').innerText(), /^2 files/, 'the ignore file and what it names are left out');
  await page.getByLabel('Name', { exact: true }).fill(name);
  await eventually(async () => (await page.getByLabel('Runtime').locator('option').first().innerText()) === 'detected: nodejs', { what: 'the nodejs runtime detected' });
  await page.getByRole('button', { name: 'Deploy', exact: true }).click();
  await page.getByText('Staging log').waitFor({ timeout: 60_000 });
  await page.getByTestId('deploy-result').waitFor({ timeout: 150_000 });
  t.regex(await page.getByTestId('deploy-result').innerText(), new RegExp(`${name} is running at http://`));
  await browser.screenshot(page, 'deploy');
  const [job] = (await cluster.api.get<Job[]>(`/jobs?fqn=${encodeURIComponent(jobFqn)}`)).body;
  t.truthy(job, 'the job exists');
  const [first] = await runningInstances(cluster.api, job!.uuid, 1, 60_000);
  const body = await (await fetch(`http://${Object.values(first!.ports)[0]}/`)).text();
  t.is(body, 'hello from the console');

  // The job page: the instance, the live log.
  // Its URL, through the router, in the browser (Chromium resolves *.localhost to this host).
  const url = await page.getByTestId('deploy-result').getByRole('link', { name: /^http:/ }).getAttribute('href');
  const visit = await page.context().newPage();
  await visit.goto(url!);
  t.is(await visit.locator('body').innerText(), 'hello from the console');
  await visit.close();
  await page.getByTestId('deploy-result').getByRole('link', { name, exact: true }).click();
  await page.getByRole('heading', { name: new RegExp(`^${name}`) }).waitFor();
  await eventually(async () => (await page.getByTestId('instance-row').filter({ hasText: 'RUNNING' }).count()) === 1, { timeoutMs: 30_000, what: 'one RUNNING instance row' });
  // Its uptime, from the instance's running_since.
  t.regex(await page.getByTestId('instance-row').first().locator('td').nth(3).innerText(), /^\d+(s|m \d+s)$/);
  const [listed] = await instancesOf(cluster.api, job!.uuid);
  t.true(typeof (listed as unknown as { running_since?: number }).running_since === 'number', 'GET /jobs/{uuid}/instances tells since when it runs');
  await page.getByTestId('log').getByText(/listening on \d+/).waitFor({ timeout: 30_000 });
  const ticks = async () => (await page.getByTestId('log').innerText()).match(/tick \d+/g) ?? [];
  const before = (await ticks()).length;
  await eventually(async () => (await ticks()).length >= before + 3, { timeoutMs: 20_000, what: 'new log lines arriving live' });
  const seen = await ticks();
  t.is(new Set(seen).size, seen.length, 'no line twice');
  t.is(await page.getByTestId('log-status').innerText(), 'live');
  // The connection drops (the relay between the browser and the controller cuts it): the tail
  // opens again, resumes after the last line it had, and the ticks go on, none missed, none twice.
  t.true(relay.cutAll() > 0);
  await page.getByTestId('log-status').getByText('live').waitFor({ timeout: 30_000 });
  const resumedFrom = (await ticks()).length;
  await eventually(async () => (await ticks()).length >= resumedFrom + 3, { timeoutMs: 20_000, what: 'lines after the reconnection' });
  const numbers = (await ticks()).map((tick) => Number(tick.slice(5)));
  t.deepEqual(numbers, numbers.map((_n, i) => numbers[0]! + i), 'consecutive ticks across the reconnection');
  await browser.screenshot(page, 'job');

  // An environment variable, edited in place: a new version of the job.
  await page.getByRole('button', { name: 'Edit' }).click();
  await page.getByRole('button', { name: 'Add variable' }).click();
  await page.getByRole('textbox', { name: 'Variable name' }).fill('GREETING');
  await page.getByRole('textbox', { name: 'Value' }).fill('hello there');
  await page.getByRole('button', { name: 'Save (restarts the instances)' }).click();
  await page.getByRole('table', { name: 'Environment' }).getByText('GREETING').waitFor();
  const edited = (await cluster.api.get<Job>(`/jobs/${job!.uuid}`)).body;
  t.deepEqual(edited.processes['app']?.environment, { GREETING: 'hello there' });
  t.is(edited.version_id, job!.version_id + 1);

  // Scale to 2: both instances on the page.
  await page.getByRole('spinbutton', { name: 'Number of instances' }).fill('2');
  await page.getByRole('button', { name: 'Scale' }).click();
  await eventually(async () => (await page.getByTestId('instance-row').filter({ hasText: 'RUNNING' }).count()) === 2, { timeoutMs: 60_000, what: 'two RUNNING instance rows' });
  t.is((await runningInstances(cluster.api, job!.uuid, 2, 30_000)).length, 2);
  await page.getByTestId('log').getByText(/tick \d+/).first().waitFor();
  await page.locator('header.top').scrollIntoViewIfNeeded();
  await browser.screenshot(page, 'readme', { fullPage: false });

  // Stop.
  await page.getByRole('group', { name: 'Job actions' }).getByRole('button', { name: 'Stop', exact: true }).click();
  await page.getByRole('heading', { name: new RegExp(`^${name}`) }).getByText('stopped').waitFor({ timeout: 30_000 });
  await eventually(async () => (await instancesOf(cluster.api, job!.uuid)).every((i) => i.state === 'REMOVED'), { timeoutMs: 30_000, what: 'the instances removed' });
  t.is((await cluster.api.get<Job>(`/jobs/${job!.uuid}`)).body.state, 'stopped');

  // The audit entries it made.
  await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Audit log' }).click();
  await page.getByLabel('FQN').fill(jobFqn);
  await page.getByRole('button', { name: 'Filter' }).click();
  await eventually(async () => {
    const text = await page.getByRole('table', { name: 'Audit entries' }).innerText();
    return ['job.create', 'job.update', 'job.stop'].every((e) => text.includes(e));
  }, { timeoutMs: 10_000, what: 'job.create, job.update and job.stop in the audit table' });
  await browser.screenshot(page, 'audit');

  // Every other main page, each without an error.
  await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Apps & jobs' }).click();
  await page.getByRole('link', { name, exact: true }).waitFor();
  t.regex(await page.getByRole('row').filter({ hasText: name }).innerText(), /stopped/);
  await browser.screenshot(page, 'apps');
  const pages: [string, string, string][] = [
    ['Packages', 'Packages', 'packages'],
    ['Instance managers', 'Instance managers', 'instance-managers'],
    ['Services', 'Services', 'services'],
    ['Networks', 'Networks', 'networks'],
    ['Routes', 'Routes', 'routes'],
    ['Policy', 'Policy', 'policy'],
    ['Users', 'Users', 'users'],
  ];
  for (const [link, heading, shot] of pages) {
    await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: link }).click();
    await page.getByRole('heading', { name: heading, exact: true }).first().waitFor();
    await page.waitForLoadState('networkidle', { timeout: 5000 }).catch(() => undefined);
    if (shot === 'instance-managers') {
      await page.getByRole('button', { name: 'Instances', exact: true }).click();
      await page.getByRole('table', { name: /^Instances on / }).waitFor();
    }
    await browser.screenshot(page, shot);
  }
  await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Packages' }).click();
  await page.getByRole('link', { name: new RegExp(`^${name}-`) }).click();
  await page.getByText('[staging]').first().waitFor({ timeout: 10_000 });
  await browser.screenshot(page, 'package');
  // Its archive downloads as it was uploaded.
  const digest = await page.getByRole('table', { name: 'Archives' }).locator('code.small').innerText();
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download' }).click()]);
  const file = await download.path();
  t.is(`sha256:${createHash('sha256').update(await readFile(file)).digest('hex')}`, digest);
  // At phone width the navigation folds behind a button.
  await page.setViewportSize({ width: 390, height: 844 });
  await page.getByRole('button', { name: 'Menu' }).click();
  await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Apps & jobs' }).click();
  await page.getByRole('link', { name, exact: true }).waitFor();
  await browser.screenshot(page, 'apps-phone');
  // The one error: the log stream the relay cut, as Chromium reports it.
  t.deepEqual(unexpected(errors, ['net::ERR_INCOMPLETE_CHUNKED_ENCODING']), []);
  t.is(errors.length, 1, errors.join('\n'));
});

test('console: a wrong password shows the API\'s message; a user without rights gets no buttons and the API refuses them; an expired session returns to the sign-in', async (t) => {
  const chromium = chromiumOrSkip(t);
  if (!chromium) return t.pass();
  // The drain added from the page names a collector on loopback (never reached: no instance runs): listed.
  const controller = await ControllerProcess.start({ allowedDestinations: ['127.0.0.1:5140'] });
  t.teardown(() => controller.dispose());
  const api = await controller.admin();
  const viewer = unique('viewer');
  const brief = unique('brief');
  const mallory = unique('mallory');
  const team = `/team/${unique('t')}`;
  await api.createUser(viewer, PASSWORD);
  await api.createUser(brief, PASSWORD);
  await api.createUser(mallory, PASSWORD);
  const policy = await api.put('/v1/policy', {
    docs: [
      {
        name: 'zz-console-test',
        for_version: 0,
        text: `on job::${team} { if (auth_server@platform->name == "${viewer}") { permit read } }\non auth::/ { if (auth_server@platform->name == "${brief}") { tokenTimeout "4s" } }\n`,
      },
    ],
  });
  t.is(policy.status, 200, policy.text);
  const created = await api.post<Job>('/jobs', { fqn: `job::${team}::web`, num_instances: 1, processes: { app: { start_command: 'sleep 1000' } } });
  t.is(created.status, 200, created.text);
  const job = created.body;
  const browser = await launchBrowser(t, chromium);

  // A wrong password: the API's own message.
  const refused = await new ApiClient(controller.url).post<{ message: string }>('/v1/oauth2/token', undefined, { headers: { authorization: basicAuth(mallory, 'wrong password') } });
  t.is(refused.status, 401);
  const wrong = await browser.page();
  await wrong.page.goto(`${controller.url}/console/`);
  await signIn(wrong.page, mallory, 'wrong password');
  const alert = wrong.page.getByRole('alert');
  await alert.waitFor();
  t.true((await alert.innerText()).startsWith(refused.body.message), await alert.innerText());
  await browser.screenshot(wrong.page, 'sign-in');
  t.deepEqual(unexpected(wrong.errors, [401]), []);

  // The administrator sees the job's actions.
  const admin = await browser.page();
  await admin.page.goto(`${controller.url}/console/#/jobs/${job.uuid}`);
  await signIn(admin.page, 'admin', TEST_ADMIN_PASSWORD);
  const adminActions = admin.page.getByRole('group', { name: 'Job actions' });
  await adminActions.getByRole('button', { name: 'Start' }).waitFor();
  t.true(await adminActions.getByRole('button', { name: 'Scale' }).isVisible());
  t.true(await admin.page.getByRole('button', { name: 'Edit' }).isVisible(), 'the environment can be edited');
  // A route and a log drain added from the page, the drain removed again.
  await admin.page.getByLabel('HTTP endpoint').fill(`web-${viewer}.localhost`);
  await admin.page.getByRole('button', { name: 'Add route' }).click();
  await admin.page.getByRole('table', { name: 'Routes' }).getByText(`web-${viewer}.localhost`).waitFor();
  t.deepEqual(
    (await api.get<Job>(`/jobs/${job.uuid}`)).body.ports.flatMap((p) => (p.routes ?? []).map((r) => r.endpoint)),
    [`web-${viewer}.localhost`],
  );
  // And removed again.
  const routesTable = admin.page.getByRole('table', { name: 'Routes' });
  await routesTable.getByRole('button', { name: 'Remove' }).click();
  await routesTable.getByText('No routes.').waitFor();
  t.deepEqual((await api.get<Job>(`/jobs/${job.uuid}`)).body.ports.flatMap((p) => (p.routes ?? []).map((r) => r.endpoint)), []);
  await admin.page.getByLabel('Drain URL').fill('syslog://127.0.0.1:5140');
  await admin.page.getByRole('button', { name: 'Add drain' }).click();
  const drains = admin.page.getByRole('table', { name: 'Drains' });
  await drains.getByText('syslog://127.0.0.1:5140').waitFor();
  t.is((await api.get<unknown[]>(`/jobs/${job.uuid}/logs/drains`)).body.length, 1);
  await drains.getByRole('button', { name: 'Remove' }).click();
  await drains.getByText('No drains.').waitFor();
  t.is((await api.get<unknown[]>(`/jobs/${job.uuid}/logs/drains`)).body.length, 0);
  // A policy document with a syntax error: refused, the error shown at its line and column.
  await admin.page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Policy' }).click();
  await admin.page.getByRole('button', { name: 'zz-console-test' }).click();
  const text = admin.page.getByRole('textbox', { name: 'Text of policy zz-console-test' });
  await eventually(async () => (await text.inputValue()).includes(viewer), { what: 'the document in the editor' });
  await text.fill(`${await text.inputValue()}on job::/oops permit read\n`);
  await admin.page.getByRole('button', { name: 'Save' }).click();
  const policyError = admin.page.getByTestId('policy-error');
  await policyError.waitFor();
  t.regex(await policyError.innerText(), /^Line 3, column 15: policy "zz-console-test" line 3, column 15: expected "\{"/);
  t.is(await admin.page.locator('.gutter .bad-line').innerText(), '3');
  await browser.screenshot(admin.page, 'policy-error');
  t.is((await api.get<{ version: string }>('/v1/policy/zz-console-test')).body.version, '1', 'nothing was written');
  t.deepEqual(unexpected(admin.errors, [400]), []);

  // The viewer: the job, its settings and log, and no button for what policy does not give.
  const view = await browser.page();
  await view.page.goto(`${controller.url}/console/#/jobs/${job.uuid}`);
  // The page's question about this job: its buttons follow the answer.
  const permissions = view.page.waitForResponse((r) => r.url().includes('/v1/permissions?') && decodeURIComponent(r.url()).includes(`job::${team}::web`));
  await signIn(view.page, viewer, PASSWORD);
  await view.page.getByRole('heading', { name: /^web/ }).waitFor();
  await view.page.getByRole('heading', { name: 'Settings' }).waitFor();
  t.deepEqual(await (await permissions).json(), { [`job::${team}::web`]: ['read'] });
  await view.page.getByTestId('log-status').getByText('live').waitFor();
  const actions = view.page.getByRole('group', { name: 'Job actions' });
  for (const label of ['Start', 'Stop', 'Restart', 'Scale', 'Delete…']) t.is(await actions.getByRole('button', { name: label }).count(), 0, `no ${label} button`);
  t.is(await view.page.getByRole('button', { name: 'Edit' }).count(), 0, 'no Edit of the environment');
  t.is(await view.page.getByRole('button', { name: 'Add route' }).count(), 0);
  const nav = view.page.getByRole('navigation', { name: 'Console' });
  for (const hidden of ['Audit log', 'Policy', 'Users', 'Instance managers']) t.is(await nav.getByRole('link', { name: hidden }).count(), 0, `no ${hidden} in the navigation`);
  await browser.screenshot(view.page, 'job-read-only');
  // Trying anyway, from the page with the viewer's own token: the API refuses.
  const token = (await new ApiClient(controller.url).post<{ access_token: string }>('/v1/oauth2/token', undefined, { headers: { authorization: basicAuth(viewer, PASSWORD) } })).body.access_token;
  const attempt = await view.page.evaluate(
    async ({ uuid, token }) => {
      const res = await fetch(`/v1/jobs/${uuid}`, { method: 'PATCH', headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/merge-patch+json' }, body: JSON.stringify({ state: 'started' }) });
      return { status: res.status, body: (await res.json()) as { missing_claims?: string[] } };
    },
    { uuid: job.uuid, token },
  );
  t.is(attempt.status, 403);
  t.deepEqual(attempt.body.missing_claims, [`permit update on job::${team}::web`]);
  t.is((await api.get<Job>(`/jobs/${job.uuid}`)).body.state, job.state, 'nothing changed');
  t.deepEqual(unexpected(view.errors, [403]), []);

  // A session whose token expires (policy gives this user 4 s) ends at the sign-in, with a message.
  const short = await browser.page();
  await short.page.goto(`${controller.url}/console/`);
  // With the keyboard alone: the user name has the focus first, Tab moves on, Enter signs in.
  await short.page.keyboard.press('Tab');
  t.true(await short.page.getByLabel('User name').evaluate((el) => el.matches(':focus')), 'the user name has the focus');
  await short.page.keyboard.type(brief);
  await short.page.keyboard.press('Tab');
  await short.page.keyboard.type(PASSWORD);
  await short.page.keyboard.press('Enter');
  await short.page.getByRole('heading', { name: 'Apps & jobs' }).waitFor();
  const status = short.page.getByRole('status');
  await status.waitFor({ timeout: 20_000 });
  t.regex(await status.innerText(), /expired/);
  t.true(await short.page.getByRole('button', { name: 'Sign in' }).isVisible());
  t.deepEqual(unexpected(short.errors, [401]), []);
});
