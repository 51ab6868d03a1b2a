import test from 'ava';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  BadRequestError,
  createOutcome,
  decodeState,
  encodeState,
  formatBindingUrl,
  GatewayClient,
  GatewayProtocolError,
  GatewayRefusedError,
  GatewayStateError,
  GatewayTimeoutError,
  GatewayUnreachableError,
  MAX_STATE_BYTES,
  NotFoundError,
  paramsOf,
  requiredParams,
  serveGateway,
  tierOf,
  type GatewayDefinition,
  type MethodMap,
} from './index.js';
import { methodMapProblems } from './wire.js';
import { GatewayTestKit } from './testkit.js';

/**
 * A three-tier gateway over a pretend back end (a Map standing for the thing
 * provisioned, so that tests can see what the handlers did). It keeps nothing
 * about the cluster's objects in memory: everything comes back in the state.
 */
function pretend(backend = new Map<string, string>()): GatewayDefinition<{ url: string }, { db: string; url: string }, { user: string }> {
  let users = 0;
  return {
    type: 'pretend',
    providers: {
      params: { url: 'pretend://admin@host:1' },
      create: async (req) => ({ name: req.name ?? 'a provider', state: { url: String(req.params!['url']) } }),
      delete: async () => {},
    },
    services: {
      params: { db: 'app' },
      create: async (req, { provider }) => {
        const db = String(req.params!['db']);
        if (backend.has(`db:${db}`)) throw new BadRequestError(`database ${db} exists`);
        backend.set(`db:${db}`, provider!.id);
        return { state: { db, url: provider!.state.url } };
      },
      delete: async (service) => {
        if (!backend.delete(`db:${service.state.db}`)) throw new NotFoundError(`no database ${service.state.db}`);
      },
    },
    bindings: {
      create: async (_req, { service }) => {
        const user = `u${++users}`;
        backend.set(`user:${user}`, service.state.db);
        return { url: `pretend://${user}:secret@host:0/${service.state.db}`, url_template: 'pretend://{{alphanum 8 | lower}}@host:0/x', protocol: { scheme: 'pretend' }, state: { user } };
      },
      delete: async (binding) => {
        if (!backend.delete(`user:${binding.state.user}`)) throw new NotFoundError(`no user ${binding.state.user}`);
      },
    },
  };
}

test('gateway: GET / derives the method map from the handlers (three tiers with providers, two without)', async (t) => {
  const three = await GatewayTestKit.start(pretend());
  t.teardown(() => three.stop());
  t.is(three.tier, 3);
  t.deepEqual(three.methodMap, {
    '/providers': { POST: { params: { url: 'pretend://admin@host:1' } } },
    '/providers/:id': { DELETE: {} },
    '/services': { POST: { params: { db: 'app' } } },
    '/services/:id': { DELETE: {} },
    '/bindings': { POST: {} },
    '/bindings/:id': { DELETE: {} },
  });
  const { providers: _p, ...twoTier } = pretend();
  const two = await GatewayTestKit.start(twoTier as GatewayDefinition<unknown, unknown, unknown>);
  t.teardown(() => two.stop());
  t.is(two.tier, 2);
  t.deepEqual(Object.keys(two.methodMap), ['/services', '/services/:id', '/bindings', '/bindings/:id']);
  t.is((await two.request('POST', '/providers', { body: { type: 'pretend' } })).status, 404);
});

test('gateway: provider, service and binding are created (201) and deleted (200) with their state round-tripping through a restart', async (t) => {
  const backend = new Map<string, string>();
  const kit = await GatewayTestKit.start(pretend(backend));
  t.teardown(() => kit.stop());
  const provider = await kit.createProvider({ params: { url: 'pretend://admin@h:1' } });
  t.is(provider.status, 201);
  t.is(provider.object.type, 'pretend', 'the type the gateway serves is filled in');
  t.is(provider.object.name, 'a provider');
  t.truthy(provider.object.id);
  const service = await kit.createService({ provider, params: { db: 'shop' }, description: 'the shop' });
  t.is(service.status, 201);
  t.is(service.object.provider_id, provider.object.id);
  t.is(service.object.description, 'the shop');
  t.regex(service.object.name, /^service_[0-9a-z]{10}$/, 'a name is generated when none is given');
  t.deepEqual(kit.stateOf(service), { db: 'shop', url: 'pretend://admin@h:1' });
  const binding = await kit.createBinding({ service, name: 'db' });
  t.is(binding.object.name, 'db');
  t.is(binding.object.service_id, service.object.id);
  t.is(binding.object.url, 'pretend://u1:secret@host:0/shop');
  t.deepEqual(binding.object.protocol, { scheme: 'pretend' });
  t.is(backend.get('user:u1'), 'shop');

  await kit.restart();
  await kit.deleteBinding(binding);
  t.false(backend.has('user:u1'));
  await kit.deleteService(service);
  t.false(backend.has('db:shop'));
  await kit.deleteProvider(provider);
  // The back end no longer has it: the handler's NotFoundError is the caller's 404.
  const again = await t.throwsAsync(kit.deleteBinding(binding), { instanceOf: GatewayRefusedError });
  t.is(again.status, 404);
  t.deepEqual(again.body, { code: 404, message: 'no user u1' });
});

test('gateway: bad bodies and missing required parameters are a 400 in one error shape, before a handler runs', async (t) => {
  const backend = new Map<string, string>();
  const kit = await GatewayTestKit.start(pretend(backend));
  t.teardown(() => kit.stop());
  const provider = await kit.createProvider({ params: { url: 'pretend://a@b:1' } });
  const states = { provider: provider.state! };
  const cases: [string, string, { body?: unknown; text?: string }, RegExp][] = [
    ['bad JSON', '/services', { text: '{"params":' }, /body is not JSON/],
    ['an array', '/services', { body: [1] }, /body must be a JSON object/],
    ['no body', '/bindings', {}, /body must be a JSON object/],
    ['no provider_id on a three-tier gateway', '/services', { body: { params: { db: 'x' } } }, /provider_id is required/],
    ['a provider_id that is not the state sent', '/services', { body: { provider_id: 'other', params: { db: 'x' } } }, /provider_id names no provider/],
    ['a missing required parameter', '/services', { body: { provider_id: provider.object.id, params: {} } }, /params\.db is required/],
    ['params not an object', '/services', { body: { provider_id: provider.object.id, params: 'db=x' } }, /params must be an object/],
    ['a name that is not a string', '/services', { body: { provider_id: provider.object.id, name: 7, params: { db: 'x' } } }, /name must be a string/],
    ['no service_id', '/bindings', { body: { name: 'x' } }, /service_id is required/],
    ['another type', '/providers', { body: { type: 'mysql', params: { url: 'x' } } }, /type must be "pretend"/],
    ['a provider without its required url', '/providers', { body: {} }, /params\.url is required/],
  ];
  for (const [what, path, request, message] of cases) {
    const r = await kit.request('POST', path, { ...request, states });
    t.is(r.status, 400, what);
    t.is(r.headers.get('content-type'), 'application/json', what);
    const body = r.body as { code: number; message: string };
    t.is(body.code, 400, what);
    t.regex(body.message, message, what);
  }
  t.is(backend.size, 0, 'no handler ran');
  const badState = await kit.request('POST', '/services', { body: { provider_id: 'p', params: { db: 'x' } }, states: { provider: 'not base64!' } });
  t.is(badState.status, 400);
  t.regex((badState.body as { message: string }).message, /X-Provider-State/);
});

test('gateway: unknown ids and paths are a 404, other methods a 405', async (t) => {
  const kit = await GatewayTestKit.start(pretend());
  t.teardown(() => kit.stop());
  const provider = await kit.createProvider({ params: { url: 'pretend://a@b:1' } });
  const service = await kit.createService({ provider, params: { db: 'x' } });
  const cases: [string, string, Parameters<GatewayTestKit['request']>[2], RegExp][] = [
    ['DELETE', '/services/nope', {}, /unknown service id "nope"/],
    ['DELETE', `/services/${service.object.id}`, { states: { service: (await kit.createService({ provider, params: { db: 'y' } })).state! } }, /unknown service id/],
    ['DELETE', '/bindings/b1', { states: { service: service.state! } }, /unknown binding id "b1"/],
    ['DELETE', '/providers/p1', {}, /unknown provider id "p1"/],
    ['POST', '/bindings', { body: { service_id: 'nope' }, states: { service: service.state! } }, /unknown service id "nope"/],
    ['GET', '/widgets', {}, /no endpoint \/widgets/],
    ['DELETE', '/bindings/%E0%A4%A', {}, /not percent-encoded/],
  ];
  for (const [method, path, request, message] of cases) {
    const r = await kit.request(method, path, request);
    t.is(r.status, 404, `${method} ${path}`);
    t.regex((r.body as { message: string }).message, message);
  }
  t.is((await kit.request('GET', '/services')).status, 405);
  t.is((await kit.request('POST', '/')).status, 405);
});

test('gateway: a handler failure is a 500 that shows no internals, and an invalid binding from a handler is not sent', async (t) => {
  const events: string[] = [];
  const def = pretend();
  def.services.create = async () => {
    throw new Error('password=hunter2 leaked');
  };
  def.bindings.create = async () => ({ url: 'pretend://host/no-port', protocol: { scheme: 'pretend' } });
  const kit = await GatewayTestKit.start(def, { onEvent: (e) => e.type === 'handler-error' && events.push(String(e.error)) });
  t.teardown(() => kit.stop());
  const provider = await kit.createProvider({ params: { url: 'pretend://a@b:1' } });
  const r = await kit.request('POST', '/services', { body: { provider_id: provider.object.id, params: { db: 'x' } }, states: { provider: provider.state! } });
  t.is(r.status, 500);
  t.deepEqual(r.body, { code: 500, message: 'the gateway failed to handle the request' });
  t.regex(events[0]!, /hunter2/);
  const service = { kind: 'service' as const, object: { id: 's', name: 's' }, state: encodeState({ id: 's', state: {} }), status: 201, provider };
  const b = await kit.request('POST', '/bindings', { body: { service_id: 's' }, states: { service: service.state } });
  t.is(b.status, 500);
  t.regex(events[1]!, /url must give a port/);
});

test('state: encode, decode and the 4 KB limit on both sides', async (t) => {
  const value = { admin: 'postgres://a:b@h:5432/x', n: 1 };
  const header = encodeState(value);
  t.regex(header, /^[A-Za-z0-9_-]+$/);
  t.deepEqual(decodeState(header), value);
  t.is(decodeState(undefined), undefined);
  t.is(decodeState(''), undefined);
  t.throws(() => encodeState('x'.repeat(MAX_STATE_BYTES)), { instanceOf: GatewayStateError });
  t.throws(() => decodeState('a+b/'), { instanceOf: GatewayStateError });
  t.throws(() => decodeState('A'.repeat(MAX_STATE_BYTES + 4)), { instanceOf: GatewayStateError });
  t.throws(() => decodeState(Buffer.from('not json').toString('base64url')), { instanceOf: GatewayStateError });

  // A handler whose state is too big is refused by the server (500), not sent.
  const def = pretend();
  def.services.create = async () => ({ state: { db: 'x'.repeat(4000), url: '' } });
  const kit = await GatewayTestKit.start(def);
  t.teardown(() => kit.stop());
  const provider = await kit.createProvider({ params: { url: 'pretend://a@b:1' } });
  const err = await t.throwsAsync(kit.createService({ provider, params: { db: 'x' } }), { instanceOf: GatewayRefusedError });
  t.is(err.status, 500);
});

/** A raw HTTP server for answers no SDK gateway gives. */
async function raw(handler: Parameters<typeof createServer>[1]): Promise<{ url: string; server: Server }> {
  const server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}
function closeRaw(server: Server): Promise<void> {
  server.closeAllConnections();
  return new Promise((resolve) => server.close(() => resolve()));
}

test('client: unreachable, timeout, refused and malformed are told apart, and naming the gateway', async (t) => {
  const closed = await raw(() => {});
  await closeRaw(closed.server);
  const unreachable = await t.throwsAsync(new GatewayClient(closed.url).describe(), { instanceOf: GatewayUnreachableError });
  t.true(unreachable.message.includes(closed.url));

  const slow = await raw(() => {});
  t.teardown(() => closeRaw(slow.server));
  const timeout = await t.throwsAsync(new GatewayClient(slow.url, { timeoutMs: 200 }).createService({}), { instanceOf: GatewayTimeoutError });
  t.is(timeout.kind, 'timeout');

  const answers: [number, string, Record<string, string>][] = [];
  const scripted = await raw((_req, res) => {
    const [status, body, headers] = answers.shift()!;
    res.writeHead(status, { 'Content-Type': 'application/json', ...headers });
    res.end(body);
  });
  t.teardown(() => closeRaw(scripted.server));
  const client = new GatewayClient(scripted.url);
  answers.push([503, '{"code":503,"message":"database down"}', {}]);
  const refused = await t.throwsAsync(client.createService({}), { instanceOf: GatewayRefusedError });
  t.is(refused.status, 503);
  t.is(refused.body?.message, 'database down');
  t.regex(refused.message, /database down/);
  for (const [body, headers, why] of [
    ['not json', {}, /not JSON/],
    ['{"name":"x"}', {}, /id is required/],
    ['{"id":"b","url":"redis://h/0","protocol":{"scheme":"redis"}}', {}, /url must give a port/],
    ['{"id":"b","url":"redis://h:1/0"}', {}, /protocol is required/],
    ['{"id":"b","url":"redis://h:1/0","protocol":{"scheme":"redis"},"url_template":"redis://{{alphanum 0}}@h:1"}', {}, /out of range/],
    ['{"id":"b","url":"redis://h:1/0","protocol":{"scheme":"redis"}}', { 'X-Binding-State': 'has spaces' }, /X-Binding-State/],
  ] as [string, Record<string, string>, RegExp][]) {
    answers.push([201, body, headers]);
    const malformed = await t.throwsAsync(client.createBinding({ service_id: 's' }), { instanceOf: GatewayProtocolError });
    t.regex(malformed.message, why);
  }
});

test('client: moves on to the next address only when no connection could be made', async (t) => {
  const closed = await raw(() => {});
  await closeRaw(closed.server);
  const gw = await serveGateway(pretend(), { port: 0, host: '127.0.0.1' });
  t.teardown(() => gw.stop());
  const map = await new GatewayClient([closed.url, gw.url]).describe();
  t.truthy(map['/providers']);
});

test('server: stop lets requests in flight finish, then stops by force after the grace period', async (t) => {
  let release!: () => void;
  let held = new Promise<void>((resolve) => (release = resolve));
  let entered!: () => void;
  let inHandler = new Promise<void>((resolve) => (entered = resolve));
  let aborted = false;
  const def = pretend();
  def.providers!.create = async (_req, ctx) => {
    ctx.signal.addEventListener('abort', () => (aborted = true));
    entered();
    await Promise.race([held, new Promise((resolve) => ctx.signal.addEventListener('abort', resolve))]);
    return { state: { url: 'x' } };
  };
  const gw = await serveGateway(def, { port: 0, host: '127.0.0.1' });
  const client = new GatewayClient(gw.url);
  const first = client.createProvider({ type: 'pretend', params: { url: 'x' } });
  await inHandler;
  const stopping = gw.stop(60_000);
  t.is(gw.state as string, 'stopping');
  release();
  t.is((await first).status, 201, 'the request in flight is answered');
  await stopping;
  t.is(gw.state as string, 'stopped');
  t.false(aborted);
  t.is(await gw.closed(), undefined);
  await t.throwsAsync(client.describe(), { instanceOf: GatewayUnreachableError });

  inHandler = new Promise<void>((resolve) => (entered = resolve));
  held = new Promise<void>(() => {}); // never released: only the forced stop ends this one
  const gw2 = await serveGateway(def, { port: 0, host: '127.0.0.1' });
  const stuck = new GatewayClient(gw2.url).createProvider({ type: 'pretend', params: { url: 'x' } }).catch((err: unknown) => err);
  await inHandler;
  await gw2.stop(100);
  t.true(aborted, 'the handler saw its signal aborted');
  t.truthy(await stuck);
});

test('wire: formatBindingUrl always writes the port and encodes credentials and path', (t) => {
  t.is(formatBindingUrl({ scheme: 'https', host: 'api.example.com', port: 443, username: 'a b', password: 'p@ss:/', path: '/v1/x' }), 'https://a%20b:p%40ss%3A%2F@api.example.com:443/v1/x');
  t.is(formatBindingUrl({ scheme: 'redis', host: '::1', port: 0, path: '2', query: { tls: 'true' } }), 'redis://[::1]:0/2?tls=true');
});

test('client: a create whose 2xx answer is refused says what the gateway made: the id of a JSON body, the state headers as they came', async (t) => {
  const answers: [number, string, Record<string, string>][] = [];
  const scripted = await raw((_req, res) => {
    const [status, body, headers] = answers.shift()!;
    res.writeHead(status, { 'Content-Type': 'application/json', ...headers });
    res.end(body);
  });
  t.teardown(() => closeRaw(scripted.server));
  const client = new GatewayClient(scripted.url);
  const big = 'A'.repeat(MAX_STATE_BYTES + 4);
  for (const [body, headers, why, made] of [
    ['{"id":"s1","name":42}', { 'X-Service-State': 'c3Q' }, /name must be a string/, { made: 'yes', id: 's1', states: { service: 'c3Q' } }],
    ['{"id":"s2"}', { 'X-Service-State': 'not base64!', 'X-Provider-State': 'cHI' }, /X-Service-State is not URL-safe Base64/, { made: 'yes', id: 's2', states: { service: 'not base64!', provider: 'cHI' } }],
    ['{"id":"s3"}', { 'X-Service-State': big }, new RegExp(`X-Service-State is ${big.length} bytes long`), { made: 'yes', id: 's3', states: { service: big } }],
    ['{"name":"no id"}', {}, /id is required/, { made: 'yes', states: {} }],
    ['created s4', {}, /not JSON/, { made: 'yes', states: {} }],
    ['[{"id":"s5"}]', {}, /must be a JSON object/, { made: 'yes', states: {} }],
  ] as [string, Record<string, string>, RegExp, Record<string, unknown>][]) {
    answers.push([201, body, headers]);
    const err = await t.throwsAsync(client.createService({}), { instanceOf: GatewayProtocolError });
    t.regex(err.message, why);
    t.like(createOutcome(err), made, body);
  }
  answers.push([409, '{"code":409,"message":"exists"}', {}]);
  t.deepEqual(createOutcome(await t.throwsAsync(client.createService({}))), { made: 'no' }, 'a refusal made nothing');
  const closed = await raw(() => {});
  await closeRaw(closed.server);
  t.deepEqual(createOutcome(await t.throwsAsync(new GatewayClient(closed.url).createService({}))), { made: 'no' }, 'no connection: nothing was sent');
  // A connection that breaks once the request is sent: the gateway may have acted on it.
  const breaks = await raw((req) => req.socket.destroy());
  t.teardown(() => closeRaw(breaks.server));
  const broke = await t.throwsAsync(new GatewayClient(breaks.url).createService({}), { instanceOf: GatewayUnreachableError });
  t.true(broke.mayHaveArrived);
  t.like(createOutcome(broke), { made: 'maybe' });
});

test('client: with lateAnswerMs a create that times out is still waited for: its late answer, a later refusal, or none', async (t) => {
  const answer = new Map<string, () => void>();
  const server = await raw((req, res) => {
    const name = req.headers['x-case'] as string;
    answer.set(name, () => {
      if (name === 'refused') res.writeHead(409, { 'Content-Type': 'application/json' }).end('{"code":409,"message":"exists"}');
      else res.writeHead(201, { 'Content-Type': 'application/json', 'X-Service-State': 'c3Q' }).end(`{"id":"${name}"}`);
    });
  });
  t.teardown(() => closeRaw(server.server));
  const client = (name: string, lateAnswerMs: number, signal?: AbortSignal, timeoutMs = 100) =>
    new GatewayClient(server.url, { timeoutMs, lateAnswerMs, headers: { 'X-Case': name }, ...(signal ? { signal } : {}) });
  const released = (name: string) => eventuallyHas(answer, name);

  const late = await t.throwsAsync(client('late', 30_000).createService({}), { instanceOf: GatewayTimeoutError });
  t.regex(late.message, /no answer within 100 ms/);
  const outcome = createOutcome(late);
  t.is(outcome.made, 'later');
  (await released('late'))();
  t.deepEqual(await (outcome as { answer: Promise<unknown> }).answer, { made: 'yes', id: 'late', states: { service: 'c3Q' }, why: `it answered after the time allowed (${late.message})` });

  const refusedLater = createOutcome(await t.throwsAsync(client('refused', 30_000).createService({}), { instanceOf: GatewayTimeoutError }));
  (await released('refused'))();
  t.deepEqual(await (refusedLater as { answer: Promise<unknown> }).answer, { made: 'no' });

  const none = createOutcome(await t.throwsAsync(client('none', 200).createService({}), { instanceOf: GatewayTimeoutError }));
  t.like(await (none as { answer: Promise<unknown> }).answer, { made: 'maybe', states: {} }, 'no answer within the wait: unknown');

  const stop = new AbortController();
  const abandoned = createOutcome(await t.throwsAsync(client('abandoned', 30_000, stop.signal).createService({}), { instanceOf: GatewayTimeoutError }));
  stop.abort();
  t.like(await (abandoned as { answer: Promise<unknown> }).answer, { made: 'maybe' }, 'the caller stopped waiting: unknown');

  const quick = client('fast', 30_000, undefined, 30_000).createService({});
  (await released('fast'))();
  t.is((await quick).object.id, 'fast', 'an answer in time is an answer');
  const noLate = await t.throwsAsync(client('nolate', 0).createService({}), { instanceOf: GatewayTimeoutError });
  t.is(noLate.lateAnswer, undefined);
  t.like(createOutcome(noLate), { made: 'maybe' }, 'without lateAnswerMs a timeout is unknown');
});

/** The value under `key` once the server has it (a request arrived). */
async function eventuallyHas<T>(map: Map<string, T>, key: string): Promise<T> {
  const deadline = Date.now() + 10_000;
  while (!map.has(key)) {
    if (Date.now() > deadline) throw new Error(`no request ${key} within 10 s`);
    await new Promise((resolve) => setImmediate(resolve));
  }
  return map.get(key)!;
}

test('wire: GET / as gateways of the original platform wrote it is accepted (the verbs present count); what cannot work is refused', (t) => {
  const original = {
    '/providers': { GET: [{}], POST: { params: { url: 'redis://host:6379' } } },
    '/providers/:id': { GET: [{}], DELETE: [{}] },
    '/services': { GET: [{}], POST: { params: { db: '0' } } },
    '/services/:id': { DELETE: null },
    '/bindings': { POST: [{}] },
    '/bindings/:id': { DELETE: 'deletes it' },
    '/stats': 'the gateway\'s own',
  };
  t.deepEqual(methodMapProblems(original), []);
  t.is(tierOf(original as MethodMap), 3);
  t.deepEqual(requiredParams(original as MethodMap, '/providers'), ['url']);
  t.deepEqual(requiredParams(original as MethodMap, '/bindings'), [], 'an array describes no parameters');
  t.is(paramsOf(original as MethodMap, '/services')?.['db'], '0');
  t.is(tierOf({ '/providers': { GET: [{}] } } as MethodMap), 2, 'providers listed but not made: two-tier');

  const without = (key: string) => Object.fromEntries(Object.entries(original).filter(([k]) => k !== key));
  t.deepEqual(methodMapProblems(without('/bindings')), [['/bindings', 'must offer POST']]);
  t.deepEqual(methodMapProblems(without('/services')), [['/services', 'must offer POST']]);
  t.deepEqual(methodMapProblems(without('/providers/:id')), [['/providers/:id', 'must offer DELETE when POST /providers is offered']]);
  t.deepEqual(methodMapProblems({ ...original, '/services': { GET: [{}] } }), [['/services', 'must offer POST']]);
  t.deepEqual(methodMapProblems({ ...original, '/services': [{ POST: {} }] }), [['/services', 'must be an object keyed by HTTP verb']]);
  t.deepEqual(methodMapProblems([original]), [['body', 'must be a JSON object']]);
  t.deepEqual(methodMapProblems('{}'), [['body', 'must be a JSON object']]);
});
