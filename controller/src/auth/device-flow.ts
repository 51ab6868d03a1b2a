/**
 * The identity-provider device flow (spec: Authentication item 4), on the authentication host's
 * paths, without a token:
 *
 *   GET  /v1/oauth2/providers                    the providers this cluster trusts
 *   GET  /v1/oauth2/device/<idp>/getcode         {device_code, user_code, verification_url, expires_in, interval, error}
 *   POST /v1/oauth2/device/<idp>/redeemed        {device_code} -> {refresh_token, token_type: IDP_REFRESH}
 *   POST /v1/oauth2/device/<idp>/refresh         {refresh_token, token_type} -> an access token, as POST /oauth2/token
 *
 * The user opens verification_url, enters user_code and signs in at the provider; the client
 * polls `redeemed` (429 with try_again_in_ms while the user has not, see idp.ts). Policy decides
 * on both `redeemed` and `refresh` whether the user gets anything: `permit issue` on `auth::/`
 * for the provider's claims (`<idp>_auth@platform->email`, `->email_domain`, `->group`...),
 * recording `auth.allow` or `auth.deny`; `principal` may name the principal, `defaultNamespace`
 * and `tokenTimeout` apply as for every token.
 *
 * Each call an anonymous client can make the controller send to a provider without a code of
 * ours is limited per source address (DeviceSources): device codes asked for, and polls of
 * device codes this controller does not know (made up, or given out before a restart). Past the
 * limit the answer is 429 with try_again_in_ms, and the provider is not asked.
 *
 * The refresh token given to the client (IDP_REFRESH) is the provider's, sealed with the
 * controller's secrets key and bound to the provider's name: the client cannot read it, another
 * cluster or provider cannot use it, and each refresh asks the provider again, so a user the
 * provider has since removed or revoked gets no new token.
 */
import { parse as parseQuery } from 'node:querystring';
import { z } from 'zod';
import { readBodyText } from '../api/body.js';
import { queryValue, sendPlainJson, type ApiContext, type Endpoint } from '../api/endpoint.js';
import { PLAIN_JSON } from '../api/media.js';
import type { AuditTrail, ChangeContext } from '../context.js';
import { BadGatewayError, InvalidRequestError, NotFoundError, ThrottledError, TokenInvalidError } from '../errors.js';
import { parseInput } from '../model/validate.js';
import { authorizeTokenIssue } from '../policy/access.js';
import type { Caller } from '../policy/engine.js';
import type { PolicyService } from '../policy/policy-service.js';
import type { IdentityProvider, IdpIdentity } from './idp.js';
import { LruCache } from '../util/lru.js';
import { sourceKey } from './login-throttle.js';
import type { TokenService } from './tokens.js';

/** Seals and opens small values (the secrets key, secrets/secret-cipher.ts). */
export interface Sealer {
  seal(value: Buffer, context: string): unknown;
  open(sealed: unknown, context: string): Buffer;
}

const BODY_LIMIT = 16 * 1024;

/**
 * The polls of the device codes this controller handed out (RFC 8628 3.5): a client that polls
 * `redeemed` again before the interval has passed is told `slow_down` (429) without the provider
 * being asked, and must wait 5 s longer from then on; a code past its expiry is refused without
 * asking either. Kept in memory for the codes' lifetime (at most MAX_CODES); after a restart the
 * provider alone decides.
 */
export class DevicePolls {
  static readonly MAX_CODES = 10_000;
  readonly #codes = new Map<string, { intervalMs: number; nextMs: number; expiresMs: number }>();

  constructor(private readonly nowMs: () => number) {}

  issued(deviceCode: string, intervalS: number, expiresInS: number): void {
    const now = this.nowMs();
    for (const [code, c] of this.#codes) if (c.expiresMs <= now) this.#codes.delete(code);
    if (this.#codes.size >= DevicePolls.MAX_CODES) this.#codes.delete(this.#codes.keys().next().value!);
    this.#codes.set(deviceCode, { intervalMs: intervalS * 1000, nextMs: now, expiresMs: now + expiresInS * 1000 });
  }

  /** Before asking the provider: throws when the client polls too fast or the code has expired. */
  poll(deviceCode: string): void {
    const c = this.#codes.get(deviceCode);
    if (!c) return;
    const now = this.nowMs();
    if (now >= c.expiresMs) {
      this.#codes.delete(deviceCode);
      throw new InvalidRequestError('the device code has expired; start again with getcode', { details: { error: 'expired_token' } });
    }
    if (now < c.nextMs) {
      c.intervalMs += 5_000;
      c.nextMs = now + c.intervalMs;
      throw new ThrottledError(`polling too fast: wait ${c.intervalMs / 1000} s between polls of this device code (RFC 8628 slow_down)`, c.intervalMs, { details: { error: 'slow_down' } });
    }
    c.nextMs = now + c.intervalMs;
  }

  done(deviceCode: string): void {
    this.#codes.delete(deviceCode);
  }

  /** Whether the code is one this controller gave out (and has not forgotten). */
  knows(deviceCode: string): boolean {
    return this.#codes.has(deviceCode);
  }
}

/**
 * Calls to a provider that a client causes without a code of ours, counted per provider, kind
 * and source address (IPv6 by its /64, sourceKey) in windows of WINDOW_MS: at most LIMITS[kind]
 * each. So an anonymous client can neither make the controller flood a provider nor push the
 * codes it gave out of DevicePolls. Kept in memory, at most CAPACITY sources.
 */
export class DeviceSources {
  static readonly WINDOW_MS = 60_000;
  /** getcode: a person asks for one code a login; polls of unknown codes: one every 5 s, doubled. */
  static readonly LIMITS = { getcode: 10, poll: 24 } as const;
  static readonly CAPACITY = 100_000;
  readonly #counts = new LruCache<string, { count: number; startMs: number }>(DeviceSources.CAPACITY, false);

  constructor(private readonly nowMs: () => number) {}

  /** Counts a call; throws ThrottledError (nothing counted) when the source is past its limit. */
  take(idp: string, kind: keyof typeof DeviceSources.LIMITS, source: string): void {
    const key = `${idp} ${kind} ${sourceKey(source)}`;
    const now = this.nowMs();
    const c = this.#counts.get(key);
    if (!c || now - c.startMs >= DeviceSources.WINDOW_MS) {
      this.#counts.set(key, { count: 1, startMs: now });
      return;
    }
    if (c.count >= DeviceSources.LIMITS[kind]) {
      const wait = c.startMs + DeviceSources.WINDOW_MS - now;
      const what = kind === 'getcode' ? 'device codes' : 'polls of device codes this controller did not give out';
      throw new ThrottledError(`too many ${what} from this address for identity provider ${idp} (at most ${DeviceSources.LIMITS[kind]} a minute); try again in ${Math.ceil(wait / 1000)} s`, wait);
    }
    c.count++;
  }
}

export const redeemSchema = z.object({ device_code: z.string({ error: 'expected a string' }).min(1).max(4096) });
export const refreshSchema = z.object({
  refresh_token: z.string({ error: 'expected a string' }).min(1).max(16_384),
  token_type: z.literal('IDP_REFRESH', { error: 'expected "IDP_REFRESH"' }).optional(),
});

/** The principal an identity provider's user gets unless policy names another. */
export function idpPrincipalOf(idp: string, name: string): string {
  return `${name}@${idp}.platform.local`;
}

/** A JSON or form body (older clients send forms). */
async function readObject(ctx: ApiContext): Promise<Record<string, unknown>> {
  const text = await readBodyText(ctx.req, BODY_LIMIT);
  if (text.trim() === '') return {};
  if ((ctx.get('Content-Type') || '').includes('application/x-www-form-urlencoded')) {
    return Object.fromEntries(Object.entries(parseQuery(text)).map(([k, v]) => [k, Array.isArray(v) ? v[0] : v]));
  }
  try {
    const body = JSON.parse(text) as unknown;
    if (body && typeof body === 'object' && !Array.isArray(body)) return body as Record<string, unknown>;
  } catch {
    // answered below
  }
  throw new InvalidRequestError('the request body must be a JSON object (or a form)');
}

export function deviceFlowEndpoints(
  providers: ReadonlyMap<string, IdentityProvider>,
  deps: { tokens: TokenService; policy: PolicyService; audit: AuditTrail; sealer: Sealer; nowMs: () => number },
): Endpoint[] {
  const polls = new DevicePolls(deps.nowMs);
  const sources = new DeviceSources(deps.nowMs);
  const providerOf = (ctx: ApiContext): IdentityProvider => {
    const name = ctx.params['idp'] ?? '';
    const p = providers.get(name);
    if (!p) throw new NotFoundError(`no identity provider "${name.slice(0, 64)}" on this cluster; GET /v1/oauth2/providers lists them`);
    return p;
  };
  const context = (idp: string) => `idp-refresh/${idp}`;
  const sealRefresh = (idp: string, token: string) =>
    Buffer.from(JSON.stringify({ v: 1, idp, s: deps.sealer.seal(Buffer.from(token), context(idp)) })).toString('base64url');
  const openRefresh = (idp: string, text: string): string => {
    try {
      const parsed = JSON.parse(Buffer.from(text, 'base64url').toString('utf8')) as { v?: unknown; idp?: unknown; s?: unknown };
      if (parsed.v !== 1 || parsed.idp !== idp) throw new Error('another provider');
      return deps.sealer.open(parsed.s, context(idp)).toString('utf8');
    } catch (err) {
      throw new TokenInvalidError(`this refresh token is not one that this cluster gave for identity provider ${idp}; log in again`, { cause: err });
    }
  };
  /** Policy's decision for a signed-in user: the caller and its grant (throws 403 with auth.deny). */
  const decide = async (ctx: ApiContext, idp: IdentityProvider, identity: IdpIdentity) => {
    const principal = idpPrincipalOf(idp.name, identity.name);
    const caller: Caller = { name: identity.name, mechanism: idp.name, principal, claims: identity.claims };
    const change: ChangeContext = { principal, requestId: ctx.state.requestId };
    const details = { issuer: idp.options.issuer, subject: identity.subject, ...(identity.claims['email'] ? { email: identity.claims['email'] } : {}) };
    const grant = await authorizeTokenIssue(deps.policy, deps.audit, caller, change, { recordAllow: true, details });
    return { caller, grant, principal: grant.principal ?? principal, change };
  };
  return [
    {
      method: 'GET',
      path: '/oauth2/providers',
      doc: { summary: 'The identity providers users may log in with (device flow)', public: true, responseMedia: [PLAIN_JSON] },
      handler: async (ctx) => {
        sendPlainJson(ctx, [...providers.values()].map((p) => p.describe()));
      },
    },
    {
      method: 'GET',
      path: '/oauth2/device/:idp/getcode',
      doc: { summary: 'Starts a device-flow login at an identity provider', public: true, query: { scope: 'scopes to ask for besides the configured ones', grant_type: 'idp_device (the legacy host\'s form)' }, responseMedia: [PLAIN_JSON] },
      handler: async (ctx) => {
        const grantType = queryValue(ctx, 'grant_type');
        if (grantType !== undefined && grantType !== '' && grantType !== 'idp_device') throw new InvalidRequestError(`grant_type: "${grantType.slice(0, 64)}" is not idp_device`);
        const idp = providerOf(ctx);
        sources.take(idp.name, 'getcode', ctx.ip);
        const code = await idp.deviceCode(queryValue(ctx, 'scope'));
        polls.issued(code.device_code, code.interval, code.expires_in);
        ctx.state.log.info('device code issued', { idp: idp.name, request_id: ctx.state.requestId });
        sendPlainJson(ctx, { ...code, error: '' });
      },
    },
    {
      method: 'POST',
      path: '/oauth2/device/:idp/redeemed',
      doc: { summary: 'The refresh token of a device code once the user signed in (429 while not yet)', public: true, body: redeemSchema, responseMedia: [PLAIN_JSON] },
      handler: async (ctx) => {
        const idp = providerOf(ctx);
        const body = parseInput(redeemSchema, await readObject(ctx), 'redeem request');
        if (polls.knows(body.device_code)) polls.poll(body.device_code);
        else sources.take(idp.name, 'poll', ctx.ip);
        const tokens = await idp.redeem(body.device_code);
        polls.done(body.device_code);
        const { principal } = await decide(ctx, idp, tokens.identity);
        if (!tokens.refreshToken) {
          throw new BadGatewayError(`identity provider ${idp.name} gave no refresh token; add offline_access to its scopes (or the provider's own way of asking for one)`);
        }
        ctx.state.log.info('device flow redeemed', { idp: idp.name, principal, request_id: ctx.state.requestId });
        sendPlainJson(ctx, { refresh_token: sealRefresh(idp.name, tokens.refreshToken), token_type: 'IDP_REFRESH' });
      },
    },
    {
      method: 'POST',
      path: '/oauth2/device/:idp/refresh',
      doc: { summary: 'An access token for an IDP_REFRESH token (the provider is asked again)', public: true, body: refreshSchema, responseMedia: [PLAIN_JSON] },
      handler: async (ctx) => {
        const idp = providerOf(ctx);
        const body = parseInput(refreshSchema, await readObject(ctx), 'refresh request');
        const tokens = await idp.refresh(openRefresh(idp.name, body.refresh_token));
        const { caller, grant, principal, change } = await decide(ctx, idp, tokens.identity);
        const ttl = grant.ttlSeconds;
        const token = await deps.tokens.issue({ sub: principal, name: caller.name, mechanism: idp.name, attrs: tokens.identity.claims as Record<string, string | string[]> }, ttl);
        const userinfo = Buffer.from(JSON.stringify({ name: caller.name, principal, mechanism: idp.name, expires_in: ttl, default_namespace: grant.defaultNamespace })).toString('base64');
        const secure = ctx.protocol === 'https' ? '; Secure' : '';
        ctx.append('Set-Cookie', `token=${token}; Path=/; Max-Age=${ttl}; HttpOnly; SameSite=Lax${secure}`);
        ctx.append('Set-Cookie', `userinfo=${userinfo}; Path=/; Max-Age=${ttl}; SameSite=Lax${secure}`);
        await deps.audit.record({ ...change, principal }, 'auth.issue', `auth::/::${caller.name}`, { mechanism: idp.name, expires_in: ttl });
        ctx.state.log.info('token issued', { principal, mechanism: idp.name, request_id: ctx.state.requestId });
        sendPlainJson(ctx, { access_token: token, expires_in: String(ttl), token_type: 'JWT', refresh_token: sealRefresh(idp.name, tokens.refreshToken!) });
      },
    },
  ];
}
