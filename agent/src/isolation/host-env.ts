/**
 * The environment of what the agent runs as root on the host before an instance's sandbox (the
 * launch wrapper, the bwrap prelude, nsenter, unshare, setpriv), and how the instance's own
 * environment reaches the instance past them.
 *
 * Root's steps never see the instance's environment: it is the job owner's text, and shells and
 * tools act on it (bash runs $BASH_ENV before its script, imports BASH_FUNC_ functions, finds
 * commands in $PATH; the dynamic loader reads LD_*). They run with `HOST_ENV` alone, and the
 * instance's variables are handed to the last step, already unprivileged: bwrap reads them from
 * a file on a descriptor (`--args`, `--clearenv --setenv`), so they are never on a command line;
 * the process driver has `env -i` set them after setpriv (on the command line of `env` for the
 * moment it takes to exec).
 */

/** The whole environment of the agent's root steps. */
export const HOST_ENV: Readonly<Record<string, string>> = Object.freeze({ PATH: '/usr/sbin:/usr/bin:/sbin:/bin' });

/**
 * Refuses an environment that cannot be handed on exactly: a name that is empty or holds `=` or
 * NUL, a value that holds NUL (execve cannot carry either; in a NUL-separated argument file one
 * would add arguments of its own).
 */
export function checkInstanceEnv(env: Readonly<Record<string, string>>): void {
  for (const [name, value] of Object.entries(env)) {
    if (name === '' || name.includes('=') || name.includes('\0')) throw new Error(`environment variable name ${JSON.stringify(name)} is empty or holds "=" or NUL`);
    if (typeof value !== 'string' || value.includes('\0')) throw new Error(`environment variable ${name}: its value holds NUL`);
  }
}

/** bwrap's `--args` file content setting exactly `env` for the sandboxed command. */
export function bwrapEnvArgs(env: Readonly<Record<string, string>>): string {
  checkInstanceEnv(env);
  const args = ['--clearenv'];
  for (const [name, value] of Object.entries(env)) args.push('--setenv', name, value);
  return args.map((a) => `${a}\0`).join('');
}

/** `env -i NAME=VALUE... --` for the process driver (after setpriv). */
export function envCommand(envPath: string, env: Readonly<Record<string, string>>): string[] {
  checkInstanceEnv(env);
  return [envPath, '-i', ...Object.entries(env).map(([name, value]) => `${name}=${value}`)];
}
