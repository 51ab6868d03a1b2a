/**
 * What a command runs with: its output, the configuration file, the current target, and an
 * authenticated API client. Created once per run by main.ts from the global options.
 */
import { PlatformClient } from './client/client.js';
import { ApiError } from './client/errors.js';
import type { Job, Package } from './client/types.js';
import { CommandError, configPath, loadConfig, normalizeUrl, saveConfig, type ConfigFile, type TargetConfig } from './config.js';
import { isUuid, resolveFqn } from './names.js';
import { Output } from './output.js';
import { CLI_VERSION } from './version.js';

export interface GlobalOptions {
  json?: boolean;
  target?: string;
  namespace?: string;
}

export interface SessionIo {
  env: NodeJS.ProcessEnv;
  stdin: NodeJS.ReadableStream & { isTTY?: boolean; setRawMode?: (raw: boolean) => unknown };
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream & { isTTY?: boolean; columns?: number };
  /** The clock, for token expiry. */
  now: () => number;
}

export class Session {
  readonly out: Output;
  readonly configPath: string;
  #config: ConfigFile | undefined;

  constructor(
    readonly options: GlobalOptions,
    readonly io: SessionIo,
  ) {
    this.out = new Output(options.json === true, io.stdout as never, io.stderr as never);
    this.configPath = configPath(io.env);
  }

  async config(): Promise<ConfigFile> {
    this.#config ??= await loadConfig(this.configPath);
    return this.#config;
  }

  async save(): Promise<void> {
    await saveConfig(this.configPath, await this.config());
  }

  /** The URL commands talk to: --target, PLATFORM_TARGET, or the current target of the file. */
  async targetUrl(): Promise<string> {
    const explicit = this.options.target ?? this.io.env['PLATFORM_TARGET'];
    if (explicit) return normalizeUrl(explicit);
    const current = (await this.config()).current;
    if (!current) throw new CommandError('no target: run `platform target <url>` (such as http://127.0.0.1:8080) first, then `platform login`');
    return current;
  }

  /** The target's saved settings (empty when never logged in). */
  async target(): Promise<TargetConfig> {
    const url = await this.targetUrl();
    return (await this.config()).targets[url] ?? { url };
  }

  /** A client without a token, for login and the open endpoints. */
  async anonymousClient(): Promise<PlatformClient> {
    return new PlatformClient({ url: await this.targetUrl(), userAgent: `platform-cli/${CLI_VERSION}` });
  }

  /** A client with the target's token; refuses when there is none or it has expired. */
  async client(): Promise<PlatformClient> {
    const target = await this.target();
    const token = this.io.env['PLATFORM_TOKEN'] || target.token;
    if (!token) throw new CommandError(`not logged in to ${target.url}: run \`platform login\``);
    if (!this.io.env['PLATFORM_TOKEN'] && target.expires_at && Date.parse(target.expires_at) <= this.io.now()) {
      // A device-flow login keeps the provider's refresh token: the provider is asked again.
      if (target.refresh_token && target.mechanism && target.mechanism !== 'basic' && target.mechanism !== 'ldap') {
        const grant = await (await this.anonymousClient()).refreshDeviceToken(target.mechanism, target.refresh_token);
        const exp = Number(grant.expires_in);
        const config = await this.config();
        config.targets[target.url] = { ...target, token: grant.access_token, refresh_token: grant.refresh_token, expires_at: new Date(this.io.now() + (Number.isFinite(exp) ? exp : 0) * 1000).toISOString() };
        await this.save();
        return new PlatformClient({ url: target.url, token: grant.access_token, userAgent: `platform-cli/${CLI_VERSION}` });
      }
      throw expiredError(target.url, target.expires_at);
    }
    return new PlatformClient({ url: target.url, token, userAgent: `platform-cli/${CLI_VERSION}` });
  }

  /** The router's host:port for app URLs: PLATFORM_ROUTER, or the target's `--router`. */
  async router(): Promise<string | undefined> {
    return this.io.env['PLATFORM_ROUTER'] || (await this.target()).router;
  }

  /** The namespace a short name resolves in. */
  async namespace(): Promise<string> {
    if (this.options.namespace) return this.options.namespace;
    const t = await this.target();
    if (t.namespace) return t.namespace;
    if (t.user) return `/sandbox/${t.user}`;
    throw new CommandError('no default namespace: log in first, or give --namespace or a full FQN');
  }

  async fqn(name: string, type: string): Promise<string> {
    if (/^[a-z]+::/.test(name) || name.startsWith('/')) return resolveFqn(name, type, '');
    return resolveFqn(name, type, await this.namespace());
  }

  /** The job a user names (a name, an FQN or a uuid); a clear error when there is none. */
  async job(client: PlatformClient, name: string): Promise<Job> {
    if (isUuid(name)) return client.getJob(name.toLowerCase());
    const fqn = await this.fqn(name, 'job');
    const job = await client.findJob(fqn);
    if (!job) throw new CommandError(`no job ${fqn}`, { fqn });
    return job;
  }

  async package(client: PlatformClient, name: string): Promise<Package> {
    if (isUuid(name)) return client.getPackage(name.toLowerCase());
    const fqn = await this.fqn(name, 'package');
    const found = (await client.listPackages({ fqn }))[0];
    if (!found) throw new CommandError(`no package ${fqn}`, { fqn });
    return found;
  }
}

export function expiredError(url: string, at: string): CommandError {
  return new CommandError(`your token for ${url} expired at ${at}: run \`platform login\` again`, { token_expired: true });
}

/** A 401 whose message says the token expired, turned into the same advice. */
export function isExpiredTokenError(err: unknown): err is ApiError {
  return err instanceof ApiError && err.status === 401 && /expired/i.test(err.message);
}
