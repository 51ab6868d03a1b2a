/**
 * Authentication of API requests: every request carries `Authorization: Bearer
 * <token>`, except the token endpoint itself, the Prometheus scrape at
 * /metrics, the OpenAPI document at /openapi.json, the client's downloads (/cli/download/...), and the stager API under /stager/<token>. A missing, malformed, forged or expired token, or one whose user is
 * gone (a user deleted and created again under the same name is another account) or has changed password since, is
 * refused with 401 and `token_invalid`.
 *
 * LDAP users are not looked up on every request (that would put the directory
 * in the path of every API call): an LDAP token is good until it expires, as
 * long as LDAP authentication is still configured on this controller. A user
 * removed or disabled in the directory keeps API access for at most the token
 * lifetime.
 */
import type { Middleware } from 'koa';
import type { ApiState } from '../api/endpoint.js';
import { TokenInvalidError } from '../errors.js';
import { lastingCaller, type Caller } from '../policy/engine.js';
import type { TokenClaims, TokenService } from './tokens.js';
import type { UserService } from './users.js';

/** Served without a token: the Prometheus scrape, the token endpoint, the API's OpenAPI document, the client's downloads. */
const PUBLIC = (path: string) =>
  path === '/metrics' || path === '/openapi.json' || path.startsWith('/oauth2/') || path.startsWith('/cli/download/') || path.startsWith('/apc/download/');
/** The stager API: its token in the path (STAGER_URL) is the stager's credential. */
const STAGER_API = (path: string) => path.startsWith('/stager/');

/**
 * The caller of a verified token's claims: one object per claims object (the token service
 * remembers verified claims, so a client's requests with one token share it), marked lasting so
 * that policy remembers its decisions for it by the object (policy/engine.ts).
 */
const CALLERS = new WeakMap<TokenClaims, Caller>();
function callerOf(claims: TokenClaims): Caller {
  let caller = CALLERS.get(claims);
  if (!caller) {
    const made: Caller = { name: claims.name, mechanism: claims.mechanism, principal: claims.sub, ...(claims.attrs ? { claims: claims.attrs } : {}) };
    CALLERS.set(claims, (caller = lastingCaller(made)));
  }
  return caller;
}

/** The last header whose token a connection presented, with its verified claims. */
const LAST_TOKEN = new WeakMap<object, { header: string; claims: TokenClaims }>();
const BEARER = /^bearer /i;

export interface AuthenticateOptions {
  ldapEnabled?: boolean;
  /** The identity providers configured now: a token of one no longer configured is refused. */
  identityProviders?: ReadonlySet<string>;
  /** App tokens (auth/app-tokens.ts): why a job's token is no longer good, or undefined when it is. */
  appTokenProblem?: (claims: TokenClaims) => Promise<string | undefined>;
}

export function authenticate(tokens: TokenService, users: UserService, options: AuthenticateOptions = {}): Middleware<ApiState> {
  return async (ctx, next) => {
    const path = ctx.path;
    if (PUBLIC(path) || STAGER_API(path)) return next();
    const header = ctx.get('Authorization');
    if (!header) throw new TokenInvalidError('this request needs "Authorization: Bearer <token>"; get a token from POST /v1/oauth2/token');
    // The token's form is checked in full when it is first verified; a remembered
    // token is found only by its exact text.
    if (header.length < 8 || !BEARER.test(header)) {
      throw new TokenInvalidError('the Authorization header is not "Bearer <token>"');
    }
    // A keep-alive connection sends the same header again and again: its last verified header is
    // compared as text (no parsing, no hashing of the token for the cache), expiry checked anew.
    const socket = ctx.req.socket;
    const last = LAST_TOKEN.get(socket);
    let claims: TokenClaims;
    if (last !== undefined && last.header === header && tokens.unexpired(last.claims)) claims = last.claims;
    else {
      const token = header.slice(7).trim();
      claims = tokens.remembered(token) ?? (await tokens.verify(token));
      LAST_TOKEN.set(socket, { header, claims });
    }
    if (claims.mechanism === 'basic') {
      const user = users.get(claims.name);
      // The account, not the name: a user deleted and created again is another account.
      if (!user || (user.account ?? '') !== (claims.acc ?? '')) throw new TokenInvalidError(`the user "${claims.name}" of this token no longer exists`);
      if ((user.generation ?? 0) !== (claims.gen ?? 0)) {
        throw new TokenInvalidError('the password of this token\'s user has changed since it was issued; get a new token');
      }
    }
    if (claims.mechanism === 'ldap' && !options.ldapEnabled) {
      throw new TokenInvalidError('this token is from LDAP authentication, which is no longer configured on this cluster');
    }
    if (claims.mechanism === 'app') {
      const problem = options.appTokenProblem ? await options.appTokenProblem(claims) : 'app tokens are not served here';
      if (problem !== undefined) throw new TokenInvalidError(problem);
    } else if (claims.mechanism !== 'basic' && claims.mechanism !== 'ldap' && !options.identityProviders?.has(claims.mechanism)) {
      throw new TokenInvalidError(`this token is from identity provider ${claims.mechanism}, which is not configured on this cluster`);
    }
    ctx.state.principal = claims.sub;
    ctx.state.user = callerOf(claims);
    await next();
  };
}
