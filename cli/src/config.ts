/**
 * The CLI's configuration file: the targets (API URLs) the user logged in to, with their
 * tokens, and which one is current. In `$PLATFORM_CONFIG`, or `~/.platform/config.json`;
 * the directory is made 0700 and the file written 0600 (it holds bearer tokens), by
 * writing a temporary file and renaming it, so that a crash never leaves half a file.
 */
import { mkdir, readFile, rename, writeFile, chmod } from 'node:fs/promises';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';

export interface TargetConfig {
  url: string;
  user?: string;
  principal?: string;
  /** `basic`, `ldap`, or the name of the identity provider of a device-flow login. */
  mechanism?: string;
  token?: string;
  /** A device-flow login's IDP_REFRESH token: a new access token without logging in again. */
  refresh_token?: string;
  /** When the token expires, as an ISO time. */
  expires_at?: string;
  /** The namespace a short name resolves in (`hello` -> `job::<namespace>::hello`). */
  namespace?: string;
  /** Where the cluster's router listens (host:port), for the URLs of apps. */
  router?: string;
}

export interface ConfigFile {
  current?: string;
  targets: Record<string, TargetConfig>;
}

export function configPath(env: NodeJS.ProcessEnv = process.env): string {
  return env['PLATFORM_CONFIG'] || join(env['HOME'] || homedir(), '.platform', 'config.json');
}

export async function loadConfig(path: string): Promise<ConfigFile> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { targets: {} };
    throw err;
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (err) {
    throw new Error(`the configuration file ${path} is not valid JSON (${(err as Error).message}); remove it and log in again`, { cause: err });
  }
  const c = parsed as Partial<ConfigFile>;
  return { ...(typeof c.current === 'string' ? { current: c.current } : {}), targets: c.targets && typeof c.targets === 'object' ? c.targets : {} };
}

export async function saveConfig(path: string, config: ConfigFile): Promise<void> {
  await mkdir(dirname(path), { recursive: true, mode: 0o700 });
  const tmp = `${path}.${process.pid}.tmp`;
  await writeFile(tmp, `${JSON.stringify(config, null, 2)}\n`, { mode: 0o600 });
  await chmod(tmp, 0o600);
  await rename(tmp, path);
}

/** A target's key in the file: its URL without a trailing slash. */
export function normalizeUrl(raw: string): string {
  const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(raw) ? raw : `http://${raw}`;
  let url: URL;
  try {
    url = new URL(withScheme);
  } catch {
    throw new UsageError(`"${raw}" is not a URL (such as http://127.0.0.1:8080)`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new UsageError(`"${raw}": the target must be an http or https URL`);
  return `${url.protocol}//${url.host}${url.pathname.replace(/\/+$/, '')}`;
}

/** A mistake in how the command was typed: exit code 2. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}

/** The command ran and failed for a reason it explains (not an API error): exit code 1. */
export class CommandError extends Error {
  override readonly name = 'CommandError';
  constructor(
    message: string,
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
  }
}
