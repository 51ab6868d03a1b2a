/**
 * LDAP authentication: a user name and password checked against a directory
 * by binding as the user, in one of two modes.
 *
 * - direct bind: the user's DN is made from a template, e.g.
 *   `uid={user},ou=people,dc=example,dc=org`, and bound with the password;
 * - search then bind: the controller binds with its service account (or
 *   anonymously), searches `searchBase` with a filter such as `(uid={user})`,
 *   and binds as the one entry found.
 *
 * The user's input is escaped where it is put: as a DN attribute value
 * (RFC 4514) in the template, as an assertion value (RFC 4515) in the filter.
 *
 * Names are case-insensitive, as `uid` is in the standard schema: the name is
 * lower-cased before anything else, so `Alice` and `alice` are one principal,
 * `alice@ldap.platform.local`, and one throttling count. The principal domain
 * differs from that of basic users so that an LDAP user can never pass for the
 * basic user of the same name (the bootstrap `admin`, say).
 *
 * Outcomes: a wrong password, an unknown user, an ambiguous search, an empty
 * password or a name that cannot be a user name are AuthenticationError (401)
 * and count towards the user's throttling; a directory that cannot be reached,
 * does not answer within the timeout, or refuses the controller's service
 * account is UnavailableError (503), logged with the cause, and does not count.
 *
 * An empty password is refused before the directory is asked: LDAP treats a
 * simple bind with a DN and no password as an anonymous ("unauthenticated")
 * bind, which many servers answer with success.
 *
 * Each authentication uses its own connection, closed at the end: logins are
 * rare next to API calls, and a connection per login cannot leak one user's
 * bind into another's request.
 */
import { readFile } from 'node:fs/promises';
import { isIP } from 'node:net';
import type { ConnectionOptions } from 'node:tls';
import { Client, FilterParser, InvalidCredentialsError, ResultCodeError } from 'ldapts';
import { AuthenticationError, PlatformError, UnavailableError } from '../errors.js';
import type { Logger } from '@platform/proto/common';
import type { Clock } from '../util/clock.js';
import { LoginThrottle } from './login-throttle.js';

/** What an operator sets (flags and `PLATFORM_LDAP_*` variables; docs/operators.md). */
export interface LdapOptions {
  /** `ldap://host[:port]` or `ldaps://host[:port]`. */
  url: string;
  /** Direct bind: the user's DN with `{user}` where the name goes. */
  bindDnTemplate?: string;
  /** Search then bind: where users are searched (the whole subtree). */
  searchBase?: string;
  /** Search then bind: the filter, with `{user}`. Default `(uid={user})`. */
  searchFilter?: string;
  /** Search then bind: the service account; anonymous search without it. */
  bindDn?: string;
  bindPassword?: string;
  /** Upgrade an `ldap://` connection with StartTLS before any bind. */
  startTls?: boolean;
  /** PEM file of the CA(s) that signed the directory's certificate; the system's CAs otherwise. */
  caFile?: string;
  /** Limit on connecting and on each LDAP operation. Default 5000 ms. */
  timeoutMs?: number;
}

export type LdapMode =
  | { kind: 'direct'; dnTemplate: string }
  | { kind: 'search'; base: string; filter: string; service: { dn: string; password: string } | undefined };

export interface ResolvedLdapOptions {
  url: string;
  mode: LdapMode;
  startTls: boolean;
  caFile: string | undefined;
  timeoutMs: number;
}

const PLACEHOLDER = '{user}';
const DEFAULT_FILTER = '(uid={user})';
const DEFAULT_TIMEOUT_MS = 5000;
/** How long a client is told to wait after the directory failed. */
const RETRY_AFTER_MS = 5000;
const MAX_NAME_LENGTH = 256;

/** The principal of an LDAP user (`name` as returned by `normalizeLdapName`). */
export function ldapPrincipalOf(name: string): string {
  return `${name}@ldap.platform.local`;
}

/**
 * The canonical form of a user name typed at login: lower case. Undefined for a
 * name that cannot be a user's: empty, longer than 256 characters, with control
 * characters, or with white space at either end (which LDAP matching ignores,
 * so it would make a second spelling of the same user).
 */
export function normalizeLdapName(name: string): string | undefined {
  if (name.length === 0 || name.length > MAX_NAME_LENGTH) return undefined;
  if (/\p{Cc}/u.test(name) || name.trim() !== name) return undefined;
  return name.toLowerCase();
}

/** Escapes `value` for use as an attribute value in a DN (RFC 4514 section 2.4). */
export function escapeDnValue(value: string): string {
  let out = '';
  for (let i = 0; i < value.length; i++) {
    const c = value[i]!;
    if (c === '\0') out += '\\00';
    else if ('"+,;<>\\='.includes(c)) out += `\\${c}`;
    else if ((c === ' ' || c === '#') && i === 0) out += `\\${c}`;
    else if (c === ' ' && i === value.length - 1) out += '\\ ';
    else out += c;
  }
  return out;
}

/** Escapes `value` for use as an assertion value in a search filter (RFC 4515 section 3). */
export function escapeFilterValue(value: string): string {
  return value.replace(/[*()\\\0]/g, (c) => `\\${c.charCodeAt(0).toString(16).padStart(2, '0')}`);
}

/**
 * Checks an operator's options and fills in defaults; throws an Error whose
 * message names the setting to fix.
 */
export function resolveLdapOptions(o: LdapOptions): ResolvedLdapOptions {
  let url: URL;
  try {
    url = new URL(o.url);
  } catch {
    throw new Error(`LDAP URL "${o.url}" is not a URL; expected ldap://host[:port] or ldaps://host[:port]`);
  }
  if (url.protocol !== 'ldap:' && url.protocol !== 'ldaps:') {
    throw new Error(`LDAP URL "${o.url}" must start with ldap:// or ldaps://`);
  }
  if (!url.hostname) throw new Error(`LDAP URL "${o.url}" has no host`);
  if ((url.pathname !== '' && url.pathname !== '/') || url.search !== '' || url.hash !== '') {
    throw new Error(`LDAP URL "${o.url}" must name only the server (scheme, host, port); set the search base with PLATFORM_LDAP_SEARCH_BASE`);
  }
  if (o.startTls && url.protocol === 'ldaps:') throw new Error('LDAP StartTLS is for ldap:// URLs; an ldaps:// connection is encrypted already');
  const timeoutMs = o.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  if (!Number.isInteger(timeoutMs) || timeoutMs < 1 || timeoutMs > 600_000) {
    throw new Error(`LDAP timeout ${timeoutMs} ms must be a whole number from 1 to 600000`);
  }
  const template = o.bindDnTemplate ?? '';
  const base = o.searchBase ?? '';
  if (template !== '' && base !== '') {
    throw new Error('set either an LDAP bind DN template (direct bind) or an LDAP search base (search then bind), not both');
  }
  if (template === '' && base === '') {
    throw new Error('LDAP needs PLATFORM_LDAP_BIND_DN_TEMPLATE (direct bind, e.g. "uid={user},ou=people,dc=example,dc=org") or PLATFORM_LDAP_SEARCH_BASE (search then bind)');
  }
  let mode: LdapMode;
  if (template !== '') {
    if (!template.includes(PLACEHOLDER)) throw new Error(`LDAP bind DN template "${template}" must contain ${PLACEHOLDER}`);
    if (!/=/.test(template)) throw new Error(`LDAP bind DN template "${template}" is not a DN (no attribute=value)`);
    if (o.searchFilter || o.bindDn || o.bindPassword) {
      throw new Error('the LDAP search filter, bind DN and bind password are for search then bind; with a bind DN template leave them unset');
    }
    mode = { kind: 'direct', dnTemplate: template };
  } else {
    const filter = o.searchFilter || DEFAULT_FILTER;
    if (!filter.includes(PLACEHOLDER)) throw new Error(`LDAP search filter "${filter}" must contain ${PLACEHOLDER}`);
    try {
      FilterParser.parseString(filter.replaceAll(PLACEHOLDER, 'x'));
    } catch (err) {
      throw new Error(`LDAP search filter "${filter}" is not a valid filter: ${(err as Error).message}`, { cause: err });
    }
    const dn = o.bindDn ?? '';
    const password = o.bindPassword ?? '';
    if ((dn === '') !== (password === '')) {
      // A DN without a password would be an anonymous bind in disguise.
      throw new Error('set both the LDAP bind DN and its password (PLATFORM_LDAP_BIND_PASSWORD or _FILE), or neither for anonymous search');
    }
    mode = { kind: 'search', base, filter, service: dn === '' ? undefined : { dn, password } };
  }
  return { url: o.url, mode, startTls: o.startTls ?? false, caFile: o.caFile, timeoutMs };
}

/** A user the directory accepted. */
export interface LdapUser {
  /** The normalized name, as in the token's `name` claim. */
  name: string;
  /** The entry the user bound as. */
  dn: string;
}

export interface LdapDeps {
  clock: Clock;
  log: Logger;
}

/** LDAP result codes of a user's bind that mean "not this user with this password", not "the directory failed". */
const REFUSED_BIND_CODES = new Set([
  32, // noSuchObject
  34, // invalidDNSyntax
  48, // inappropriateAuthentication
  49, // invalidCredentials
  50, // insufficientAccessRights (e.g. an account locked by policy)
  53, // unwillingToPerform (e.g. a disabled account)
]);

export class LdapAuthenticator {
  readonly #throttle: LoginThrottle;
  readonly #host: string;

  private constructor(
    readonly options: ResolvedLdapOptions,
    private readonly ca: Buffer | undefined,
    private readonly deps: LdapDeps,
  ) {
    this.#throttle = new LoginThrottle(deps.clock);
    this.#host = new URL(options.url).hostname.replace(/^\[(.*)\]$/, '$1');
  }

  /** Checks the options (see `resolveLdapOptions`) and reads the CA file. */
  static async create(options: LdapOptions, deps: LdapDeps): Promise<LdapAuthenticator> {
    const resolved = resolveLdapOptions(options);
    let ca: Buffer | undefined;
    if (resolved.caFile !== undefined) {
      try {
        ca = await readFile(resolved.caFile);
      } catch (err) {
        throw new Error(`cannot read the LDAP CA file ${resolved.caFile}: ${(err as Error).message}`, { cause: err });
      }
    }
    const authenticator = new LdapAuthenticator(resolved, ca, deps);
    const secure = resolved.startTls || resolved.url.startsWith('ldaps:');
    const loopback = authenticator.#host === 'localhost' || authenticator.#host === '::1' || authenticator.#host.startsWith('127.');
    if (!secure && !loopback) {
      deps.log.warn('LDAP passwords go to the directory unencrypted; use ldaps:// or StartTLS', { url: resolved.url });
    }
    return authenticator;
  }

  /** For the startup log: where and how, without secrets. */
  describe(): Record<string, unknown> {
    const m = this.options.mode;
    return {
      url: this.options.url,
      mode: m.kind,
      ...(m.kind === 'direct' ? { dn_template: m.dnTemplate } : { search_base: m.base, search_filter: m.filter, service_dn: m.service?.dn ?? '(anonymous)' }),
      start_tls: this.options.startTls,
      timeout_ms: this.options.timeoutMs,
    };
  }

  /**
   * Checks `name` and `password` against the directory. Resolves with the
   * user; rejects with AuthenticationError (wrong credentials), ThrottledError
   * (too many of those lately, for the name or from address `source`) or
   * UnavailableError (the directory failed).
   */
  async authenticate(name: string, password: string, source?: string): Promise<LdapUser> {
    const normalized = normalizeLdapName(name);
    // No user has such a name, so there is nothing to protect by counting it, and
    // not counting keeps long junk names out of the throttle's memory.
    if (normalized === undefined) throw new AuthenticationError('wrong user name or password');
    return this.#throttle.attempt(normalized, async () => {
      if (password === '') throw new AuthenticationError('an empty password is never accepted');
      const client = this.#client();
      try {
        if (this.options.startTls) await client.startTLS(this.#tlsOptions());
        const dn = await this.#userDn(client, normalized);
        await this.#bindAsUser(client, dn, password);
        return { name: normalized, dn };
      } catch (err) {
        if (err instanceof PlatformError) throw err;
        this.deps.log.warn('LDAP directory failed', { url: this.options.url, user: normalized, err });
        throw new UnavailableError('the LDAP directory is not available; try again later', RETRY_AFTER_MS, { cause: err });
      } finally {
        await client.unbind().catch(() => undefined);
      }
    }, source);
  }

  #client(): Client {
    const ldaps = this.options.url.startsWith('ldaps:');
    return new Client({
      url: this.options.url,
      timeout: this.options.timeoutMs,
      connectTimeout: this.options.timeoutMs,
      // TLS options on an ldap:// client would make it connect with TLS at once, so
      // they are given only for ldaps://; StartTLS gets them when it upgrades.
      ...(ldaps ? { tlsOptions: this.#tlsOptions() } : {}),
    });
  }

  #tlsOptions(): ConnectionOptions {
    return {
      // Verified against this name: the socket given to StartTLS carries none.
      host: this.#host,
      ...(isIP(this.#host) === 0 ? { servername: this.#host } : {}),
      ...(this.ca ? { ca: this.ca } : {}),
    };
  }

  /** The DN to bind as: from the template, or the one entry that the search finds. */
  async #userDn(client: Client, name: string): Promise<string> {
    const mode = this.options.mode;
    if (mode.kind === 'direct') return mode.dnTemplate.replaceAll(PLACEHOLDER, escapeDnValue(name));
    if (mode.service) {
      try {
        await client.bind(mode.service.dn, mode.service.password);
      } catch (err) {
        if (err instanceof InvalidCredentialsError) {
          this.deps.log.error('the LDAP directory refused the service account; check PLATFORM_LDAP_BIND_DN and its password', { url: this.options.url, bind_dn: mode.service.dn });
          throw new UnavailableError('LDAP authentication is misconfigured on this cluster; the operator has been told in the log', RETRY_AFTER_MS, { cause: err });
        }
        throw err;
      }
    }
    const filter = mode.filter.replaceAll(PLACEHOLDER, escapeFilterValue(name));
    // Two at most: one is the user, two means the filter does not single anyone out.
    const { searchEntries } = await client.search(mode.base, { scope: 'sub', filter, attributes: ['1.1'], sizeLimit: 2, timeLimit: Math.ceil(this.options.timeoutMs / 1000) });
    if (searchEntries.length === 1) return searchEntries[0]!.dn;
    if (searchEntries.length > 1) {
      this.deps.log.warn('LDAP search found more than one entry for a user; refused', { user: name, filter, search_base: mode.base });
    }
    throw new AuthenticationError('wrong user name or password');
  }

  async #bindAsUser(client: Client, dn: string, password: string): Promise<void> {
    try {
      await client.bind(dn, password);
    } catch (err) {
      if (err instanceof ResultCodeError && REFUSED_BIND_CODES.has(err.code)) {
        throw new AuthenticationError('wrong user name or password', { cause: err });
      }
      throw err;
    }
  }
}
