/**
 * The `gateway`, `provider`, `service` and `binding` commands as a user runs them: the built
 * client as a subprocess against a real controller and agent, the built-in Redis gateway job
 * promoted, a real redis-server on a loopback port as the provider, and an app deployed from a
 * directory that shows the CACHE_URI its binding gives it (the url then works with redis-cli),
 * and the GW_URI a link to the gateway job gives it (reaching that job through the agent).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import { hasRedisServer, startRedis, whenInstalled } from '@platform/gateway-sdk/test-servers';
import { Cli, viaRouter } from '../harness/cli.js';
import { startCluster } from '../harness/cluster.js';
import { TEST_ADMIN_PASSWORD } from '../harness/controller-process.js';
import { OpenApiValidator } from '../harness/openapi.js';
import { eventually } from '../harness/wait.js';

const APP = `
const http = require('node:http');
http.createServer((req, res) => res.end(JSON.stringify({ CACHE_URI: process.env.CACHE_URI ?? null, GW_URI: process.env.GW_URI ?? null }))).listen(process.env.PORT);
`;

const hasRedisCli = spawnSync('sh', ['-c', 'command -v redis-cli']).status === 0;

whenInstalled(hasRedisServer() && hasRedisCli, 'redis-server and redis-tools', register, (title, fn) => test(title, (t) => fn(t)));

function register(): void {
  test('cli: gateway promote/list/demote, provider and service create/list/show/delete, binding bind/list/unbind/link/unlink against the Redis gateway: the app sees CACHE_URI and GW_URI', async (t) => {
    t.timeout(6 * 60_000);
    const redis = await startRedis();
    t.teardown(() => redis.stop());
    // The provider's back-end is on loopback, which a provider may name only when listed.
    const cluster = await startCluster(t, [{}], { allowedDestinations: [new URL(redis.url).host] });
    const cli = await Cli.create(t);
    // What `--json` prints is the API's answer: each is checked against the document's schema.
    const validator = await OpenApiValidator.load(cluster.controller.url);
    const answers: [string, string, unknown][] = [];
    const answer = <T>(method: string, path: string, value: T): T => (answers.push([method, path, value]), value);
    await cli.ok(['login', cluster.controller.url, '--user', 'admin', '--password-stdin'], { stdin: `${TEST_ADMIN_PASSWORD}\n` });
    await cli.ok(['target', '--router', cluster.controller.routerAddress]);

    // The built-in gateway job, started and promoted by name.
    const gatewayJob = 'job::/platform/gateways::redis';
    await cli.ok(['job', 'start', gatewayJob]);
    const promoted = await cli.run(['gateway', 'promote', gatewayJob, '--type', 'redis']);
    t.is(promoted.code, 0, promoted.stderr);
    t.regex(promoted.stdout, /job::\/platform\/gateways::redis is the redis gateway \(tier 3\)/);
    const gateways = answer('GET', '/v1/gateways', await cli.json<{ type: string; tier: number; job_fqn: string }[]>(['gateway', 'list']));
    t.like(gateways.find((g) => g.type === 'redis'), { tier: 3, job_fqn: gatewayJob });
    t.regex(await cli.ok(['gateway', 'list']), /^TYPE\s+TIER\s+JOB\s+PARAMETERS\nredis\s+3\s+job::\/platform\/gateways::redis/m);

    // A provider and a service, by short names in the default namespace.
    const provider = answer('POST', '/v1/providers', await cli.json<{ fqn: string; uuid: string; parameters: { url: string } }>(['provider', 'create', 'kv', '--type', 'redis', '--url', redis.url]));
    answer('GET', '/v1/providers', await cli.json(['provider', 'list']));
    t.is(provider.fqn, 'provider::/sandbox/admin::kv');
    t.notRegex(provider.parameters.url, new RegExp(new URL(redis.url).password), 'the password is not shown');
    t.regex(await cli.ok(['provider', 'list']), /provider::\/sandbox\/admin::kv\s+redis\s+redis:\/\/.*\*\*\*/);
    const service = answer('POST', '/v1/services', await cli.json<{ fqn: string; provider_fqn: string }>(['service', 'create', 'cache', '--provider', 'kv', '-p', 'prefix=cache', '-p', 'db=2']));
    answer('GET', '/v1/services', await cli.json(['service', 'list']));
    t.like(service, { fqn: 'service::/sandbox/admin::cache', provider_fqn: provider.fqn });
    t.regex(await cli.ok(['service', 'show', 'cache']), /^provider:\s+provider::\/sandbox\/admin::kv$/m);

    // An app deployed from a directory, then bound: its instance gets CACHE_URI, a working url.
    const dir = await mkdtemp(join(tmpdir(), 'platform-cli-svc-'));
    t.teardown(() => rm(dir, { recursive: true, force: true }));
    await writeFile(join(dir, 'server.js'), APP);
    await writeFile(join(dir, 'package.json'), '{"name":"shop","main":"server.js"}');
    const deployed = await cli.json<{ urls: string[] }>(['app', 'deploy', dir, '--name', 'shop', '--memory', '128M']);
    const url = deployed.urls[0]!;
    /** What an instance of the app answers through the router: the CACHE_URI it has. */
    const shown = async () => JSON.parse((await viaRouter(cluster.controller.routerAddress, url)).text) as { CACHE_URI: string | null; GW_URI: string | null };
    t.deepEqual(await shown(), { CACHE_URI: null, GW_URI: null });

    const bound = await cli.run(['binding', 'bind', 'shop', 'cache']);
    t.is(bound.code, 0, bound.stderr);
    t.regex(bound.stdout, /shop is bound to service::\/sandbox\/admin::cache: CACHE_URI, [0-9A-F]{32}_URI/);
    const bindings = await cli.json<{ name: string; service_fqn: string; env_var: string[] }[]>(['binding', 'list', 'shop']);
    answer('POST', '/v1/bindings', bindings[0]);
    t.deepEqual(answers.flatMap(([method, path, value]) => validator.check(method, path, 200, 'application/json', JSON.stringify(value))), []);
    t.is(bindings.length, 1);
    t.like(bindings[0], { name: 'cache', service_fqn: service.fqn });
    const cacheUri = await eventually(
      async () => (await shown()).CACHE_URI || undefined,
      { timeoutMs: 120_000, what: 'an instance of shop with CACHE_URI' },
    );
    t.regex(cacheUri, /^redis:\/\//);
    t.is(execFileSync('redis-cli', ['--no-auth-warning', '-u', cacheUri, 'INCR', 'cache:hits'], { encoding: 'utf8' }).trim(), '1', 'the url the app got works');

    // Mistakes: a service that does not exist (exit 1), a missing argument (exit 2).
    const missing = await cli.run(['binding', 'bind', 'shop', 'nosuch']);
    t.is(missing.code, 1);
    t.regex(missing.stderr, /no service service::\/sandbox\/admin::nosuch/);
    t.is((await cli.run(['binding', 'bind', 'shop'])).code, 2);
    const busy = await cli.run(['service', 'delete', 'cache']);
    t.is(busy.code, 1, 'refused while shop is bound');
    t.regex(busy.stderr, /HTTP 409, request id /);

    await cli.ok(['binding', 'unbind', 'shop', 'cache']);
    await eventually(async () => (await shown()).CACHE_URI === null, {
      timeoutMs: 120_000,
      what: 'an instance of shop without CACHE_URI',
    });
    t.deepEqual(await cli.json(['binding', 'list', 'shop']), []);

    // A link to another job (the gateway job, on its $PORT): GW_URI reaches its instance.
    const linked = await cli.run(['binding', 'link', 'shop', gatewayJob, '--name', 'gw']);
    t.is(linked.code, 0, linked.stderr);
    t.regex(linked.stdout, /shop is linked to job::\/platform\/gateways::redis: GW_URI, /);
    t.regex(await cli.ok(['binding', 'list', 'shop']), /^gw\s+job [0-9a-f-]{36} port 0\s+GW_URI /m);
    const gwUri = await eventually(async () => (await shown()).GW_URI || undefined, { timeoutMs: 120_000, what: 'an instance of shop with GW_URI' });
    const address = /^tcp:\/\/([\d.]+:\d+)$/.exec(gwUri)?.[1];
    t.truthy(address, gwUri);
    const viaLink = await fetch(`http://${address}/`);
    t.is(viaLink.status, 200, 'the gateway answers its GET / through the link');
    t.truthy(((await viaLink.json()) as Record<string, unknown>)['/providers'], 'the method map of a three-tier gateway');
    await cli.ok(['binding', 'unlink', 'shop', gatewayJob]);
    await eventually(async () => (await shown()).GW_URI === null, { timeoutMs: 120_000, what: 'an instance of shop without GW_URI' });

    await cli.ok(['service', 'delete', 'cache']);
    // What is left is the built-in outbound network service alone.
    t.deepEqual((await cli.json<{ fqn: string }[]>(['service', 'list'])).map((x) => x.fqn), ['service::/platform::outbound-network']);
    await cli.ok(['provider', 'delete', 'kv']);
    t.regex(await cli.ok(['gateway', 'demote', 'redis']), /the redis gateway is demoted/);
    t.false((await cli.json<{ type: string }[]>(['gateway', 'list'])).some((g) => g.type === 'redis'));
  });
}
