import test from 'ava';
import { createClient } from 'redis';
import { GatewayRefusedError } from '../errors.js';
import { GatewayTestKit } from '../testkit.js';
import { redisGateway } from './redis.js';
import { hasRedisServer, startRedis, whenInstalled, type TestServer } from './test-servers.js';

let server: TestServer & { version: string };

whenInstalled(hasRedisServer(), 'redis-server', () => {
  test.before(async () => {
    server = await startRedis();
  });
  test.after.always(async () => {
    await server?.stop();
  });

  /** Runs commands on a connection made from `url` (selecting its db as a client would). */
  async function redis<T>(url: string, work: (c: (args: string[]) => Promise<unknown>) => Promise<T>): Promise<T> {
    const c = createClient({ url, socket: { connectTimeout: 10_000, reconnectStrategy: false } });
    c.on('error', () => {});
    await c.connect();
    try {
      return await work((args) => c.sendCommand(args));
    } finally {
      try {
        c.destroy();
      } catch {
        // closed already
      }
    }
  }

  test.serial('redis gateway: the server is Redis 7 or later (ACL first-argument rules)', (t) => {
    t.true(Number(server.version.split('.')[0]) >= 7, `redis-server ${server.version}`);
  });

  test.serial('redis gateway: a binding is an ACL user limited to its service prefix and db; the gateway restarting loses nothing; deletes remove user and keys', async (t) => {
    const kit = await GatewayTestKit.start(redisGateway(), { onEvent: (e) => e.type === 'handler-error' && t.log(e.error) });
    t.teardown(() => kit.stop());
    const provider = await kit.createProvider({ params: { url: server.url } });
    t.is(provider.object.type, 'redis');
    const service = await kit.createService({ provider, params: { prefix: 'shop', db: 2 } });
    t.deepEqual(service.object.params, { prefix: 'shop:', db: 2 });
    const other = await kit.createService({ provider, name: 'blog' });
    const binding = await kit.createBinding({ service, name: 'cache' });
    const url = new URL(binding.object.url);
    t.is(url.pathname, '/2');
    t.is(url.port, String(server.port));
    t.deepEqual(binding.object.protocol, { scheme: 'redis' });

    await redis(binding.object.url, async (c) => {
      t.is(await c(['SET', 'shop:a', '1']), 'OK');
      t.is(await c(['GET', 'shop:a']), '1');
      await t.throwsAsync(c(['SET', 'blog:a', '1']), { message: /NOPERM/ }, 'another prefix');
      await t.throwsAsync(c(['SELECT', '0']), { message: /NOPERM/ }, 'another db');
      await t.throwsAsync(c(['FLUSHALL']), { message: /NOPERM/ });
      await t.throwsAsync(c(['KEYS', '*']), { message: /NOPERM/ });
    });
    await redis(server.url, async (c) => {
      await c(['SELECT', '2']);
      t.is(await c(['GET', 'shop:a']), '1', 'the key is in db 2');
    });

    await kit.restart();
    await kit.deleteBinding(binding);
    await t.throwsAsync(redis(binding.object.url, async (c) => c(['PING'])), { message: /WRONGPASS|NOAUTH|invalid username-password/i });
    const gone = await t.throwsAsync(kit.deleteBinding(binding), { instanceOf: GatewayRefusedError });
    t.is(gone.status, 404);

    await kit.deleteService(service);
    await redis(server.url, async (c) => {
      await c(['SELECT', '2']);
      t.is(await c(['EXISTS', 'shop:a']), 0, 'the service keys are gone');
    });
    await kit.deleteService(other);
    await kit.deleteProvider(provider);
  });

  test.serial('redis gateway: a forced service delete removes the users of bindings left; refusals say why', async (t) => {
    const kit = await GatewayTestKit.start(redisGateway({ connectTimeoutMs: 3000 }), { onEvent: (e) => e.type === 'handler-error' && t.log(e.error) });
    t.teardown(() => kit.stop());
    const provider = await kit.createProvider({ params: { url: server.url } });
    const service = await kit.createService({ provider, params: { prefix: 'forced' } });
    const binding = await kit.createBinding({ service });
    await redis(binding.object.url, (c) => c(['SET', 'forced:x', '1']));
    await kit.deleteService(service, { force: true });
    const users = await redis(server.url, (c) => c(['ACL', 'USERS']));
    t.false((users as string[]).includes(decodeURIComponent(new URL(binding.object.url).username)));

    await redis(server.url, (c) => c(['SET', 'taken:k', 'v']));
    const taken = await t.throwsAsync(kit.createService({ provider, params: { prefix: 'taken' } }), { instanceOf: GatewayRefusedError });
    t.is(taken.status, 409);
    for (const params of [{ prefix: 'a:b' }, { prefix: 'a*' }, { db: 99 }, { db: -1 }]) {
      const bad = await t.throwsAsync(kit.createService({ provider, params }), { instanceOf: GatewayRefusedError });
      t.is(bad.status, 400, JSON.stringify(params));
    }
    const wrong = new URL(server.url);
    wrong.password = 'wrong';
    const refused = await t.throwsAsync(kit.createProvider({ params: { url: wrong.href } }), { instanceOf: GatewayRefusedError });
    t.is(refused.status, 400);
  });
}, test);
