/**
 * The authentication host's endpoints: the token endpoint and user management.
 *
 * Which mechanism a token request uses follows the Host: `basicauth.<domain>`
 * is basic, `ldapauth.<domain>` is LDAP, and on the legacy `auth.<domain>` (or
 * the plain listen address) the form field `grant_type` picks `basic` (the
 * default) or `ldap_basic`.
 */
import { parse as parseQuery } from 'node:querystring';
import { z } from 'zod';
import { PLAIN_JSON } from '../api/media.js';
import { parseInput } from '../model/validate.js';
import { readBodyText, readJsonObject } from '../api/body.js';
import { sendEmpty, sendPlainJson, type ApiContext, type Endpoint } from '../api/endpoint.js';
import type { AuditTrail } from '../context.js';
import { AuthenticationError, InvalidRequestError, ThrottledError } from '../errors.js';
import { authorize, authorizeTokenIssue } from '../policy/access.js';
import { AUTH_REALM } from '../policy/permissions.js';
import type { PolicyService } from '../policy/policy-service.js';
import { ldapPrincipalOf, normalizeLdapName, type LdapAuthenticator } from './ldap.js';
import type { LoginRefusals } from './login-refusals.js';
import type { TokenService } from './tokens.js';
import { principalOf, UserService } from './users.js';

const FORM_LIMIT = 16 * 1024;

/** What the token endpoint answers. */
const tokenResponseSchema = z.object({ access_token: z.string(), expires_in: z.string(), token_type: z.string() });

/** The token request's form (`application/x-www-form-urlencoded`); the credentials are in the Basic header. */
export const tokenFormSchema = z.object({
  grant_type: z
    .enum(['basic', 'ldap_basic', ''], { error: (i) => `"${String(i.input)}" is not one of basic, ldap_basic` })
    .optional(),
});

/** The body of PUT /users/{name}. */
export const userPasswordSchema = z.object({ password: z.string({ error: 'expected a string' }) });

function mechanismFor(ctx: ApiContext, domain: string, grantType: string | undefined): 'basic' | 'ldap' {
  const host = ctx.hostname.toLowerCase();
  if (domain && host === `basicauth.${domain}`) return 'basic';
  if (domain && host === `ldapauth.${domain}`) return 'ldap';
  return grantType === 'ldap_basic' ? 'ldap' : 'basic';
}

async function readForm(ctx: ApiContext): Promise<z.output<typeof tokenFormSchema>> {
  const text = await readBodyText(ctx.req, FORM_LIMIT);
  if (text === '') return {};
  const parsed = parseQuery(text);
  const form = Object.fromEntries(Object.entries(parsed).map(([k, v]) => [k, Array.isArray(v) ? (v[0] ?? '') : (v ?? '')]));
  return parseInput(tokenFormSchema, form, 'token request');
}

function basicCredentials(ctx: ApiContext): { name: string; password: string } {
  const header = ctx.get('Authorization');
  const m = /^Basic\s+([A-Za-z0-9+/]+=*)$/i.exec(header);
  if (!m) throw new AuthenticationError('the token endpoint needs "Authorization: Basic <base64 of user:password>"');
  const decoded = Buffer.from(m[1]!, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon <= 0) throw new AuthenticationError('the Basic credentials are not "user:password"');
  return { name: decoded.slice(0, colon), password: decoded.slice(colon + 1) };
}

/** Managing users needs `permit update` on `auth::/`; listing them `permit read`. */
const requireUserAdmin = (ctx: ApiContext) => authorize(ctx, AUTH_REALM, 'update');

/** A password mechanism of the token endpoint: who the user is, and their principal. */
interface PasswordMechanism {
  principalOf(name: string): string;
  /** The user's canonical name and, for basic users, the password generation and account; rejects with a PlatformError. */
  authenticate(name: string, password: string, source: string): Promise<{ name: string; generation?: number; account?: string }>;
}

/**
 * Without `ldap`, LDAP requests are refused as not configured. Refused logins
 * are recorded through `refusals` (aggregated `auth.deny` records).
 */
export function authEndpoints(
  tokens: TokenService,
  users: UserService,
  audit: AuditTrail,
  refusals: LoginRefusals,
  domain: string,
  maxBodyBytes: number,
  policy: PolicyService,
  ldap?: LdapAuthenticator,
): Endpoint[] {
  const mechanisms: Record<'basic' | 'ldap', PasswordMechanism | undefined> = {
    basic: { principalOf, authenticate: (name, password, source) => users.authenticate(name, password, source) },
    ldap: ldap && {
      principalOf: (name) => ldapPrincipalOf(normalizeLdapName(name) ?? name),
      authenticate: (name, password, source) => ldap.authenticate(name, password, source),
    },
  };
  return [
    {
      method: 'POST',
      path: '/oauth2/token',
      doc: {
        summary: 'A token for a user: credentials in "Authorization: Basic"; grant_type basic (default) or ldap_basic',
        public: true,
        body: tokenFormSchema,
        bodyMedia: ['application/x-www-form-urlencoded'],
        response: tokenResponseSchema,
      },
      handler: async (ctx) => {
        const form = await readForm(ctx);
        const mechanism = mechanismFor(ctx, domain, form['grant_type']);
        const login = mechanisms[mechanism];
        if (!login) {
          throw new InvalidRequestError('LDAP authentication is not configured on this cluster');
        }
        const { name, password } = basicCredentials(ctx);
        const claimed = { principal: login.principalOf(name), requestId: ctx.state.requestId };
        let user;
        try {
          user = await login.authenticate(name, password, ctx.ip);
        } catch (err) {
          await refusals.refuse({ claimed, name, source: ctx.ip, mechanism, reason: (err as Error).message, throttled: err instanceof ThrottledError });
          throw err;
        }
        const principal = login.principalOf(user.name);
        // Policy decides whether a token is issued (permit issue on auth::/) and for how long (tokenTimeout).
        const grant = await authorizeTokenIssue(policy, audit, { name: user.name, mechanism, principal }, claimed);
        const ttl = grant.ttlSeconds;
        const gen = mechanism === 'basic' ? { gen: user.generation ?? 0, ...(user.account === undefined ? {} : { acc: user.account }) } : {};
        const token = await tokens.issue({ sub: principal, name: user.name, mechanism, ...gen }, ttl);
        const userinfo = Buffer.from(JSON.stringify({ name: user.name, principal, mechanism, expires_in: ttl, default_namespace: grant.defaultNamespace })).toString('base64');
        const secure = ctx.protocol === 'https' ? '; Secure' : '';
        ctx.append('Set-Cookie', `token=${token}; Path=/; Max-Age=${ttl}; HttpOnly; SameSite=Lax${secure}`);
        ctx.append('Set-Cookie', `userinfo=${userinfo}; Path=/; Max-Age=${ttl}; SameSite=Lax${secure}`);
        await audit.record({ ...claimed, principal }, 'auth.issue', `auth::/::${user.name}`, { mechanism, expires_in: ttl });
        ctx.state.log.info('token issued', { principal, mechanism, request_id: ctx.state.requestId });
        sendPlainJson(ctx, { access_token: token, expires_in: String(ttl), token_type: 'JWT' });
      },
    },
    {
      method: 'GET',
      path: '/users',
      doc: { summary: 'The users of basic authentication', responseMedia: [PLAIN_JSON] },
      handler: async (ctx) => {
        await authorize(ctx, AUTH_REALM, 'read');
        sendPlainJson(ctx, users.list());
      },
    },
    {
      method: 'PUT',
      path: '/users/:name',
      doc: { summary: 'Creates a user or changes its password', body: userPasswordSchema, responseMedia: [PLAIN_JSON] },
      handler: async (ctx) => {
        await requireUserAdmin(ctx);
        const name = UserService.checkName(ctx.params['name'] ?? '');
        const body = parseInput(userPasswordSchema, await readJsonObject(ctx.req, maxBodyBytes), 'user');
        const { created } = await users.setPassword(name, body.password);
        ctx.state.log.info(created ? 'user created' : 'user password changed', { user: name, request_id: ctx.state.requestId });
        sendPlainJson(ctx, users.list().find((u) => u.name === name));
      },
    },
    {
      method: 'DELETE',
      path: '/users/:name',
      doc: { summary: 'Deletes a user' },
      handler: async (ctx) => {
        await requireUserAdmin(ctx);
        const name = UserService.checkName(ctx.params['name'] ?? '');
        await users.delete(name);
        ctx.state.log.info('user deleted', { user: name, request_id: ctx.state.requestId });
        sendEmpty(ctx);
      },
    },
  ];
}
