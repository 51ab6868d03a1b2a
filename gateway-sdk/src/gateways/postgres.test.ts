import test from 'ava';
import pg from 'pg';
import { GatewayRefusedError } from '../errors.js';
import { encodeEnvelope } from '../state.js';
import { GatewayTestKit } from '../testkit.js';
import { postgresGateway } from './postgres.js';
import { findPgBin, startPostgres, whenInstalled, type TestServer } from './test-servers.js';

let server: TestServer;

whenInstalled(findPgBin() !== undefined, 'postgresql', () => {
  test.before(async () => {
    server = await startPostgres();
  });
  test.after.always(async () => {
    await server?.stop();
  });

  async function query<T extends pg.QueryResultRow = Record<string, unknown>>(url: string, sql: string, params: unknown[] = [], database?: string): Promise<T[]> {
    const target = new URL(url);
    if (database) target.pathname = `/${database}`;
    const c = new pg.Client({ connectionString: target.href, connectionTimeoutMillis: 10_000 });
    c.on('error', () => {});
    await c.connect();
    try {
      return (await c.query<T>(sql, params)).rows;
    } finally {
      await c.end().catch(() => {});
    }
  }

  const exists = async (what: 'database' | 'role', name: string) =>
    (await query(server.url, what === 'database' ? 'SELECT 1 FROM pg_database WHERE datname = $1' : 'SELECT 1 FROM pg_roles WHERE rolname = $1', [name])).length === 1;

  test.serial('postgres gateway: a binding is a role with a password that reaches its database only; the gateway restarting loses nothing; deletes drop role and database', async (t) => {
    const kit = await GatewayTestKit.start(postgresGateway(), { onEvent: (e) => e.type === 'handler-error' && t.log(e.error) });
    t.teardown(() => kit.stop());
    t.is(kit.tier, 3);
    t.deepEqual(kit.methodMap['/providers'], { POST: { params: { url: 'postgres://admin:password@db.example.com:5432/postgres' } } });
    const provider = await kit.createProvider({ params: { url: server.url } });
    t.is(provider.object.type, 'postgres');
    const service = await kit.createService({ provider, params: { database: 'shop' } });
    t.is(service.object.name, 'shop');
    const other = await kit.createService({ provider, name: 'blog' });
    t.true(await exists('database', 'shop'));
    t.true(await exists('database', 'blog'));

    const first = await kit.createBinding({ service, name: 'db' });
    const second = await kit.createBinding({ service });
    const url = new URL(first.object.url);
    t.is(url.protocol, 'postgres:');
    t.is(url.port, String(server.port));
    t.is(url.pathname, '/shop');
    t.regex(decodeURIComponent(url.password), /^[0-9A-Za-z]{32}$/);
    t.deepEqual(first.object.protocol, { scheme: 'postgres' });

    // What one binding makes, another binding of the service uses: both act as the owner role.
    await query(first.object.url, 'CREATE TABLE items (n int)');
    await query(first.object.url, 'INSERT INTO items VALUES (1), (2)');
    t.deepEqual(await query(second.object.url, 'SELECT sum(n)::int AS s FROM items'), [{ s: 3 }]);
    // ...and no other database.
    await t.throwsAsync(query(first.object.url, 'SELECT 1', [], 'blog'), { message: /permission denied/ });

    await kit.restart(); // a new gateway process: everything comes back in the headers
    await kit.deleteBinding(first);
    t.false(await exists('role', url.username));
    await t.throwsAsync(query(first.object.url, 'SELECT 1'), { message: /password authentication failed|does not exist/ });
    t.deepEqual(await query(second.object.url, 'SELECT count(*)::int AS c FROM items'), [{ c: 2 }], 'the table stays with the service');
    const gone = await t.throwsAsync(kit.deleteBinding(first), { instanceOf: GatewayRefusedError });
    t.is(gone.status, 404);

    await kit.deleteBinding(second);
    await kit.deleteService(service);
    t.false(await exists('database', 'shop'));
    t.false(await exists('role', 'shop_owner'));
    const missing = await t.throwsAsync(kit.deleteService(service), { instanceOf: GatewayRefusedError });
    t.is(missing.status, 404);
    await kit.deleteService(other);
    await kit.deleteProvider(provider);
  });

  test.serial('postgres gateway: a forced service delete drops the roles of bindings left; refusals say why', async (t) => {
    const kit = await GatewayTestKit.start(postgresGateway({ connectTimeoutMs: 3000 }), { onEvent: (e) => e.type === 'handler-error' && t.log(e.error) });
    t.teardown(() => kit.stop());
    const provider = await kit.createProvider({ params: { url: server.url } });
    const service = await kit.createService({ provider, params: { database: 'forced' } });
    const binding = await kit.createBinding({ service });
    await query(binding.object.url, 'CREATE TABLE t (n int)');
    await kit.deleteService(service, { force: true });
    t.false(await exists('database', 'forced'));
    t.false(await exists('role', new URL(binding.object.url).username));

    const taken = await t.throwsAsync(kit.createService({ provider, params: { database: 'postgres' } }), { instanceOf: GatewayRefusedError });
    t.is(taken.status, 409);
    const badName = await t.throwsAsync(kit.createService({ provider, params: { database: 'Robert"; DROP' } }), { instanceOf: GatewayRefusedError });
    t.is(badName.status, 400);
    const wrongPassword = new URL(server.url);
    wrongPassword.password = 'wrong';
    const refused = await t.throwsAsync(kit.createProvider({ params: { url: wrongPassword.href } }), { instanceOf: GatewayRefusedError });
    t.is(refused.status, 400);
    t.regex(refused.body!.message, /password authentication failed/);
    const notPg = await t.throwsAsync(kit.createProvider({ params: { url: 'mysql://a@b:1' } }), { instanceOf: GatewayRefusedError });
    t.is(notPg.status, 400);
    // The server gone after the provider was made: a 502 naming the back end.
    const down = new URL(server.url);
    down.port = '1';
    const downProvider = { ...provider, state: encodeEnvelope(provider.object.id, { url: down.href }) };
    const e = await t.throwsAsync(kit.createService({ provider: downProvider, params: { database: 'x' } }), { instanceOf: GatewayRefusedError });
    t.is(e.status, 502);
    t.regex(e.body!.message, /cannot connect to the PostgreSQL server/);
  });
}, test);
