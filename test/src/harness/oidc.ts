/**
 * A real OpenID Connect provider for tests (the `oidc-provider` package) on 127.0.0.1, with the
 * device authorization grant, one confidential client for the controller, and accounts the test
 * names. `signIn` plays the user's browser at the verification URL: it confirms the user code,
 * signs in as an account and consents, following the provider's forms and cookies as a browser
 * would.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair } from 'jose';
import Provider from 'oidc-provider';

export interface TestAccount {
  email: string;
  email_verified?: boolean;
  groups?: string[];
}

export interface TestIdpOptions {
  accounts: Record<string, TestAccount>;
  /** Lifetime of device codes, seconds (changeable later through `deviceCodeTtl`). Default 600. */
  deviceCodeTtl?: number;
}

export class TestIdp {
  readonly clientId = 'platform-controller';
  readonly clientSecret = 'a-client-secret-of-the-test-provider';
  /** Lifetime of the device codes issued from now on, seconds. */
  deviceCodeTtl: number;
  /** Grants made by sign-ins, by account. */
  readonly #grants = new Map<string, string[]>();

  private constructor(
    readonly server: Server,
    readonly issuer: string,
    readonly provider: Provider,
    options: TestIdpOptions,
  ) {
    this.deviceCodeTtl = options.deviceCodeTtl ?? 600;
  }

  static async start(options: TestIdpOptions): Promise<TestIdp> {
    let handler: (req: IncomingMessage, res: ServerResponse) => void = (_req, res) => res.end();
    const server = createServer((req, res) => handler(req, res));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const { privateKey } = await generateKeyPair('RS256', { extractable: true });
    const jwk = { ...(await exportJWK(privateKey)), kid: 'test-key', alg: 'RS256', use: 'sig' };
    const holder: { idp?: TestIdp } = {};
    const provider = new Provider(issuer, {
      clients: [
        {
          client_id: 'platform-controller',
          client_secret: 'a-client-secret-of-the-test-provider',
          grant_types: ['urn:ietf:params:oauth:grant-type:device_code', 'refresh_token'],
          response_types: [],
          redirect_uris: [],
          token_endpoint_auth_method: 'client_secret_basic',
        },
      ],
      jwks: { keys: [jwk] },
      cookies: { keys: ['test-cookie-key-0123456789'] },
      features: { deviceFlow: { enabled: true }, devInteractions: { enabled: false }, revocation: { enabled: true } },
      scopes: ['openid', 'email', 'profile', 'groups', 'offline_access'],
      claims: { openid: ['sub'], email: ['email', 'email_verified'], groups: ['groups'], profile: ['name'] },
      conformIdTokenClaims: false,
      ttl: { DeviceCode: () => holder.idp?.deviceCodeTtl ?? 600, IdToken: 3600, AccessToken: 3600, RefreshToken: 86400, Grant: 86400, Interaction: 600, Session: 3600 },
      findAccount: (_ctx, id) => {
        const account = options.accounts[id];
        if (!account) return undefined;
        return { accountId: id, claims: () => ({ sub: id, email: account.email, email_verified: account.email_verified ?? true, groups: account.groups ?? [], name: id }) };
      },
      interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
    });
    const idp = new TestIdp(server, issuer, provider, options);
    holder.idp = idp;
    const callback = provider.callback();
    handler = (req, res) => {
      const login = /^\/interaction\/([^/]+)\/login$/.exec(req.url ?? '');
      if (login && req.method === 'POST') {
        idp.#finishLogin(req, res).catch((err: unknown) => {
          res.statusCode = 500;
          res.end(String(err));
        });
        return;
      }
      callback(req, res);
    };
    return idp;
  }

  /** The interaction's login and consent, as the account the browser posts. */
  async #finishLogin(req: IncomingMessage, res: ServerResponse): Promise<void> {
    let body = '';
    for await (const chunk of req) body += String(chunk);
    const accountId = new URLSearchParams(body).get('account') ?? '';
    const details = await this.provider.interactionDetails(req, res);
    const grant = new this.provider.Grant({ accountId, clientId: String(details.params['client_id']) });
    grant.addOIDCScope(String(details.params['scope'] ?? 'openid'));
    const grantId = await grant.save();
    this.#grants.set(accountId, [...(this.#grants.get(accountId) ?? []), grantId]);
    await this.provider.interactionFinished(req, res, { login: { accountId }, consent: { grantId } }, { mergeWithLastSubmission: false });
  }

  /** Revokes every grant of `account`, with its refresh tokens (as an administrator of the provider would). */
  async revoke(account: string): Promise<void> {
    for (const grantId of this.#grants.get(account) ?? []) {
      await this.provider.RefreshToken.revokeByGrantId(grantId);
      await this.provider.AccessToken.revokeByGrantId(grantId);
      const grant = await this.provider.Grant.find(grantId);
      await grant?.destroy();
    }
  }

  /**
   * Plays the user's browser: opens `verificationUri` (the complete one, with the user code),
   * confirms the code, and signs in as `account`. Resolves once the provider shows its success
   * page; rejects with what it showed otherwise.
   */
  async signIn(verificationUri: string, account: string): Promise<void> {
    const browser = new Browser();
    let page = await browser.go(verificationUri);
    // The provider's auto-submitting form with the code, then its confirmation form.
    for (let i = 0; i < 2; i++) {
      const form = formOf(page.text);
      if (!form) throw new Error(`the verification page has no form: ${page.text.slice(0, 500)}`);
      page = await browser.go(new URL(form.action, page.url).href, form.fields);
    }
    if (!page.url.includes('/interaction/')) throw new Error(`the provider did not ask to sign in: ${page.url} ${page.text.slice(0, 500)}`);
    page = await browser.go(`${page.url.replace(/\/$/, '')}/login`, { account });
    if (!/Sign-in Success/.test(page.text)) throw new Error(`the provider did not confirm the sign-in: ${page.status} ${page.text.slice(0, 500)}`);
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

/** A cookie jar and manual redirects: just enough browser for the provider's pages. */
class Browser {
  readonly #cookies = new Map<string, string>();

  async go(url: string, form?: Record<string, string>): Promise<{ url: string; status: number; text: string }> {
    let next = url;
    let body: string | undefined = form ? new URLSearchParams(form).toString() : undefined;
    for (let hops = 0; hops < 20; hops++) {
      const headers: Record<string, string> = { cookie: [...this.#cookies].map(([k, v]) => `${k}=${v}`).join('; ') };
      if (body !== undefined) headers['content-type'] = 'application/x-www-form-urlencoded';
      const res = await fetch(next, { method: body === undefined ? 'GET' : 'POST', headers, redirect: 'manual', ...(body === undefined ? {} : { body }) });
      for (const c of res.headers.getSetCookie()) {
        const [pair] = c.split(';');
        const eq = pair!.indexOf('=');
        this.#cookies.set(pair!.slice(0, eq).trim(), pair!.slice(eq + 1).trim());
      }
      const location = res.headers.get('location');
      if (res.status >= 300 && res.status < 400 && location) {
        await res.arrayBuffer();
        next = new URL(location, next).href;
        body = undefined;
        continue;
      }
      return { url: next, status: res.status, text: await res.text() };
    }
    throw new Error(`too many redirects from ${url}`);
  }
}

/** The first form of a page: its action and hidden fields. */
function formOf(html: string): { action: string; fields: Record<string, string> } | undefined {
  const form = /<form[^>]*action="([^"]*)"[^>]*>([\s\S]*?)<\/form>/.exec(html);
  if (!form) return undefined;
  const fields: Record<string, string> = {};
  for (const m of form[2]!.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)"\/>/g)) fields[m[1]!] = unescapeHtml(m[2]!);
  return { action: unescapeHtml(form[1]!), fields };
}

function unescapeHtml(s: string): string {
  return s.replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');
}
