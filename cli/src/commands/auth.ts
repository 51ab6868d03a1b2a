/** target, login, logout, whoami. */
import { CommandError, normalizeUrl, UsageError } from '../config.js';
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
      .description('get a token for the target (basic, or --ldap) and keep it in the configuration file')
      .argument('[url]', 'set the target first')
      .option('-u, --user <name>', 'the user name (asked when omitted)')
      .option('--ldap', 'log in against the LDAP directory instead of the controller\'s users')
      .option('--password-stdin', 'read the password from stdin (for scripts)')
      .action(
        action(async (s, url: string | undefined, o: { user?: string; ldap?: boolean; passwordStdin?: boolean }) => {
          const config = await s.config();
          if (url) config.current = normalizeUrl(url);
          const target = await s.targetUrl();
          const user = o.user ?? (o.passwordStdin ? undefined : await prompt(s.io, 'User: '));
          if (!user) throw new UsageError('--user is required with --password-stdin');
          const password = o.passwordStdin ? await readStdin(s.io) : await prompt(s.io, 'Password: ', true);
          if (password === '') throw new UsageError('the password is empty');
          const mechanism = o.ldap ? 'ldap' : 'basic';
          const grant = await (await s.anonymousClient()).login(user, password, mechanism);
          // The token's own expiry (a JWT's exp), else the time the answer gave from now.
          const exp = claimsOf(grant.access_token)['exp'];
          const ttl = Number(grant.expires_in);
          const expiresAt = new Date(typeof exp === 'number' ? exp * 1000 : s.io.now() + (Number.isFinite(ttl) ? ttl : 0) * 1000).toISOString();
          config.current = target;
          config.targets[target] = {
            ...config.targets[target],
            url: target,
            user: grant.user?.name ?? user,
            mechanism,
            token: grant.access_token,
            expires_at: expiresAt,
            ...(grant.user?.principal ? { principal: grant.user.principal } : {}),
            ...(grant.user?.default_namespace ? { namespace: grant.user.default_namespace } : {}),
          };
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
          const { token: _token, expires_at: _expires, ...kept } = config.targets[target] ?? { url: target };
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
