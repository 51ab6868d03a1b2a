/**
 * The Redis gateway (three-tier), built with the SDK. Needs Redis 7.
 *
 *   provider  a Redis server, given by an admin url (`redis://:password@host:6379`
 *             or `redis://admin:password@host:6379`; the user may run ACL and SCAN)
 *   service   a key prefix `<name>:` in a database number (`params.db`, default 0);
 *             the prefix holds no other colon, so no service's prefix is the
 *             start of another's
 *   binding   an ACL user `<tag>_<random>` with a generated password, allowed
 *             the keys and channels `<prefix>*` only, `SELECT` of the service's
 *             database only (a first-argument rule), and no dangerous, admin or
 *             scripting commands; its url is `redis://user:password@host:port/<db>`
 *
 * Deletes: a binding's
 * user is removed and its connections closed; a service's keys are unlinked
 * (SCAN by prefix) and, when forced, the users of its bindings still left.
 */
import { createClient } from 'redis';
import { BadRequestError, ConflictError, GatewayError, NotFoundError } from '../errors.js';
import type { GatewayDefinition, Stated } from '../server.js';
import { asParameter } from './common.js';
import { randomAlphanum } from '../url-template.js';

export interface RedisProviderState {
  url: string;
}
export interface RedisServiceState {
  prefix: string;
  db: number;
  /** Starts the names of this service's binding users. */
  tag: string;
}
export interface RedisBindingState {
  user: string;
}

export interface RedisGatewayOptions {
  connectTimeoutMs?: number;
}

const PREFIX_NAME = /^[A-Za-z0-9_.-]{1,64}$/;

type Command = (args: string[]) => Promise<unknown>;

async function withRedis<T>(url: string, options: RedisGatewayOptions, work: (command: Command) => Promise<T>): Promise<T> {
  const client = createClient({ url, socket: { connectTimeout: options.connectTimeoutMs ?? 10_000, reconnectStrategy: false } });
  client.on('error', () => {}); // reported by the command that needed the connection
  try {
    await client.connect();
  } catch (err) {
    throw new GatewayError(502, `cannot connect to the Redis server: ${(err as Error).message}`, undefined, { cause: err });
  }
  try {
    return await work((args) => client.sendCommand(args));
  } finally {
    try {
      client.destroy();
    } catch {
      // closed already
    }
  }
}

function adminUrl(provider: Stated<RedisProviderState> | undefined): string {
  if (!provider) throw new BadRequestError('the provider is needed (send X-Provider-State)');
  return provider.state.url;
}

/** Users whose names start with `tag_`. */
async function usersOf(command: Command, tag: string): Promise<string[]> {
  const users = (await command(['ACL', 'USERS'])) as string[];
  return users.filter((u) => u.startsWith(`${tag}_`));
}

export function redisGateway(options: RedisGatewayOptions = {}): GatewayDefinition<RedisProviderState, RedisServiceState, RedisBindingState> {
  return {
    type: 'redis',
    providers: {
      params: { url: 'redis://:password@redis.example.com:6379' },
      async create(request) {
        const value = request.params?.['url'];
        let url: URL;
        try {
          url = new URL(String(value));
        } catch {
          throw new BadRequestError('params.url is not a url');
        }
        if (url.protocol !== 'redis:') throw new BadRequestError('params.url must be a redis:// url');
        const version = await asParameter(withRedis(url.href, options, async (command) => {
          const info = String(await command(['INFO', 'server']));
          const v = /redis_version:(\d+)\.(\d+)/.exec(info);
          if (!v || Number(v[1]) < 7) throw new BadRequestError(`the server runs Redis ${v ? `${v[1]}.${v[2]}` : '(unknown)'}; this gateway needs 7 or later (ACL)`);
          try {
            await command(['ACL', 'USERS']);
          } catch (err) {
            throw new BadRequestError(`the user in params.url may not manage ACL users: ${(err as Error).message}`);
          }
          return `${v[1]}.${v[2]}`;
        }));
        return { name: request.name ?? `redis ${url.host}`, params: { ...request.params, server_version: version }, state: { url: url.href } };
      },
      async delete() {
        // The server is not the gateway's to remove.
      },
    },
    services: {
      async create(request, { provider }) {
        const name = typeof request.params?.['prefix'] === 'string' ? request.params['prefix'].replace(/:$/, '') : (request.name ?? `svc_${randomAlphanum(12, 'lower')}`);
        if (!PREFIX_NAME.test(name)) throw new BadRequestError(`prefix "${name}" must match ${PREFIX_NAME.source} (then a colon is added)`);
        const db = request.params?.['db'] === undefined ? 0 : Number(request.params['db']);
        if (!Number.isInteger(db) || db < 0) throw new BadRequestError('params.db must be a database number (0, 1, ...)');
        const prefix = `${name}:`;
        const tag = `svc_${randomAlphanum(10, 'lower')}`;
        await withRedis(adminUrl(provider), options, async (command) => {
          const databases = Number(((await command(['CONFIG', 'GET', 'databases'])) as string[])[1] ?? 16);
          if (db >= databases) throw new BadRequestError(`params.db ${db} is out of range; the server has ${databases} databases`);
          await command(['SELECT', String(db)]);
          // A prefix in use (keys there) is some other service's, or left over.
          const [, keys] = (await command(['SCAN', '0', 'MATCH', `${prefix}*`, 'COUNT', '1000'])) as [string, string[]];
          if (keys.length > 0) throw new ConflictError(`keys with prefix "${prefix}" exist already in db ${db}`);
        });
        return { name: request.name ?? name, params: { ...request.params, prefix, db }, state: { prefix, db, tag } };
      },
      async delete(service, { provider, force }) {
        if (!provider) {
          if (force) return;
          throw new BadRequestError('the provider is needed (send X-Provider-State), or force the delete');
        }
        const { prefix, db, tag } = service.state;
        await withRedis(adminUrl(provider), options, async (command) => {
          if (force) {
            for (const user of await usersOf(command, tag)) {
              await command(['ACL', 'DELUSER', user]);
              await command(['CLIENT', 'KILL', 'USER', user]).catch(() => {});
            }
          }
          await command(['SELECT', String(db)]);
          let cursor = '0';
          do {
            const [next, keys] = (await command(['SCAN', cursor, 'MATCH', `${prefix}*`, 'COUNT', '1000'])) as [string, string[]];
            if (keys.length > 0) await command(['UNLINK', ...keys]);
            cursor = next;
          } while (cursor !== '0');
        });
      },
    },
    bindings: {
      async create(_request, { provider, service }) {
        const admin = new URL(adminUrl(provider));
        const { prefix, db, tag } = service.state;
        const user = `${tag}_${randomAlphanum(8, 'lower')}`;
        const password = randomAlphanum(32);
        await withRedis(admin.href, options, (command) =>
          command(['ACL', 'SETUSER', user, 'reset', 'on', `>${password}`, `~${prefix}*`, `&${prefix}*`, '+@all', '-@dangerous', '-@admin', '-@scripting', '-select', `+select|${db}`]),
        );
        const url = new URL(`redis://${admin.host}`);
        url.username = user;
        url.password = password;
        url.pathname = `/${db}`;
        if (!url.port) url.port = '6379';
        return { url: url.href, protocol: { scheme: 'redis' }, state: { user } };
      },
      async delete(binding, { provider }) {
        const { user } = binding.state;
        await withRedis(adminUrl(provider), options, async (command) => {
          const removed = Number(await command(['ACL', 'DELUSER', user]));
          if (removed === 0) throw new NotFoundError(`ACL user "${user}" does not exist`);
          await command(['CLIENT', 'KILL', 'USER', user]).catch(() => {});
        });
      },
    },
  };
}
