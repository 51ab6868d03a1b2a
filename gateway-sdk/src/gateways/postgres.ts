/**
 * The PostgreSQL gateway (three-tier), built with the SDK.
 *
 *   provider  a PostgreSQL server, given by an admin url
 *             (`postgres://admin:pass@host:5432/postgres`; the admin needs
 *             CREATEDB and CREATEROLE, or is a superuser)
 *   service   a database `<name>` owned by a NOLOGIN group role `<name>_owner`;
 *             CONNECT is revoked from PUBLIC, so only its bindings reach it
 *   binding   a LOGIN role with a generated password, member of `<name>_owner`
 *             and set to act as it (`SET ROLE` on login), so that tables made
 *             through one binding are usable through every other binding of
 *             the same service; its url is `postgres://role:password@host:port/<name>`
 *
 * Deletes drop them: a binding's role (its sessions ended, anything it owns
 * handed to the owner role first), a service's database (`WITH (FORCE)`), its
 * owner role and, when forced, the roles of bindings still left. Everything
 * the gateway needs later is in the state headers: the admin url (provider),
 * the database and owner role (service), the role (binding).
 */
import pg from 'pg';
import { BadRequestError, ConflictError, GatewayError, NotFoundError } from '../errors.js';
import type { GatewayDefinition, Stated } from '../server.js';
import { asParameter } from './common.js';
import { randomAlphanum } from '../url-template.js';

export interface PostgresProviderState {
  url: string;
}
export interface PostgresServiceState {
  database: string;
  owner: string;
}
export interface PostgresBindingState {
  role: string;
}

export interface PostgresGatewayOptions {
  /** Bound on connecting to the server (default 10 s). */
  connectTimeoutMs?: number;
}

const IDENTIFIER = /^[a-z_][a-z0-9_]{0,46}$/; // leaves room for the `_owner` and binding suffixes within 63 bytes

/** Runs `work` on a fresh connection to `url` (optionally another database on the same server). */
async function withClient<T>(url: string, options: PostgresGatewayOptions, work: (c: pg.Client) => Promise<T>, database?: string): Promise<T> {
  // pg lets a connection string win over a `database` option: name the database in the url.
  const target = new URL(url);
  if (database) target.pathname = `/${encodeURIComponent(database)}`;
  const client = new pg.Client({ connectionString: target.href, connectionTimeoutMillis: options.connectTimeoutMs ?? 10_000 });
  client.on('error', () => {}); // a connection lost after use is reported by the query that needed it
  try {
    await client.connect();
  } catch (err) {
    throw new GatewayError(502, `cannot connect to the PostgreSQL server: ${(err as Error).message}`, undefined, { cause: err });
  }
  try {
    return await work(client);
  } finally {
    await client.end().catch(() => {});
  }
}

function adminUrl(provider: Stated<PostgresProviderState> | undefined): string {
  if (!provider) throw new BadRequestError('the provider is needed (send X-Provider-State)');
  return provider.state.url;
}

function parseAdminUrl(value: unknown): URL {
  if (typeof value !== 'string') throw new BadRequestError('params.url must be a postgres:// url');
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new BadRequestError('params.url is not a url');
  }
  if (url.protocol !== 'postgres:' && url.protocol !== 'postgresql:') throw new BadRequestError('params.url must be a postgres:// or postgresql:// url');
  if (!url.hostname) throw new BadRequestError('params.url must name the server host');
  return url;
}

const pgCode = (err: unknown) => (err as { code?: string }).code;

export function postgresGateway(options: PostgresGatewayOptions = {}): GatewayDefinition<PostgresProviderState, PostgresServiceState, PostgresBindingState> {
  return {
    type: 'postgres',
    providers: {
      params: { url: 'postgres://admin:password@db.example.com:5432/postgres' },
      async create(request) {
        const url = parseAdminUrl(request.params?.['url']);
        const version = (await asParameter(withClient(url.href, options, async (c) => {
          const r = await c.query<{ super: boolean; createdb: boolean; createrole: boolean; version: string }>(
            'SELECT rolsuper AS super, rolcreatedb AS createdb, rolcreaterole AS createrole, current_setting($1) AS version FROM pg_roles WHERE rolname = current_user',
            ['server_version'],
          );
          const me = r.rows[0];
          if (!me || !(me.super || (me.createdb && me.createrole))) {
            throw new BadRequestError('the admin in params.url needs CREATEDB and CREATEROLE (or to be a superuser)');
          }
          return me.version;
        }))) as string;
        return { name: request.name ?? `postgres ${url.hostname}:${url.port || 5432}`, params: { ...request.params, server_version: version }, state: { url: url.href } };
      },
      async delete() {
        // The server is not the gateway's to remove: forgetting the provider is all there is.
      },
    },
    services: {
      async create(request, { provider }) {
        const database = typeof request.params?.['database'] === 'string' ? request.params['database'] : (request.name ?? `svc_${randomAlphanum(12, 'lower')}`);
        if (!IDENTIFIER.test(database)) throw new BadRequestError(`database name "${database}" must match ${IDENTIFIER.source} (lower case, digits, underscores)`);
        const owner = `${database}_owner`;
        const url = adminUrl(provider);
        await withClient(url, options, async (c) => {
          const id = (s: string) => c.escapeIdentifier(s);
          const exists = await c.query('SELECT 1 FROM pg_database WHERE datname = $1 UNION ALL SELECT 1 FROM pg_roles WHERE rolname = $2', [database, owner]);
          if (exists.rowCount) throw new ConflictError(`database "${database}" (or role "${owner}") exists already on this server`);
          await c.query(`CREATE ROLE ${id(owner)} NOLOGIN`);
          try {
            await c.query(`GRANT ${id(owner)} TO CURRENT_USER`); // a CREATEROLE admin (not superuser) must be a member to give it a database
            await c.query(`CREATE DATABASE ${id(database)} OWNER ${id(owner)}`);
            await c.query(`REVOKE ALL ON DATABASE ${id(database)} FROM PUBLIC`);
          } catch (err) {
            await c.query(`DROP DATABASE IF EXISTS ${id(database)}`).catch(() => {});
            await c.query(`DROP ROLE IF EXISTS ${id(owner)}`).catch(() => {});
            if (pgCode(err) === '42P04') throw new ConflictError(`database "${database}" exists already`);
            throw err;
          }
        });
        await withClient(url, options, (c) => c.query(`ALTER SCHEMA public OWNER TO ${c.escapeIdentifier(owner)}`), database);
        return { name: request.name ?? database, params: { ...request.params, database }, state: { database, owner } };
      },
      async delete(service, { provider, force }) {
        if (!provider) {
          if (force) return; // the provider is gone: nothing left to reach
          throw new BadRequestError('the provider is needed (send X-Provider-State), or force the delete');
        }
        const { database, owner } = service.state;
        await withClient(adminUrl(provider), options, async (c) => {
          const id = (s: string) => c.escapeIdentifier(s);
          const found = await c.query('SELECT 1 FROM pg_database WHERE datname = $1', [database]);
          if (!found.rowCount && !force) throw new NotFoundError(`database "${database}" does not exist`);
          await c.query(`DROP DATABASE IF EXISTS ${id(database)} WITH (FORCE)`);
          // Bindings left behind (a forced delete): their roles go with the service.
          const members = await c.query<{ rolname: string }>(
            'SELECT r.rolname FROM pg_auth_members m JOIN pg_roles r ON r.oid = m.member JOIN pg_roles g ON g.oid = m.roleid WHERE g.rolname = $1 AND r.rolname <> current_user AND r.rolcanlogin',
            [owner],
          );
          for (const m of members.rows) await c.query(`DROP ROLE IF EXISTS ${id(m.rolname)}`);
          await c.query(`DROP ROLE IF EXISTS ${id(owner)}`);
        });
      },
    },
    bindings: {
      async create(_request, { provider, service }) {
        const url = new URL(adminUrl(provider));
        const { database, owner } = service.state;
        const role = `${database}_${randomAlphanum(10, 'lower')}`;
        const password = randomAlphanum(32);
        await withClient(url.href, options, async (c) => {
          const id = (s: string) => c.escapeIdentifier(s);
          const found = await c.query('SELECT 1 FROM pg_database WHERE datname = $1', [database]);
          if (!found.rowCount) throw new NotFoundError(`database "${database}" does not exist`);
          await c.query(`CREATE ROLE ${id(role)} LOGIN PASSWORD ${c.escapeLiteral(password)} IN ROLE ${id(owner)}`);
          await c.query(`ALTER ROLE ${id(role)} SET role = ${c.escapeLiteral(owner)}`);
        });
        const out = new URL(`postgres://${url.host}`);
        out.username = role;
        out.password = password;
        out.pathname = `/${database}`;
        if (!out.port) out.port = '5432';
        return { url: out.href, protocol: { scheme: 'postgres' }, state: { role } };
      },
      async delete(binding, { provider, service }) {
        const { role } = binding.state;
        await withClient(adminUrl(provider), options, async (c) => {
          const found = await c.query('SELECT 1 FROM pg_roles WHERE rolname = $1', [role]);
          if (!found.rowCount) throw new NotFoundError(`role "${role}" does not exist`);
          await c.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE usename = $1', [role]);
        });
        if (service) {
          const db = await withClient(adminUrl(provider), options, (c) => c.query('SELECT 1 FROM pg_database WHERE datname = $1', [service.state.database]));
          if (db.rowCount) {
            // Whatever the role owns in the database (made after a RESET ROLE) goes to the owner role.
            await withClient(
              adminUrl(provider),
              options,
              async (c) => {
                await c.query(`REASSIGN OWNED BY ${c.escapeIdentifier(role)} TO ${c.escapeIdentifier(service.state.owner)}`);
                await c.query(`DROP OWNED BY ${c.escapeIdentifier(role)}`);
              },
              service.state.database,
            );
          }
        }
        await withClient(adminUrl(provider), options, (c) => c.query(`DROP ROLE ${c.escapeIdentifier(role)}`));
      },
    },
  };
}
