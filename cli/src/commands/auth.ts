/** target, login, logout, whoami. */
import { ApiError, type PlatformClient, type TokenGrant } from '../client/index.js';
import { CommandError, normalizeUrl, UsageError, type ConfigFile } from '../config.js';
import { prompt, readStdin } from '../prompt.js';
import type { CommandModule } from './registry.js';

/** The claims of a JWT, read without checking its signature (the controller checks it). */
function claimsOf(token: string): Record<string, unknown> {
  const part = token.split('.')[1];
  if (!part) return {};
  try {
    return JSON.parse(Buffer.from(part, 'base64url').toString('utf8')) as Record<string, unknown>;
  } catch {
    return {};
  }
}

/** Waits `ms` (the device flow's polling interval). */
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * The device flow at identity provider `idp`: shows the code and where to enter it, then polls
 * until the user has signed in there (as long as the controller asks between polls), and trades
 * the refresh token for an access token.
 */
async function deviceLogin(client: PlatformClient, idp: string, say: (line: string) => void, now: () => number): Promise<TokenGrant & { refresh_token: string }> {
  const code = await client.deviceCode(idp);
  say(`To log in, open ${code.verification_uri_complete ?? code.verification_url}`);
  say(`and enter the code ${code.user_code} (it expires in ${Math.round(code.expires_in / 60)} min). Waiting...`);
  const deadline = now() + code.expires_in * 1000;
  let wait = code.interval * 1000;
  for (;;) {
    await sleep(wait);
    try {
      const redeemed = await client.redeemDeviceCode(idp, code.device_code);
      return await client.refreshDeviceToken(idp, redeemed.refresh_token);
    } catch (err) {
      // 429: not signed in yet (authorization_pending), or polling too fast (slow_down).
      if (!(err instanceof ApiError) || err.status !== 429) throw err;
      wait = Math.max(wait, err.body.try_again_in_ms ?? wait);
      if (now() + wait > deadline) throw new CommandError(`the code ${code.user_code} expired before the sign-in at ${idp} ended; run \`platform login --idp ${idp}\` again`);
    }
  }
}

/** Keeps a new token for `target` in the configuration (and says when it expires). */
function keepToken(config: ConfigFile, target: string, grant: TokenGrant & { refresh_token?: string }, user: string, mechanism: string, nowMs: number): string {
  // The token's own expiry (a JWT's exp), else the time the answer gave from now.
  const exp = claimsOf(grant.access_token)['exp'];
  const ttl = Number(grant.expires_in);
  const expiresAt = new Date(typeof exp === 'number' ? exp * 1000 : nowMs + (Number.isFinite(ttl) ? ttl : 0) * 1000).toISOString();
  const { refresh_token: _old, ...kept } = config.targets[target] ?? { url: target };
  config.current = target;
  config.targets[target] = {
    ...kept,
    url: target,
    user: grant.user?.name ?? user,
    mechanism,
    token: grant.access_token,
    expires_at: expiresAt,
    ...(grant.refresh_token ? { refresh_token: grant.refresh_token } : {}),
    ...(grant.user?.principal ? { principal: grant.user.principal } : {}),
    ...(grant.user?.default_namespace ? { namespace: grant.user.default_namespace } : {}),
  };
  return expiresAt;
}

export const authCommands: CommandModule = {
  names: ['target', 'login', 'logout', 'whoami'],
  register(program, action) {
    program
      .command('target')
      .description('show the current target, or set it to <url> (the API, such as http://127.0.0.1:8080)')
      .argument('[url]')
      .option('--router <host:port>', 'where the cluster\'s router listens, for the URLs of apps (npm start: 127.0.0.1:8000)')
      .action(
        action(async (s, url: string | undefined, o: { router?: string }) => {
          const config = await s.config();
          if (url || o.router) {
            const key = url ? normalizeUrl(url) : await s.targetUrl();
            config.current = key;
            const t = (config.targets[key] ??= { url: key });
            if (o.router) t.router = o.router;
            await s.save();
          }
          const current = config.current;
          s.out.result(
            { current: current ?? null, targets: Object.keys(config.targets) },
            () => {
              if (!current) return s.out.line('no target: platform target <url>');
              const t = config.targets[current];
              s.out.line(`${current}${t?.user ? ` (logged in as ${t.user})` : ''}`);
            },
          );
        }),
      );

    program
      .command('login')
      .description('get a token for the target (basic, --ldap, or --idp <provider>) and keep it in the configuration file')
      .argument('[url]', 'set the target first')
      .option('-u, --user <name>', 'the user name (asked when omitted)')
      .option('--ldap', 'log in against the LDAP directory instead of the controller\'s users')
      .option('--idp <provider>', 'log in at an identity provider of the cluster (device flow: sign in there with the code shown)')
      .option('--password-stdin', 'read the password from stdin (for scripts)')
      .action(
        action(async (s, url: string | undefined, o: { user?: string; ldap?: boolean; idp?: string; passwordStdin?: boolean }) => {
          const config = await s.config();
          if (url) config.current = normalizeUrl(url);
          const target = await s.targetUrl();
          let expiresAt: string;
          if (o.idp) {
            if (o.ldap || o.user || o.passwordStdin) throw new UsageError('--idp logs in at the provider: no --ldap, --user or --password-stdin');
            const grant = await deviceLogin(await s.anonymousClient(), o.idp, (line) => s.io.stderr.write(`${line}\n`), () => s.io.now());
            expiresAt = keepToken(config, target, grant, grant.user?.name ?? '', o.idp, s.io.now());
          } else {
            const user = o.user ?? (o.passwordStdin ? undefined : await prompt(s.io, 'User: '));
            if (!user) throw new UsageError('--user is required with --password-stdin');
            const password = o.passwordStdin ? await readStdin(s.io) : await prompt(s.io, 'Password: ', true);
            if (password === '') throw new UsageError('the password is empty');
            const mechanism = o.ldap ? 'ldap' : 'basic';
            const grant = await (await s.anonymousClient()).login(user, password, mechanism);
            expiresAt = keepToken(config, target, grant, user, mechanism, s.io.now());
          }
          await s.save();
          const t = config.targets[target]!;
          s.out.result({ target, user: t.user, principal: t.principal, namespace: t.namespace, expires_at: expiresAt }, () =>
            s.out.line(`Logged in to ${target} as ${t.user} (namespace ${t.namespace ?? `/sandbox/${t.user}`}); the token expires at ${expiresAt}.`),
          );
        }),
      );

    program
      .command('logout')
      .description('forget the token of the target')
      .action(
        action(async (s) => {
          const target = await s.targetUrl();
          const config = await s.config();
          const had = config.targets[target]?.token !== undefined;
          const { token: _token, expires_at: _expires, refresh_token: _refresh, ...kept } = config.targets[target] ?? { url: target };
          config.targets[target] = kept;
          await s.save();
          s.out.result({ target, logged_out: had }, () => s.out.line(had ? `Logged out of ${target}.` : `Not logged in to ${target}.`));
        }),
      );

    program
      .command('whoami')
      .description('who the token of the target belongs to, and when it expires')
      .action(
        action(async (s) => {
          const t = await s.target();
          if (!t.token) throw new CommandError(`not logged in to ${t.url}: run \`platform login\``);
          const claims = claimsOf(t.token);
          // Refuses an expired token with its advice, and asks the controller whether it still takes it.
          await (await s.client()).runtimes();
          const info = {
            target: t.url,
            user: t.user ?? claims['name'],
            principal: t.principal ?? claims['sub'],
            mechanism: t.mechanism ?? claims['mechanism'],
            namespace: await s.namespace(),
            expires_at: t.expires_at ?? null,
          };
          s.out.record(info);
        }),
      );
  },
};
