/**
 * The built-in PostgreSQL and Redis gateway jobs end to end: a real controller and agent, the
 * gateway jobs started and promoted, a real PostgreSQL (initdb in a temporary directory) and a
 * real Redis 7 on loopback ports as providers, and an app staged by the nodejs pipeline that
 * answers HTTP by querying its services through the *_URI variables (with psql and redis-cli).
 * The gateway job is restarted between bind and unbind: its state comes back in the headers.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import test, { type ExecutionContext } from 'ava';
import type { Job, Package, StagingPipeline } from '@platform/controller';
import { archiveOf } from '@platform/stager-sdk/testkit';
import { findPgBin, hasRedisServer, startPostgres, startRedis, whenInstalled, type TestServer } from '@platform/gateway-sdk/test-servers';
import { AgentProcess } from '../harness/agent-process.js';
import { FAST_AGENT_TIMING, instancesOf, runningInstances, testIsolation, type ApiInstance } from '../harness/cluster.js';
import { ControllerProcess } from '../harness/controller-process.js';
import { digestOf, unique } from '../harness/fixtures.js';
import type { ApiClient } from '../harness/http.js';
import { rawPut } from '../harness/upload.js';
import { eventually } from '../harness/wait.js';

/** Queries its services with the command-line clients, through the variables its bindings give it. */
const APP = `
const http = require('node:http');
const { execFileSync } = require('node:child_process');
const run = (cmd, args) => execFileSync(cmd, args, { encoding: 'utf8', timeout: 10000 }).trim();
http.createServer((req, res) => {
  try {
    let out;
    if (req.url === '/pg') {
      out = run('psql', [process.env.ORDERS_URI, '-qtAc', "CREATE TABLE IF NOT EXISTS hits (n int); INSERT INTO hits VALUES (1); SELECT current_database() || ' ' || session_user || ' ' || count(*) FROM hits"]);
    } else if (req.url === '/redis') {
      out = run('redis-cli', ['--no-auth-warning', '-u', process.env.CACHE_URI, 'INCR', 'cache:hits']);
    } else {
      out = JSON.stringify({ ORDERS_URI: !!process.env.ORDERS_URI, CACHE_URI: !!process.env.CACHE_URI });
    }
    res.end(out);
  } catch (err) {
    res.statusCode = 500;
    res.end(String(err.stderr || err.message));
  }
}).listen(Number(process.env.PORT));
`;

const hasProgram = (name: string) => spawnSync('sh', ['-c', `command -v ${name}`]).status === 0;
const available = findPgBin() !== undefined && hasRedisServer() && hasProgram('psql') && hasProgram('redis-cli');

interface Fixture {
  controller: ControllerProcess;
  agent: AgentProcess;
  api: ApiClient;
  pg: TestServer;
  redis: TestServer;
}
let fx: Fixture | undefined;

whenInstalled(available, 'postgresql, postgresql-client, redis-server and redis-tools', register, (title, fn) => test(title, (t) => fn(t)));

function register(): void {
  test.before(async (t) => {
    const pg = await startPostgres();
    const redis = await startRedis().catch(async (err: unknown) => {
      await pg.stop();
      throw err;
    });
    // The providers' back-ends are on loopback, which providers may name only when listed.
    const listed = [pg, redis].map((server) => new URL(server.url).host);
    const controller = await ControllerProcess.start({ env: FAST_AGENT_TIMING, allowedDestinations: listed }).catch(async (err: unknown) => {
      await Promise.all([pg.stop(), redis.stop()]);
      throw err;
    });
    fx = { controller, pg, redis, api: await controller.admin(), agent: undefined as unknown as AgentProcess };
    fx.agent = await AgentProcess.start(controller, fx.api, { isolation: testIsolation(t) });
  });
  test.after.always(async () => {
    await fx?.agent?.dispose();
    await fx?.controller.dispose();
    await Promise.all([fx?.pg.stop(), fx?.redis.stop()]);
  });

  test.serial('services: a provider naming an address the destination rule refuses is refused with 400 before the gateway is asked or its job opened: the API port, an unlisted loopback port, the metadata address', async (t) => {
    t.timeout(3 * 60_000);
    const { api, controller, pg } = fx!;
    const ns = `/e2e/${unique()}`;
    await promote(t, 'postgres');
    const apiPort = new URL(controller.url).port;
    const pgPort = Number(new URL(pg.url).port);
    const cases: [string, RegExp, string][] = [
      // Listed loopback does not cover the controller's own sockets: only an entry with the port does.
      [`postgres://admin:pw@127.0.0.1:${apiPort}/x`, new RegExp(`^parameters\\.url: provider urls may not reach 127\\.0\\.0\\.1:${apiPort}: 127\\.0\\.0\\.1 is a port the platform itself listens on`), 'own-listener'],
      [`postgres://admin:pw@localhost:${pgPort + 1}/x`, /^parameters\.url: provider urls may not reach 127\.0\.0\.1:\d+: 127\.0\.0\.1 is a loopback address \(an operator allows it by listing it in --allowed-destinations/, 'loopback'],
      ['postgres://admin:pw@169.254.169.254:5432/x', /^parameters\.url: provider urls may not reach 169\.254\.169\.254:5432/, 'link-local'],
    ];
    for (const [url, message, refusal] of cases) {
      const refused = await api.post<{ code: string; message: string; error_details?: Record<string, unknown> }>('/providers', { fqn: `provider::${ns}::bad`, type: 'postgres', parameters: { url } });
      t.is(refused.status, 400, refused.text);
      t.regex(refused.body.message, message, url);
      t.is(refused.body.error_details?.['refusal'], refusal, url);
    }
    t.false((await api.get<{ fqn: string }[]>('/providers')).body.some((p) => p.fqn === `provider::${ns}::bad`), 'nothing recorded');
    // The gateway's job was never opened to them (the agent logs each change of its openings).
    const openings = fx!.agent.lines.filter((l) => l['msg'] === 'outbound openings of a job').map((l) => JSON.stringify(l['endpoints'] ?? []));
    t.false(openings.some((e) => e.includes(`:${apiPort}"`) || e.includes('169.254.169.254') || e.includes(`:${pgPort + 1}"`)), openings.join('\n'));
    // The listed back-end is accepted.
    const ok = await api.post<{ uuid: string }>('/providers', { fqn: `provider::${ns}::ok`, type: 'postgres', parameters: { url: pg.url } });
    t.is(ok.status, 200, ok.text);
    t.is((await api.delete(`/providers/${ok.body.uuid}?force=true`)).status, 200);
    t.is((await api.delete('/gateways/postgres?force=true')).status, 200);
  });

  test.serial('services: the built-in PostgreSQL gateway end to end: bind, query through ORDERS_URI, the gateway restarts, unbind drops the role', async (t) => {
    t.timeout(5 * 60_000);
    const { api, pg } = fx!;
    const ns = `/e2e/${unique()}`;
    await promote(t, 'postgres');
    // A bwrap agent run by root gives its instances networks of their own by default: the gateway
    // reaches the provider's back-end on the host's loopback only because the provider names it.
    if (testIsolation(t) === 'bwrap' && process.getuid?.() === 0) {
      const managers = (await api.get<{ uuid: string; system_tags: string[] }[]>('/instance_managers')).body;
      t.true(managers.find((m) => m.uuid === fx!.agent.uuid)!.system_tags.includes('instance-network:own'));
    }
    const provider = await api.post<{ fqn: string }>('/providers', { fqn: `provider::${ns}::pg`, type: 'postgres', parameters: { url: pg.url } });
    t.is(provider.status, 200, provider.text);
    const database = `orders_${unique().toLowerCase().replace(/[^a-z0-9]/g, '')}`.slice(0, 40);
    const service = await api.post<{ fqn: string }>('/services', { fqn: `service::${ns}::orders`, provider_fqn: provider.body.fqn, parameters: { database } });
    t.is(service.status, 200, service.text);
    const app = await deployApp(t, ns);

    const bound = await api.post<{ uuid: string }>('/bindings', { job_fqn: app.fqn, service_fqn: service.body.fqn, name: 'orders' });
    t.is(bound.status, 200, bound.text);
    const answer = await eventually(async () => {
      const [i] = await runningOf(api, app.uuid);
      const r = i && (await fetch(`http://${i.ports['0']}/pg`));
      return r?.status === 200 && (await r.text());
    }, { timeoutMs: 120_000, what: 'the app answering from PostgreSQL' });
    const [db, role, count] = answer.split(' ');
    t.is(db, database);
    t.regex(role!, new RegExp(`^${database}_[a-z0-9]{10}$`), 'a role of its own');
    t.is(count, '1');
    t.is(psql(pg.url, `SELECT count(*) FROM pg_roles WHERE rolname = '${role}'`), '1');

    await restartGateway(t, 'postgres');
    const unbound = await api.post('/unbind', { job: app.fqn, service: service.body.fqn });
    t.is(unbound.status, 200, unbound.text);
    t.is(psql(pg.url, `SELECT count(*) FROM pg_roles WHERE rolname = '${role}'`), '0', 'the role is dropped (the gateway learnt it from the headers)');
    await eventually(async () => {
      const [i] = await runningOf(api, app.uuid);
      return i && (await (await fetch(`http://${i.ports['0']}/env`)).json() as { ORDERS_URI: boolean }).ORDERS_URI === false;
    }, { timeoutMs: 120_000, what: 'an instance without ORDERS_URI' });
    t.is((await api.delete(`/services/${(await byFqn(api, '/services', service.body.fqn)).uuid}`)).status, 200);
    t.is(psql(pg.url, `SELECT count(*) FROM pg_database WHERE datname = '${database}'`), '0');
    await cleanUp(api, app, 'postgres');
  });

  test.serial('services: the built-in Redis gateway end to end: bind, INCR through CACHE_URI, the gateway restarts, unbind removes the ACL user', async (t) => {
    t.timeout(5 * 60_000);
    const { api, redis } = fx!;
    const ns = `/e2e/${unique()}`;
    await promote(t, 'redis');
    const provider = await api.post<{ fqn: string }>('/providers', { fqn: `provider::${ns}::kv`, type: 'redis', parameters: { url: redis.url } });
    t.is(provider.status, 200, provider.text);
    const service = await api.post<{ fqn: string }>('/services', { fqn: `service::${ns}::cache`, provider_fqn: provider.body.fqn, parameters: { prefix: 'cache', db: '2' } });
    t.is(service.status, 200, service.text);
    const app = await deployApp(t, ns);
    t.is((await api.post('/bindings', { job_fqn: app.fqn, service_fqn: service.body.fqn, name: 'cache' })).status, 200);
    const first = await eventually(async () => {
      const [i] = await runningOf(api, app.uuid);
      const r = i && (await fetch(`http://${i.ports['0']}/redis`));
      return r?.status === 200 && (await r.text());
    }, { timeoutMs: 120_000, what: 'the app answering from Redis' });
    t.is(first, '1');
    const users = () => redisCli(redis.url, 'ACL', 'USERS').split('\n').filter((u) => u !== 'default' && u !== 'admin' && u !== '');
    t.is(users().length, 1, users().join(','));
    t.is(redisCli(redis.url, '-n', '2', 'GET', 'cache:hits'), '1', 'in the service\'s database, under its prefix');

    await restartGateway(t, 'redis');
    t.is((await api.post('/unbind', { job: app.fqn, service: service.body.fqn })).status, 200);
    t.deepEqual(users(), [], 'the ACL user is gone');
    await eventually(async () => {
      const [i] = await runningOf(api, app.uuid);
      return i && (await (await fetch(`http://${i.ports['0']}/env`)).json() as { CACHE_URI: boolean }).CACHE_URI === false;
    }, { timeoutMs: 120_000, what: 'an instance without CACHE_URI' });
    t.is((await api.delete(`/services/${(await byFqn(api, '/services', service.body.fqn)).uuid}`)).status, 200);
    t.is(redisCli(redis.url, '-n', '2', 'EXISTS', 'cache:hits'), '0', 'the service\'s keys are gone');
    await cleanUp(api, app, 'redis');
  });
}

function psql(url: string, sql: string): string {
  return execFileSync('psql', [url, '-tAc', sql], { encoding: 'utf8' }).trim();
}

/** redis-cli as the admin of the provider's url (`redis://:password@host:port`). */
function redisCli(url: string, ...args: string[]): string {
  const u = new URL(url);
  return execFileSync('redis-cli', ['--no-auth-warning', '-h', u.hostname, '-p', u.port, '-a', decodeURIComponent(u.password), ...args], { encoding: 'utf8' }).trim();
}

async function byFqn(api: ApiClient, path: string, fqn: string): Promise<{ uuid: string }> {
  return (await api.get<{ uuid: string; fqn: string }[]>(path)).body.find((x) => x.fqn === fqn)!;
}

async function runningOf(api: ApiClient, job: string): Promise<ApiInstance[]> {
  return (await instancesOf(api, job)).filter((i) => i.state === 'RUNNING');
}

/** Starts the built-in gateway job of `type` and promotes it. */
async function promote(t: ExecutionContext, type: string): Promise<Job> {
  const { api } = fx!;
  const [job] = (await api.get<Job[]>(`/jobs?fqn=job::/platform/gateways::${type}`)).body;
  t.truthy(job, `the built-in job job::/platform/gateways::${type}`);
  t.is((await api.patch(`/jobs/${job!.uuid}`, { state: 'started' })).status, 200);
  await runningInstances(api, job!.uuid, 1, 90_000);
  const r = await api.post<{ tier: number }>('/gateways', { job_fqn: job!.fqn, type });
  t.is(r.status, 200, r.text);
  t.is(r.body.tier, 3);
  return job!;
}

/** Stops the gateway's instance; the restart policy starts another (on another port). */
async function restartGateway(t: ExecutionContext, type: string): Promise<void> {
  const { api } = fx!;
  const [job] = (await api.get<Job[]>(`/jobs?fqn=job::/platform/gateways::${type}`)).body;
  const [old] = await runningInstances(api, job!.uuid, 1);
  t.is((await api.delete(`/jobs/${job!.uuid}/instances/${old!.uuid}`)).status, 200);
  await eventually(async () => {
    const running = await runningOf(api, job!.uuid);
    return running.length === 1 && running[0]!.uuid !== old!.uuid;
  }, { timeoutMs: 60_000, what: 'the gateway restarted' });
}

/** The app, staged by the built-in nodejs pipeline, started. */
async function deployApp(t: ExecutionContext, ns: string): Promise<Job> {
  const { api } = fx!;
  const [pipeline] = (await api.get<StagingPipeline[]>('/stagingpipelines?fqn=stagpipe::/platform::nodejs')).body;
  const data = await archiveOf({ 'app/server.js': APP });
  const created = await api.post<Package>('/packages', { fqn: `package::${ns}::app`, resource: { length: data.length, digest: digestOf(data) }, staging_pipeline: { uuid: pipeline!.uuid } });
  t.is(created.status, 200, created.text);
  const up = await rawPut(`${api.base}/packages/resources/${created.body.uuid}`, [data], data.length, api.defaultHeaders);
  t.is(up.status, 200);
  await eventually(async () => (await api.get<Package>(`/packages/${created.body.uuid}`)).body.state === 'ready', { timeoutMs: 120_000, what: 'the app staged' });
  const job = await api.post<Job>('/jobs', {
    fqn: `job::${ns}::app`,
    packages: [{ uuid: created.body.uuid }],
    ports: [{ number: 0, optional: false }],
    resources: { memory: 128 * 1024 * 1024, disk: 256 * 1024 * 1024 },
    state: 'started',
  });
  t.is(job.status, 200, job.text);
  return job.body;
}

async function cleanUp(api: ApiClient, app: Job, type: string): Promise<void> {
  await api.delete(`/jobs/${app.uuid}`);
  for (const p of (await api.get<{ uuid: string; type: string }[]>('/providers')).body.filter((x) => x.type === type)) await api.delete(`/providers/${p.uuid}?force=true`);
  await api.delete(`/gateways/${type}?force=true`);
  const [job] = (await api.get<Job[]>(`/jobs?fqn=job::/platform/gateways::${type}`)).body;
  await api.patch(`/jobs/${job!.uuid}`, { state: 'stopped' });
}
