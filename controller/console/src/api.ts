/**
 * The signed-in session: the API client with the user's token, who the user is, and what
 * policy lets them do. The token lives only in this object, in memory: never in localStorage
 * or sessionStorage, so a reload signs out. The API reads the token from the Authorization
 * header only (never from a cookie), so a page of another site cannot make the browser send a
 * request in the user's name: that header is what protects the console's requests from
 * cross-site forgery, and the page's Content-Security-Policy keeps other origins' scripts out.
 */
import { ApiError, PlatformClient, type DeviceCodeGrant, type IdentityProviderInfo, type TokenGrant } from '@platform/cli';

export { ApiError };
export type { DeviceCodeGrant, IdentityProviderInfo };

export interface UserInfo {
  name: string;
  principal: string;
  mechanism: string;
  /** Where short names resolve: the policy's default, else /sandbox/<user>. */
  defaultNamespace: string;
  /** Epoch ms when the token expires. */
  expiresAt: number;
}

/** The router's host:port, written into index.html by the controller. */
export function routerAddress(): string | undefined {
  const v = document.querySelector('meta[name="platform-router"]')?.getAttribute('content');
  return v ? v : undefined;
}

function base64Json(text: string): Record<string, unknown> | undefined {
  try {
    const b64 = text.replace(/-/g, '+').replace(/_/g, '/');
    const bytes = Uint8Array.from(atob(b64 + '='.repeat((4 - (b64.length % 4)) % 4)), (c) => c.charCodeAt(0));
    return JSON.parse(new TextDecoder().decode(bytes)) as Record<string, unknown>;
  } catch {
    return undefined;
  }
}

export type Mechanism = 'basic' | 'ldap';

/**
 * Every request of the console goes without cookies: the API does not read them, and a 401
 * with `WWW-Authenticate: Basic` (a wrong password) would otherwise make the browser open its
 * own password dialog over the page. It also leaves the `token` cookie of the token answer
 * unset, so the token is nowhere but in this page's memory.
 */
const noCookies: typeof fetch = (input, init) => fetch(input, { ...init, credentials: 'omit' });

/** Signs in at the token endpoint; answers the session, or throws the API's ApiError. */
export async function signIn(user: string, password: string, mechanism: Mechanism, onEnd: (message: string) => void): Promise<Session> {
  const anonymous = new PlatformClient({ url: location.origin, fetch: noCookies });
  return sessionOf(await anonymous.login(user, password, mechanism), user, mechanism, onEnd);
}

/** A session for a token answer (the token endpoint's or an identity provider's refresh). */
function sessionOf(grant: TokenGrant, user: string, mechanism: string, onEnd: (message: string) => void): Session {
  // The token's claims: name, principal, expiry; for display only, the API decides. (The
  // policy's default namespace comes in the `userinfo` cookie, which a request without cookies
  // does not keep: the console proposes /sandbox/<user>, and the deploy page lets it be changed.)
  const claims = base64Json(grant.access_token.split('.')[1] ?? '') ?? {};
  const info: Record<string, unknown> = grant.user ?? {};
  const name = typeof claims['name'] === 'string' ? claims['name'] : user;
  const expiresIn = Number(grant.expires_in);
  const userInfo: UserInfo = {
    name,
    principal: typeof claims['sub'] === 'string' ? claims['sub'] : name,
    mechanism,
    defaultNamespace: typeof info['default_namespace'] === 'string' && info['default_namespace'] !== '' ? info['default_namespace'] : `/sandbox/${name}`,
    expiresAt: typeof claims['exp'] === 'number' ? claims['exp'] * 1000 : Date.now() + (Number.isFinite(expiresIn) ? expiresIn * 1000 : 3_600_000),
  };
  return new Session(grant.access_token, userInfo, onEnd);
}

/** The identity providers the sign-in offers (those with the device flow); none when the API cannot say. */
export async function identityProviders(): Promise<IdentityProviderInfo[]> {
  const anonymous = new PlatformClient({ url: location.origin, fetch: noCookies });
  return (await anonymous.identityProviders()).filter((p) => p.device_flow);
}

/**
 * A sign-in at identity provider `idp` with the device flow, as `platform login --idp` does: the
 * code and the verification URL to show (`onCode`), then the controller is asked every interval
 * it gives whether the user has signed in at the provider; once they have, the refresh token the
 * controller hands out is traded for an access token. Rejects with the API's error (the code
 * expired, policy refused the user) or an AbortError when `signal` aborts (the user cancelled).
 */
export async function signInWithProvider(idp: string, onCode: (code: DeviceCodeGrant) => void, onEnd: (message: string) => void, signal: AbortSignal): Promise<Session> {
  const anonymous = new PlatformClient({ url: location.origin, fetch: (input, init) => noCookies(input, { ...init, signal }) });
  const code = await anonymous.deviceCode(idp);
  onCode(code);
  const deadline = Date.now() + code.expires_in * 1000;
  let wait = code.interval * 1000;
  for (;;) {
    await abortableDelay(wait, signal);
    try {
      const redeemed = await anonymous.redeemDeviceCode(idp, code.device_code);
      const grant = await anonymous.refreshDeviceToken(idp, redeemed.refresh_token);
      return sessionOf(grant, grant.user?.name ?? '', idp, onEnd);
    } catch (err) {
      // 429: not signed in yet (authorization_pending), or asked too soon (slow_down): wait as told.
      if (!(err instanceof ApiError) || err.status !== 429) throw err;
      wait = Math.max(wait, Number(err.body.try_again_in_ms) || wait);
      if (Date.now() + wait > deadline) throw new Error(`The code ${code.user_code} expired before the sign-in at ${idp} ended. Start again.`, { cause: err });
    }
  }
}

function abortableDelay(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason as Error);
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason as Error);
    };
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

export class Session {
  readonly client: PlatformClient;
  #ended = false;
  readonly #timer: ReturnType<typeof setTimeout>;

  constructor(
    token: string,
    readonly user: UserInfo,
    private readonly onEnd: (message: string) => void,
  ) {
    this.client = new PlatformClient({
      url: location.origin,
      token,
      fetch: async (input, init) => {
        const res = await noCookies(input, init);
        // A token the API no longer takes (expired, its user's password changed, the user gone):
        // back to the sign-in, with the API's reason.
        if (res.status === 401) {
          const body = (await res.clone().json().catch(() => ({}))) as { message?: string };
          this.end(`Your session has ended: ${body.message ?? 'the token is no longer valid'}. Sign in again.`);
        }
        return res;
      },
    });
    // Setting a timeout of more than 2^31-1 ms fires at once: clamp.
    this.#timer = setTimeout(() => this.end('Your session has expired. Sign in again.'), Math.min(2_147_483_000, Math.max(0, user.expiresAt - Date.now())));
  }

  /** The Authorization header, for the requests that the client does not make (log streams, downloads). */
  get authorization(): string {
    return `Bearer ${this.client.token ?? ''}`;
  }

  /** Ends the session (sign-out, expiry): the token is forgotten. */
  end(message = ''): void {
    if (this.#ended) return;
    this.#ended = true;
    clearTimeout(this.#timer);
    this.client.token = undefined;
    this.onEnd(message);
  }

  get ended(): boolean {
    return this.#ended;
  }

  /** The permissions the user holds on each FQN (GET /permissions), 100 FQNs a request. */
  async permissions(fqns: readonly string[]): Promise<Record<string, ReadonlySet<string>>> {
    const unique = [...new Set(fqns)];
    const answer: Record<string, ReadonlySet<string>> = {};
    for (let i = 0; i < unique.length; i += 100) {
      const part = await this.client.json<Record<string, string[]>>('GET', '/v1/permissions', { query: { fqn: unique.slice(i, i + 100) } });
      for (const [fqn, perms] of Object.entries(part)) answer[fqn] = new Set(perms);
    }
    return answer;
  }

  /** A streamed GET with the token (log tails): the Response of a 2xx, else the ApiError. */
  async stream(path: string, lastEventId: string | undefined, signal: AbortSignal): Promise<Response> {
    return this.client.request('GET', path, {
      headers: { Accept: 'text/event-stream', ...(lastEventId === undefined ? {} : { 'Last-Event-ID': lastEventId }) },
      signal,
    });
  }
}

/** The message of an error for the page: the API's own message, with its request id. */
export function errorMessage(err: unknown): string {
  if (err instanceof ApiError) return `${err.message}${err.requestId ? ` (request ${err.requestId})` : ''}`;
  if (err instanceof Error) return err.message;
  return String(err);
}
