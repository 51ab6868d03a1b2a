/**
 * The "Bind a database" section of docs/api.md (README points to it), run as a user runs it: the walk-through's set-up block,
 * then every `sh` block of the section, verbatim and in order, in one bash, against a real
 * controller and agent, with a real PostgreSQL (initdb in a temporary directory) as the server.
 */
import { spawn, spawnSync } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import test from 'ava';
import { findPgBin, startPostgres, whenInstalled } from '@platform/gateway-sdk/test-servers';
import { AgentProcess } from '../harness/agent-process.js';
import { FAST_AGENT_TIMING, testIsolation } from '../harness/cluster.js';
import { ControllerProcess, TEST_ADMIN_PASSWORD } from '../harness/controller-process.js';
import { shellBlocks } from '../harness/readme.js';

const REPO = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const tools = ['bash', 'curl', 'jq', 'tar', 'sha256sum', 'psql'].filter((tool) => spawnSync('sh', ['-c', `command -v ${tool}`]).status !== 0);

whenInstalled(findPgBin() !== undefined && tools.length === 0, `postgresql${tools.length ? ` and ${tools.join(', ')}` : ''}`, register, (title, fn) => test(title, (t) => fn(t)));

function register(): void {
  test('README: "Bind a database" runs verbatim: the app counts its visits in its own database, unbinding and cleaning up leave nothing', async (t) => {
    t.timeout(5 * 60_000);
    const pg = await startPostgres();
    t.teardown(() => pg.stop());
    // As the section says: a server on loopback is listed for providers to name it.
    const controller = await ControllerProcess.start({ env: FAST_AGENT_TIMING, allowedDestinations: [new URL(pg.url).host] });
    t.teardown(() => controller.dispose());
    const api = await controller.admin();
    const agent = await AgentProcess.start(controller, api, { isolation: testIsolation(t) });
    t.teardown(() => agent.dispose());

    // The walk-through and this section live in docs/api.md (README's quick start uses the platform command).
    const readme = await readFile(join(REPO, 'docs', 'api.md'), 'utf8');
    const setup = shellBlocks(readme, 'Run an app')[0]!;
    const blocks = shellBlocks(readme, 'Bind a database');
    t.is(blocks.length, 6, 'the set-up block, then one block per step 1 to 5');
    const script = [setup, ...blocks].map((b, i) => `echo '::block ${i}::'\n${b}`).join('\n');
    const env = { ...process.env, PLATFORM_LISTEN: new URL(controller.url).host, PLATFORM_ADMIN_PASSWORD: TEST_ADMIN_PASSWORD, PG_ADMIN_URL: pg.url };
    const bash = spawn('bash', ['-c', script], { cwd: REPO, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    bash.stdout.on('data', (d: Buffer) => (out += d.toString('utf8')));
    bash.stderr.on('data', (d: Buffer) => (err += d.toString('utf8')));
    const killer = setTimeout(() => bash.kill('SIGKILL'), 240_000);
    const code = await new Promise<number | null>((resolve) => bash.once('close', resolve));
    clearTimeout(killer);
    t.log(out);
    if (err) t.log(err);
    t.is(code, 0);
    const block = (i: number) => out.slice(out.indexOf(`::block ${i}::`), out.indexOf(`::block ${i + 1}::`) < 0 ? undefined : out.indexOf(`::block ${i + 1}::`));
    t.regex(block(2), /"type":"postgres","tier":3/);
    t.regex(block(3), /"url":"postgres:\/\/admin:\*\*\*@127\.0\.0\.1:\d+\/postgres"/);
    t.regex(block(3), /"fqn":"service::\/sandbox\/admin::orders","type":"postgres","name":"orders"/);
    t.regex(block(5), /"env_var":\["ORDERS_URI","[0-9A-F]{32}_URI"\]/);
    t.regex(block(5), /visits: 1\s+visits: 2/);
    const psql = (sql: string) => spawnSync('psql', [pg.url, '-tAc', sql], { encoding: 'utf8' }).stdout.trim();
    t.is(psql("SELECT count(*) FROM pg_database WHERE datname = 'orders'"), '0', 'the database is dropped');
    t.is(psql("SELECT count(*) FROM pg_roles WHERE rolname LIKE 'orders%'"), '0', 'and its roles');
  });
}
