import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import test, { type ExecutionContext } from 'ava';
import { serveGateway, type GatewayDefinition } from '@platform/gateway-sdk';
import { DestinationPolicy, parseAllowList, type LogFields, type Logger } from '@platform/proto/common';
import type { ChangeContext } from '../context.js';
import { JobService } from '../jobs/job-service.js';
import type { InstanceRecord } from '../model/instance.js';
import type { ReferenceCheck } from '../policy/references.js';
import { testDeps, testDestinations } from '../scheduler/cluster.test-fixture.js';
import { keys } from '../store/keys.js';
import { MemoryStore } from '../store/memory-store.js';
import type { BatchOp } from '../store/store.js';
import { UnavailableError } from '../errors.js';
import { ServiceCatalog, type OrphanKind, type OrphanOutcome } from './catalog.js';
import { parseProvider, parseService } from './service-model.js';

/** The in-memory store, whose next batch can be made to fail (a full disk, a closing store). */
class FailingStore extends MemoryStore {
  failNext = false;
  override async batch(ops: readonly BatchOp[]): Promise<void> {
    if (this.failNext) {
      this.failNext = false;
      throw new Error('the store refused the batch');
    }
    return super.batch(ops);
  }
}

const ctx: ChangeContext = { principal: 'admin@test', requestId: 'r1' };
const GATEWAY_JOB = '00000000-0000-4000-8000-00000000aaaa';

/** A logger that keeps its lines. */
function keptLog(lines: { level: string; msg: string; fields: LogFields }[] = []): Logger & { lines: typeof lines } {
  const at = (level: string) => (msg: string, fields: LogFields = {}) => void lines.push({ level, msg, fields });
  const log: Logger & { lines: typeof lines } = { lines, debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error'), child: () => log, isLevelEnabled: () => true, flush: () => {} };
  return log;
}

/** A catalog whose gateway is served on loopback by `port`, promoted to type kv; what it counts as orphans is kept. */
async function catalogOn(port: number, store = new FailingStore(), options: { gatewayTimeoutMs?: number; gatewayLateAnswerMs?: number; reach?: (job: string) => Promise<void>; destinations?: DestinationPolicy } = {}) {
  const deps = { ...testDeps(undefined, store), log: keptLog() };
  const jobs = new JobService(deps, { actorIdleMs: 60_000, cacheSize: 10, packageStates: async () => new Map(), destinations: testDestinations() });
  const instance = { uuid: 'i1', job_uuid: GATEWAY_JOB, state: 'RUNNING', ports: { '0': `127.0.0.1:${port}` } } as unknown as InstanceRecord;
  const trusted: ReferenceCheck = { resolve: async (refs) => refs.map((r) => ({ uuid: r.type === 'job' ? GATEWAY_JOB : (r.uuid ?? ''), fqn: r.fqn ?? '' })) };
  const orphans: [string, OrphanKind, OrphanOutcome][] = [];
  const catalog = new ServiceCatalog(deps, jobs, {
    gatewayTimeoutMs: options.gatewayTimeoutMs ?? 5000,
    gatewayLateAnswerMs: options.gatewayLateAnswerMs ?? 0,
    instancesOf: (job) => (job === GATEWAY_JOB ? [instance] : []),
    trusted,
    onOrphan: (type, kind, outcome) => void orphans.push([type, kind, outcome]),
    ...(options.reach ? { reach: options.reach } : {}),
    ...(options.destinations ? { destinations: options.destinations } : {}),
  });
  await catalog.promote({ jobFqn: 'job::/t::gw', type: 'kv' }, ctx, trusted);
  return { catalog, trusted, orphans, log: deps.log };
}

/** A real gateway (the SDK's server on loopback) that counts what it made and has not deleted. */
async function setup(t: ExecutionContext) {
  const live = new Set<string>();
  const def: GatewayDefinition<{ id: string }, { id: string }, { id: string }> = {
    providers: {
      create: async () => { const id = `p${live.size}`; live.add(id); return { id, state: { id } }; },
      delete: async (p) => void live.delete(p.id),
    },
    services: {
      create: async () => { const id = `s${live.size}`; live.add(id); return { id, state: { id } }; },
      delete: async (s) => void live.delete(s.id),
    },
    bindings: {
      create: async () => { const id = `b${live.size}`; live.add(id); return { id, url: 'x://h:1/', protocol: { scheme: 'x' }, state: { id } }; },
      delete: async (b) => void live.delete(b.id),
    },
  };
  const server = await serveGateway(def, { host: '127.0.0.1', port: 0 });
  t.teardown(() => server.stop(0));
  const store = new FailingStore();
  return { live, store, ...(await catalogOn(server.port, store)) };
}

test('catalog: a provider the store cannot record is deleted at the gateway again; nothing is kept', async (t) => {
  const { live, store, catalog, trusted, orphans } = await setup(t);
  store.failNext = true;
  await t.throwsAsync(catalog.createProvider(parseProvider({ fqn: 'provider::/t::p', type: 'kv', parameters: { url: 'x://admin@h' } }), ctx, trusted), { message: /refused the batch/ });
  t.deepEqual([...live], [], 'the gateway deleted what it made');
  t.deepEqual(catalog.providers(), []);
  t.deepEqual(orphans, [['kv', 'provider', 'deleted']]);
  const p = await catalog.createProvider(parseProvider({ fqn: 'provider::/t::p', type: 'kv', parameters: { url: 'x://admin@h' } }), ctx, trusted);
  t.is(live.size, 1, 'the same request succeeds once the store does');
  t.truthy(p.state, 'the provider state is kept');
});

test('catalog: a service the store cannot record is deleted at the gateway again (with the states it was made with)', async (t) => {
  const { live, store, catalog, trusted } = await setup(t);
  const p = await catalog.createProvider(parseProvider({ fqn: 'provider::/t::p', type: 'kv', parameters: { url: 'x://admin@h' } }), ctx, trusted);
  const refs: ReferenceCheck = { resolve: async () => [{ uuid: p.uuid, fqn: p.fqn }] };
  store.failNext = true;
  await t.throwsAsync(catalog.createService(parseService({ fqn: 'service::/t::s', provider_fqn: p.fqn }), ctx, refs), { message: /refused the batch/ });
  t.deepEqual([...live], [p.gateway_id]);
  t.deepEqual(catalog.services(), []);
  await catalog.createService(parseService({ fqn: 'service::/t::s', provider_fqn: p.fqn }), ctx, refs);
  t.is(catalog.services().length, 1);
  t.is(live.size, 2);
});

test('catalog: stop() ends the waits for the late answers of creates that timed out: each is logged and counted unknown', async (t) => {
  // A gateway that describes itself and never answers a create. The timeout bounds its
  // description too: long enough for a loaded machine to answer that on loopback.
  const server = createServer((req, res) => {
    if (req.method === 'GET') {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify({ '/providers': { POST: {} }, '/providers/:id': { DELETE: {} }, '/services': { POST: {} }, '/services/:id': { DELETE: {} }, '/bindings': { POST: {} }, '/bindings/:id': { DELETE: {} } }));
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve()))));
  const { catalog, trusted, orphans, log } = await catalogOn((server.address() as AddressInfo).port, undefined, { gatewayTimeoutMs: 1_500, gatewayLateAnswerMs: 600_000 });
  const err = await t.throwsAsync(catalog.createProvider(parseProvider({ fqn: 'provider::/t::p', type: 'kv', parameters: { url: 'x://admin@h' } }), ctx, trusted), { instanceOf: UnavailableError });
  t.like(err.details, { failure: 'timeout', orphan: 'pending' });
  t.regex(err.message, /if it answers later, the provider it may have made is deleted again/);
  t.deepEqual(orphans, [], 'still waiting');
  await catalog.stop();
  t.deepEqual(orphans, [['kv', 'provider', 'unknown']]);
  const line = log.lines.find((l) => l.level === 'error' && l.fields['kind'] === 'provider');
  t.like(line?.fields, { gateway: 'kv', gateway_job: 'job::/t::gw', request_id: 'r1' });
  t.regex(line!.msg, /may have made a provider \(no answer came\)/);
  t.deepEqual(catalog.providers(), []);
});

test('catalog: a gateway job reaches the back-end a provider names before it is asked to create it, and no longer when it is not created or is deleted', async (t) => {
  // What the gateway job reached (as the agents were told: reach) when the gateway was asked.
  const reached: string[][] = [];
  let seenAtCreate: string[] | undefined;
  const late: { catalog?: ServiceCatalog } = {};
  const def: GatewayDefinition<{ id: string }, { id: string }, { id: string }> = {
    providers: {
      create: async (req) => {
        seenAtCreate = reached.at(-1);
        if ((req.params as { url?: string }).url?.includes('refused')) throw Object.assign(new Error('cannot connect'), { status: 400 });
        return { id: 'p1', state: { id: 'p1' } };
      },
      delete: async () => {},
    },
    services: { create: async () => ({ id: 's', state: { id: 's' } }), delete: async () => {} },
    bindings: { create: async () => ({ id: 'b', url: 'x://h:1/', protocol: { scheme: 'x' }, state: { id: 'b' } }), delete: async () => {} },
  };
  const server = await serveGateway(def, { host: '127.0.0.1', port: 0 });
  t.teardown(() => server.stop(0));
  const reach = async (job: string) => {
    t.is(job, GATEWAY_JOB);
    reached.push(late.catalog!.gatewayEndpoints(job));
  };
  const on = await catalogOn(server.port, new FailingStore(), { reach });
  const catalog = on.catalog;
  late.catalog = catalog;

  const p = await catalog.createProvider(parseProvider({ fqn: 'provider::/t::db', type: 'kv', parameters: { url: 'postgres://admin:pw@127.0.0.1:5433/postgres' } }), ctx, on.trusted);
  t.deepEqual(seenAtCreate, ['127.0.0.1:5433'], 'open before the gateway was asked');
  t.deepEqual(catalog.gatewayEndpoints(GATEWAY_JOB), ['127.0.0.1:5433']);
  t.deepEqual(catalog.endpointsFor({ uuid: GATEWAY_JOB, bindings: {} } as never), ['127.0.0.1:5433'], 'a new instance of the gateway job has it from its start');

  await t.throwsAsync(catalog.createProvider(parseProvider({ fqn: 'provider::/t::bad', type: 'kv', parameters: { url: 'redis://refused.example:6380' } }), ctx, on.trusted));
  t.deepEqual(seenAtCreate, ['127.0.0.1:5433', 'refused.example:6380']);
  t.deepEqual(reached.at(-1), ['127.0.0.1:5433'], 'closed again when not created');

  await catalog.deleteProvider(p.uuid, false, ctx);
  t.deepEqual(reached.at(-1), [], 'closed once the provider is gone');
  t.deepEqual(catalog.gatewayEndpoints('00000000-0000-4000-8000-00000000bbbb'), [], 'another job reaches none of it');
});

test("catalog: a provider's back-ends pass the destination rule before the gateway is asked; no job is opened to a socket of the platform, whoever named it", async (t) => {
  const asked: string[] = [];
  const def: GatewayDefinition<{ id: string }, { id: string }, { id: string }> = {
    providers: { create: async (req) => (asked.push(String((req.params as Record<string, unknown>)['url'])), { id: 'p1', state: { id: 'p1' } }), delete: async () => {} },
    services: { create: async () => ({ id: 's', state: { id: 's' } }), delete: async () => {} },
    bindings: { create: async () => ({ id: 'b', url: 'x://h:1/', protocol: { scheme: 'x' }, state: { id: 'b' } }), delete: async () => {} },
  };
  const server = await serveGateway(def, { host: '127.0.0.1', port: 0 });
  t.teardown(() => server.stop(0));
  // Loopback listed; the controller's API at 127.0.0.1:7000 and an etcd member at 10.0.0.5:2379 are its sockets.
  const destinations = new DestinationPolicy({
    purpose: 'provider urls',
    setting: '--allowed-destinations',
    allow: parseAllowList('127.0.0.1'),
    listeners: () => [{ host: '127.0.0.1', port: 7000 }],
    platformSockets: () => [{ host: '10.0.0.5', port: 2379 }],
  });
  const store = new FailingStore();
  const on = await catalogOn(server.port, store, { destinations });
  for (const [url, refusal] of [['postgres://a@127.0.0.1:7000/x', 'own-listener'], ['redis://10.0.0.5:2379', 'own-listener'], ['http://169.254.169.254/latest', 'link-local'], ['postgres://a@[::1]:5432/x', 'loopback']] as const) {
    const err = await t.throwsAsync(on.catalog.createProvider(parseProvider({ fqn: 'provider::/t::bad', type: 'kv', parameters: { other: 'plain text', url } }), ctx, on.trusted));
    t.is(err?.name, 'InvalidRequestError', url);
    t.regex(err!.message, /^parameters\.url: provider urls may not reach /, url);
    t.is((err as unknown as { details: Record<string, unknown> }).details['refusal'], refusal, url);
  }
  t.deepEqual(asked, [], 'the gateway was never asked');
  const ok = await on.catalog.createProvider(parseProvider({ fqn: 'provider::/t::ok', type: 'kv', parameters: { url: 'postgres://a@127.0.0.1:5432/x' } }), ctx, on.trusted);
  t.deepEqual(asked, ['postgres://a@127.0.0.1:5432/x']);
  t.deepEqual(on.catalog.gatewayEndpoints(GATEWAY_JOB), ['127.0.0.1:5432']);

  // A name that resolves slowly holds back no other change of the type: the next provider is made meanwhile.
  let answer: (addresses: { address: string; family: number }[]) => void = () => {};
  const slowRule = new DestinationPolicy({
    purpose: 'provider urls',
    setting: '--allowed-destinations',
    allow: parseAllowList('127.0.0.1'),
    listeners: () => [],
    resolve: (name) => (name === 'slow.test' ? new Promise((r) => (answer = r)) : Promise.resolve([{ address: '127.0.0.1', family: 4 }])),
  });
  const slow = await catalogOn(server.port, new FailingStore(), { destinations: slowRule });
  const pending = slow.catalog.createProvider(parseProvider({ fqn: 'provider::/t::slow', type: 'kv', parameters: { url: 'postgres://a@slow.test:5432/x' } }), ctx, slow.trusted);
  const quick = await slow.catalog.createProvider(parseProvider({ fqn: 'provider::/t::quick', type: 'kv', parameters: { url: 'postgres://a@127.0.0.1:5433/x' } }), ctx, slow.trusted);
  t.is(quick.fqn, 'provider::/t::quick', 'made while the other name was being resolved');
  answer([{ address: '127.0.0.1', family: 4 }]);
  t.is((await pending).fqn, 'provider::/t::slow');

  // A provider recorded before the rule named the API port and etcd: its gateway's job is not opened to them.
  const old = { ...JSON.parse((await store.get(keys.provider(ok.uuid))) ?? 'null'), uuid: '00000000-0000-4000-8000-0000000000b1', fqn: 'provider::/t::old', parameters: { url: 'postgres://a@127.0.0.1:7000/x', etcd: 'http://10.0.0.5:2379' } };
  t.truthy(old.type, 'the provider record as stored');
  await store.batch([{ type: 'put', key: keys.provider(old.uuid), value: JSON.stringify(old) }]);
  const again = await catalogOn(server.port, store, { destinations });
  await again.catalog.load();
  t.deepEqual(again.catalog.gatewayEndpoints(GATEWAY_JOB), ['127.0.0.1:5432']);
  t.true(again.log.lines.some((l) => l.level === 'warn' && l.msg === 'a job is not opened to a socket of the platform itself' && l.fields['endpoint'] === '127.0.0.1:7000'));
});
