/**
 * External OpenID Connect providers that the controller trusts, each under a name (`<idp>` in
 * /oauth2/device/<idp>/...), and the device authorization grant (RFC 8628) against them:
 *
 *   getcode    ──▶ the provider's device_authorization_endpoint ─▶ device_code, user_code, verification URL
 *   redeemed   ──▶ its token_endpoint (grant device_code) ─▶ ID token verified ─▶ the user's claims
 *   refresh    ──▶ its token_endpoint (grant refresh_token) ─▶ ID token (or userinfo) ─▶ the claims again
 *
 * The provider's endpoints come from its discovery document
 * (`<issuer>/.well-known/openid-configuration`, whose `issuer` must be the configured one), read
 * on first need and again after a failure; ID tokens are verified against its keys (jwks_uri,
 * jose's remote key set, refetched when an unknown key id shows up): signature, issuer,
 * audience (our client id), expiry.
 *
 * Every call to a provider (its discovery document, the endpoints that document names, its keys)
 * goes through the destination rule of outbound addresses (`identity providers`,
 * --allowed-destinations): loopback, link-local, metadata addresses, the controller's own... are
 * refused unless listed, judged on the address connected to (after DNS); redirects are refused.
 * A refused address is a BadGatewayError (502) naming the setting. An answer is read up to
 * MAX_ANSWER_BYTES.
 *
 * Every call to a provider has a deadline. A provider that cannot be reached or does not answer
 * in time is an UnavailableError (503, retry); one that answers something unusable a
 * BadGatewayError (502). OAuth errors of the token endpoint become the closed set of errors:
 * `authorization_pending` and `slow_down` a ThrottledError (429, try again in the interval),
 * `expired_token` a 400, `access_denied` a 403, `invalid_grant` on a refresh a 401
 * `token_invalid` (log in again).
 */
import { isIP } from 'node:net';
import { createRemoteJWKSet, customFetch, jwtVerify, errors as joseErrors, type JWTPayload } from 'jose';
import { Agent, fetch as undiciFetch } from 'undici';
import { z } from 'zod';
import { destinationRefusal, type DestinationPolicy, type Logger } from '@platform/proto/common';
import { BadGatewayError, ForbiddenError, InvalidRequestError, ThrottledError, TokenInvalidError, UnavailableError } from '../errors.js';

export interface IdpOptions {
  /** `[a-z][a-z0-9_]{0,31}`, not `basic`, `ldap` or `app`: it names the provider in paths and policy (`<name>_auth@platform`). */
  name: string;
  /** The issuer URL; `<issuer>/.well-known/openid-configuration` is its discovery document. */
  issuer: string;
  clientId: string;
  clientSecret?: string | undefined;
  /** Asked for on every device code; `openid` is always added. Default `openid email profile offline_access`. */
  scopes?: string[] | undefined;
  /** Shown to people choosing a provider (the console). Default the name. */
  displayName?: string | undefined;
  /** Bound of each call to the provider. Default 10 s. */
  timeoutMs?: number | undefined;
}

export interface ResolvedIdpOptions extends Required<Omit<IdpOptions, 'clientSecret'>> {
  clientSecret: string | undefined;
}

const NAME = /^[a-z][a-z0-9_]{0,31}$/;
const RESERVED = new Set(['basic', 'ldap', 'app', 'auth', 'server']);

/** Checks options (throws with a clear message) and fills the defaults. */
export function resolveIdpOptions(o: IdpOptions): ResolvedIdpOptions {
  if (!NAME.test(o.name) || RESERVED.has(o.name)) {
    throw new Error(`identity provider name "${o.name}": 1 to 32 of a-z, 0-9 and _, starting with a letter, and not ${[...RESERVED].join(', ')}`);
  }
  let url: URL;
  try {
    url = new URL(o.issuer);
  } catch {
    throw new Error(`identity provider ${o.name}: issuer "${o.issuer}" is not a URL`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new Error(`identity provider ${o.name}: issuer "${o.issuer}" is not http(s)`);
  if (!o.clientId) throw new Error(`identity provider ${o.name}: a client id is required`);
  const scopes = o.scopes?.length ? o.scopes : ['openid', 'email', 'profile', 'offline_access'];
  return {
    name: o.name,
    issuer: o.issuer.replace(/\/+$/, ''),
    clientId: o.clientId,
    clientSecret: o.clientSecret || undefined,
    scopes: scopes.includes('openid') ? scopes : ['openid', ...scopes],
    displayName: o.displayName || o.name,
    timeoutMs: o.timeoutMs ?? 10_000,
  };
}

const discoverySchema = z.object({
  issuer: z.string(),
  token_endpoint: z.string(),
  jwks_uri: z.string(),
  device_authorization_endpoint: z.string().optional(),
  userinfo_endpoint: z.string().optional(),
});
type Discovery = z.output<typeof discoverySchema>;

/** A URL shown to people (the console links it): http(s) only, never `javascript:` or the like. */
const webUrl = z
  .string()
  .max(2048)
  .refine((u) => /^https?:\/\//i.test(u) && URL.canParse(u), { error: 'not an http(s) URL' });

const deviceAnswerSchema = z.object({
  // Bounded as the clients send them back (device-flow.ts redeemSchema), and as they are kept.
  device_code: z.string().min(1).max(4096),
  user_code: z.string().min(1).max(64),
  verification_uri: webUrl.optional(),
  // Some providers (Google) still say verification_url, as the draft did.
  verification_url: webUrl.optional(),
  verification_uri_complete: webUrl.optional(),
  expires_in: z.number(),
  interval: z.number().optional(),
});

const tokenAnswerSchema = z.object({
  access_token: z.string().optional(),
  id_token: z.string().optional(),
  refresh_token: z.string().optional(),
  expires_in: z.number().optional(),
});

/** What a provider said of a signed-in user, as policy reads it (`<idp>_auth@platform-><attribute>`). */
export interface IdpIdentity {
  /** The user's name for the platform: the verified e-mail, else the subject. */
  name: string;
  subject: string;
  claims: Record<string, string | string[]>;
}

/** A device authorization started at the provider. */
export interface DeviceCode {
  device_code: string;
  user_code: string;
  verification_url: string;
  verification_uri_complete?: string;
  expires_in: number;
  interval: number;
}

/** Tokens a provider issued once the user signed in (or on a refresh). */
export interface IdpTokens {
  identity: IdpIdentity;
  /** The provider's refresh token; absent when it gave none. */
  refreshToken: string | undefined;
}

const RETRY_AFTER_MS = 5_000;
/** The largest answer read from a provider (discovery documents, tokens, keys are a few KiB). */
export const MAX_ANSWER_BYTES = 1024 * 1024;

/** An answer of a provider, read whole (up to MAX_ANSWER_BYTES). */
interface ProviderAnswer {
  status: number;
  headers: Headers;
  text: string;
}

export class IdentityProvider {
  readonly options: ResolvedIdpOptions;
  #discovery: Promise<Discovery> | undefined;
  #keys: ReturnType<typeof createRemoteJWKSet> | undefined;
  /** One connection pool per host:port, its sockets' lookups judged by the rule for that port. */
  readonly #pools = new Map<string, Agent>();

  constructor(
    options: IdpOptions,
    private readonly log: Logger,
    /** The rule of the addresses a provider may be reached at. */
    private readonly destinations: DestinationPolicy,
  ) {
    this.options = resolveIdpOptions(options);
  }

  get name(): string {
    return this.options.name;
  }

  /** For the startup log and GET /oauth2/providers: no secrets. */
  describe(): { name: string; display_name: string; issuer: string; device_flow: boolean } {
    return { name: this.options.name, display_name: this.options.displayName, issuer: this.options.issuer, device_flow: true };
  }

  /** The discovery document, read once (again after a failure). */
  #discover(): Promise<Discovery> {
    const attempt = (this.#discovery ??= (async () => {
      const doc = discoverySchema.safeParse(await this.#fetchJson(`${this.options.issuer}/.well-known/openid-configuration`, { method: 'GET' }, 'its discovery document'));
      if (!doc.success) throw new BadGatewayError(`identity provider ${this.name} answered a discovery document without issuer, token_endpoint or jwks_uri`);
      if (doc.data.issuer.replace(/\/+$/, '') !== this.options.issuer) {
        throw new BadGatewayError(`identity provider ${this.name}: its discovery document names issuer ${doc.data.issuer}, not the configured ${this.options.issuer}`);
      }
      return doc.data;
    })());
    attempt.catch(() => {
      if (this.#discovery === attempt) this.#discovery = undefined;
    });
    return attempt;
  }

  /**
   * A request to `url` through the destination rule (a literal address judged here, a name at
   * connection time), without redirects, its answer read up to MAX_ANSWER_BYTES. Throws the
   * network's errors (a refusal among them) as they come; see #call.
   */
  async #request(url: string, init: RequestInit): Promise<ProviderAnswer> {
    const target = URL.canParse(url) ? new URL(url) : undefined;
    if (target?.protocol !== 'https:' && target?.protocol !== 'http:') throw new BadGatewayError(`identity provider ${this.name} named a URL that is not http(s): ${url.slice(0, 200)}`);
    const port = Number(target.port || (target.protocol === 'https:' ? 443 : 80));
    const host = target.hostname.replace(/^\[(.*)\]$/, '$1');
    if (isIP(host)) this.destinations.connectOptions(host, port);
    const key = `${host}:${port}`;
    let pool = this.#pools.get(key);
    if (!pool) this.#pools.set(key, (pool = new Agent({ connect: { lookup: this.destinations.lookupFor(port) } })));
    const res = await undiciFetch(url, {
      method: init.method ?? 'GET',
      headers: init.headers as Record<string, string> | undefined,
      body: init.body as string | undefined,
      redirect: 'error',
      signal: init.signal ?? null,
      dispatcher: pool,
    });
    const parts: Buffer[] = [];
    let size = 0;
    for await (const chunk of res.body ?? []) {
      size += (chunk as Uint8Array).length;
      if (size > MAX_ANSWER_BYTES) {
        await res.body?.cancel().catch(() => undefined);
        throw new BadGatewayError(`identity provider ${this.name} answered more than ${MAX_ANSWER_BYTES} bytes`);
      }
      parts.push(Buffer.from(chunk as Uint8Array));
    }
    return { status: res.status, headers: new Headers([...res.headers]), text: Buffer.concat(parts).toString('utf8') };
  }

  /** A call to the provider with its deadline; its JSON answer, with the status. */
  async #call(url: string, init: RequestInit, what: string): Promise<{ status: number; body: unknown }> {
    let answer: ProviderAnswer;
    try {
      answer = await this.#request(url, { ...init, signal: AbortSignal.timeout(this.options.timeoutMs) });
    } catch (err) {
      if (err instanceof BadGatewayError) throw err;
      const refused = destinationRefusal(err);
      if (refused) {
        this.log.warn('identity provider address refused', { idp: this.name, url, what, err: refused.message });
        throw new BadGatewayError(`identity provider ${this.name} may not be reached (${what}): ${refused.message}`, { cause: err, details: { refused: refused.reason } });
      }
      const why = (err as Error).name === 'TimeoutError' ? `no answer within ${this.options.timeoutMs} ms` : ((err as { cause?: { code?: string } }).cause?.code ?? (err as Error).message);
      this.log.warn('identity provider not reachable', { idp: this.name, url, what, err: why });
      throw new UnavailableError(`identity provider ${this.name} is not reachable (${what}: ${why}); try again later`, RETRY_AFTER_MS, { cause: err });
    }
    const res = answer;
    let body: unknown;
    try {
      body = JSON.parse(answer.text);
    } catch {
      this.log.warn('identity provider answered something that is not JSON', { idp: this.name, url, what, status: res.status });
      throw new BadGatewayError(`identity provider ${this.name} answered ${what} with HTTP ${res.status} and no JSON`);
    }
    return { status: res.status, body };
  }

  async #fetchJson(url: string, init: RequestInit, what: string): Promise<unknown> {
    const { status, body } = await this.#call(url, init, what);
    if (status >= 400) throw new BadGatewayError(`identity provider ${this.name} answered ${what} with HTTP ${status}`);
    return body;
  }

  /** Client authentication: HTTP Basic with the secret (client_secret_basic), else the client id in the form. */
  #clientAuth(form: URLSearchParams): Record<string, string> {
    if (this.options.clientSecret === undefined) {
      form.set('client_id', this.options.clientId);
      return {};
    }
    const enc = (s: string) => encodeURIComponent(s);
    return { authorization: `Basic ${Buffer.from(`${enc(this.options.clientId)}:${enc(this.options.clientSecret)}`).toString('base64')}` };
  }

  #post(url: string, form: URLSearchParams, what: string): Promise<{ status: number; body: unknown }> {
    const headers = { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json', ...this.#clientAuth(form) };
    return this.#call(url, { method: 'POST', headers, body: form.toString() }, what);
  }

  /** Starts a device authorization; `scope` (the client's) adds to the configured scopes. */
  async deviceCode(scope: string | undefined): Promise<DeviceCode> {
    const doc = await this.#discover();
    if (!doc.device_authorization_endpoint) throw new BadGatewayError(`identity provider ${this.name} offers no device authorization (no device_authorization_endpoint)`);
    const scopes = new Set([...this.options.scopes, ...(scope ?? '').split(/\s+/).filter((s) => /^[\x21\x23-\x5B\x5D-\x7E]+$/.test(s))]);
    const form = new URLSearchParams({ scope: [...scopes].join(' ') });
    const { status, body } = await this.#post(doc.device_authorization_endpoint, form, 'the device code');
    if (status >= 400) {
      const e = oauthError(body);
      this.log.warn('identity provider refused a device code', { idp: this.name, status, error: e.error, description: e.description });
      throw new BadGatewayError(`identity provider ${this.name} refused the device code: ${e.error ?? `HTTP ${status}`}${e.description ? ` (${e.description})` : ''}`);
    }
    const answer = deviceAnswerSchema.safeParse(body);
    const url = answer.success ? (answer.data.verification_uri ?? answer.data.verification_url) : undefined;
    if (!answer.success || !url) {
      const problem = answer.success ? 'no verification_uri' : answer.error.issues.map((i) => `${i.path.join('.') || 'the answer'}: ${i.message}`).join('; ');
      throw new BadGatewayError(`identity provider ${this.name} answered an unusable device code (${problem}); it needs device_code, user_code, an http(s) verification_uri and expires_in`);
    }
    const a = answer.data;
    return {
      device_code: a.device_code,
      user_code: a.user_code,
      verification_url: url,
      ...(a.verification_uri_complete ? { verification_uri_complete: a.verification_uri_complete } : {}),
      expires_in: a.expires_in,
      interval: a.interval ?? 5,
    };
  }

  /** Polls for the tokens of a device code; throws as the file comment says while there are none. */
  async redeem(deviceCode: string): Promise<IdpTokens> {
    const doc = await this.#discover();
    const form = new URLSearchParams({ grant_type: 'urn:ietf:params:oauth:grant-type:device_code', device_code: deviceCode });
    return this.#tokens(doc, await this.#post(doc.token_endpoint, form, 'the device code\'s tokens'), 'device');
  }

  /** New tokens for the provider's refresh token: the user as the provider knows them now. */
  async refresh(refreshToken: string): Promise<IdpTokens> {
    const doc = await this.#discover();
    const form = new URLSearchParams({ grant_type: 'refresh_token', refresh_token: refreshToken });
    const tokens = await this.#tokens(doc, await this.#post(doc.token_endpoint, form, 'a refresh'), 'refresh');
    return { ...tokens, refreshToken: tokens.refreshToken ?? refreshToken };
  }

  async #tokens(doc: Discovery, reply: { status: number; body: unknown }, grant: 'device' | 'refresh'): Promise<IdpTokens> {
    if (reply.status >= 400) throw this.#grantError(reply, grant);
    const answer = tokenAnswerSchema.safeParse(reply.body);
    if (!answer.success) throw new BadGatewayError(`identity provider ${this.name} answered tokens that are not an OAuth token answer`);
    const { id_token: idToken, access_token: accessToken, refresh_token: refreshToken } = answer.data;
    let claims: JWTPayload;
    if (idToken) claims = await this.#verify(doc, idToken);
    else if (accessToken && doc.userinfo_endpoint) claims = await this.#userinfo(doc.userinfo_endpoint, accessToken);
    else throw new BadGatewayError(`identity provider ${this.name} answered no ID token (is openid among its scopes?)`);
    return { identity: identityOf(claims), refreshToken };
  }

  #grantError(reply: { status: number; body: unknown }, grant: 'device' | 'refresh'): Error {
    const { error, description } = oauthError(reply.body);
    const details = { error: error ?? 'unknown' };
    switch (error) {
      case 'authorization_pending':
        return new ThrottledError('the user has not signed in at the identity provider yet; poll again after the interval', 5_000, { details });
      case 'slow_down':
        return new ThrottledError('polling too fast: wait 5 s more between polls (RFC 8628 slow_down)', 10_000, { details });
      case 'expired_token':
        return new InvalidRequestError('the device code has expired; start again with getcode', { details });
      case 'access_denied':
        return new ForbiddenError(`the user declined the sign-in at identity provider ${this.name}`, [], { details });
      case 'invalid_grant':
        if (grant === 'refresh') return new TokenInvalidError(`identity provider ${this.name} no longer accepts this refresh token (revoked or expired); log in again`, { details });
        return new InvalidRequestError(`identity provider ${this.name} does not know this device code, or it was used already; start again with getcode`, { details });
      default:
        this.log.warn('identity provider refused a token request', { idp: this.name, status: reply.status, error, description });
        return new BadGatewayError(`identity provider ${this.name} refused the token request: ${error ?? `HTTP ${reply.status}`}${description ? ` (${description})` : ''}`);
    }
  }

  async #verify(doc: Discovery, idToken: string): Promise<JWTPayload> {
    this.#keys ??= createRemoteJWKSet(new URL(doc.jwks_uri), {
      timeoutDuration: this.options.timeoutMs,
      cooldownDuration: 30_000,
      // Through the destination rule, bounded, as every other call to the provider.
      [customFetch]: async (url, init) => {
        const answer = await this.#request(url, init);
        return new Response(answer.text, { status: answer.status, headers: answer.headers });
      },
    });
    try {
      const { payload } = await jwtVerify(idToken, this.#keys, { issuer: doc.issuer, audience: this.options.clientId, requiredClaims: ['sub', 'exp', 'iat'] });
      return payload;
    } catch (err) {
      const refused = destinationRefusal(err);
      if (refused) throw new BadGatewayError(`identity provider ${this.name} may not be reached (its keys): ${refused.message}`, { cause: err, details: { refused: refused.reason } });
      if (err instanceof joseErrors.JWKSTimeout) throw new UnavailableError(`identity provider ${this.name} did not answer its keys in time; try again later`, RETRY_AFTER_MS, { cause: err });
      this.log.warn('an ID token of the identity provider did not verify', { idp: this.name, err: (err as Error).message });
      throw new BadGatewayError(`identity provider ${this.name} answered an ID token that does not verify: ${(err as Error).message}`, { cause: err });
    }
  }

  async #userinfo(url: string, accessToken: string): Promise<JWTPayload> {
    const body = await this.#fetchJson(url, { method: 'GET', headers: { authorization: `Bearer ${accessToken}`, accept: 'application/json' } }, 'userinfo');
    if (typeof body !== 'object' || body === null || typeof (body as { sub?: unknown }).sub !== 'string') throw new BadGatewayError(`identity provider ${this.name} answered userinfo without a subject`);
    return body as JWTPayload;
  }
}

function oauthError(body: unknown): { error?: string; description?: string } {
  if (typeof body !== 'object' || body === null) return {};
  const b = body as { error?: unknown; error_description?: unknown };
  return {
    ...(typeof b.error === 'string' ? { error: b.error } : {}),
    ...(typeof b.error_description === 'string' ? { description: b.error_description.slice(0, 200) } : {}),
  };
}

/** The claims policy reads, from a verified ID token (or userinfo). */
export function identityOf(claims: JWTPayload): IdpIdentity {
  const subject = String(claims.sub);
  const out: Record<string, string | string[]> = { sub: subject };
  const email = typeof claims['email'] === 'string' ? claims['email'].toLowerCase() : undefined;
  // An e-mail the provider says it has not verified is no one's proof of identity.
  const verified = email !== undefined && claims['email_verified'] !== false && claims['email_verified'] !== 'false';
  if (email && verified) {
    out['email'] = email;
    out['email_domain'] = email.slice(email.lastIndexOf('@') + 1);
  }
  if (typeof claims.iss === 'string') out['issuer'] = claims.iss;
  for (const key of ['preferred_username', 'name'] as const) if (typeof claims[key] === 'string') out[key] = claims[key];
  const groups = claims['groups'];
  if (Array.isArray(groups)) out['group'] = groups.filter((g): g is string => typeof g === 'string').slice(0, 256);
  else if (typeof groups === 'string') out['group'] = [groups];
  return { name: (out['email'] as string | undefined) ?? subject, subject, claims: out };
}

/**
 * One provider from the controller's `--idp` flag: comma-separated `key=value` pairs, keys
 * `name`, `issuer`, `client-id`, `client-secret-file` (or `client-secret`), `scopes`
 * (space-separated), `display-name`, `timeout-ms`. `readFile` reads the secret's file.
 */
export function parseIdpFlag(text: string, readFile: (path: string) => string): IdpOptions {
  const fields = new Map<string, string>();
  for (const part of text.split(',')) {
    const eq = part.indexOf('=');
    if (eq <= 0) throw new Error(`--idp "${text}": "${part}" is not key=value`);
    const key = part.slice(0, eq).trim();
    if (fields.has(key)) throw new Error(`--idp "${text}": ${key} is given twice`);
    fields.set(key, part.slice(eq + 1).trim());
  }
  const known = new Set(['name', 'issuer', 'client-id', 'client-secret', 'client-secret-file', 'scopes', 'display-name', 'timeout-ms']);
  for (const key of fields.keys()) if (!known.has(key)) throw new Error(`--idp: unknown key "${key}"; keys are ${[...known].join(', ')}`);
  return idpOptionsOf({
    name: fields.get('name'),
    issuer: fields.get('issuer'),
    client_id: fields.get('client-id'),
    client_secret: fields.get('client-secret'),
    client_secret_file: fields.get('client-secret-file'),
    scopes: fields.get('scopes'),
    display_name: fields.get('display-name'),
    timeout_ms: fields.has('timeout-ms') ? Number(fields.get('timeout-ms')) : undefined,
  }, readFile, '--idp');
}

/** The providers of an `--idp-file` (PLATFORM_IDP_FILE): a JSON array of {name, issuer, client_id, client_secret | client_secret_file, scopes, display_name, timeout_ms}. */
export function parseIdpFile(text: string, readFile: (path: string) => string, where: string): IdpOptions[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (err) {
    throw new Error(`${where} is not JSON: ${(err as Error).message}`, { cause: err });
  }
  if (!Array.isArray(parsed)) throw new Error(`${where} must hold a JSON array of identity providers`);
  return parsed.map((p, i) => {
    if (typeof p !== 'object' || p === null) throw new Error(`${where}[${i}] is not an object`);
    return idpOptionsOf(p as Record<string, unknown>, readFile, `${where}[${i}]`);
  });
}

function idpOptionsOf(p: Record<string, unknown>, readFile: (path: string) => string, where: string): IdpOptions {
  const text = (key: string): string | undefined => {
    const v = p[key];
    if (v === undefined || v === '') return undefined;
    if (typeof v !== 'string') throw new Error(`${where}: ${key} must be a string`);
    return v;
  };
  const name = text('name');
  const issuer = text('issuer');
  const clientId = text('client_id');
  if (!name || !issuer || !clientId) throw new Error(`${where}: name, issuer and client id are required`);
  let clientSecret = text('client_secret');
  const secretFile = text('client_secret_file');
  if (secretFile !== undefined) {
    if (clientSecret !== undefined) throw new Error(`${where}: give the client secret or its file, not both`);
    try {
      clientSecret = readFile(secretFile).replace(/\r?\n$/, '');
    } catch (err) {
      throw new Error(`${where}: cannot read the client secret file ${secretFile}: ${(err as Error).message}`, { cause: err });
    }
  }
  const scopes = p['scopes'];
  const timeout = p['timeout_ms'];
  if (timeout !== undefined && (typeof timeout !== 'number' || !Number.isInteger(timeout) || timeout < 100 || timeout > 120_000)) {
    throw new Error(`${where}: timeout_ms must be a whole number of ms from 100 to 120000`);
  }
  const options: IdpOptions = {
    name,
    issuer,
    clientId,
    clientSecret,
    scopes: typeof scopes === 'string' ? scopes.split(/\s+/).filter(Boolean) : Array.isArray(scopes) ? scopes.map(String) : undefined,
    displayName: text('display_name'),
    timeoutMs: timeout as number | undefined,
  };
  resolveIdpOptions(options);
  return options;
}
