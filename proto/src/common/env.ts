/**
 * The environment of an instance's process, built the same way wherever it runs: on an agent
 * (agent/src/runner/) and in the controller's local stager launcher
 * (controller/src/staging/local-launcher.ts). Layers, in this order (later wins):
 *  1. a base: PATH (the usual system directories) and HOME (the caller says which);
 *  2. each package's environment, in install order (dependencies first, the application package
 *     last), each value expanded against what is set so far: "$PATH" / "${PATH}" in
 *     "/opt/node/bin:$PATH" is the earlier PATH (unset names expand to ""; "$$" is a literal "$");
 *  3. the process's environment (ProcessSpec.environment), expanded the same way;
 *  4. START_PATH (the caller's default, e.g. /app when the root has /app, else /) and
 *     START_COMMAND ("") when no layer set them: a package's START_COMMAND and START_PATH are
 *     defaults that the job's process may override (spec: Package, environment);
 *  5. PORT (the port the agent chose for the job's port 0; else the first port) and
 *     PORT_<number> for every port;
 *  6. the platform's variables from the controller (job and instance uuids, FQN...);
 *  7. STAGER_URL for stager instances.
 * Nothing of the running program's own environment (which holds secrets) is passed on.
 *
 * Names that are not shell identifiers (a binding's `<UUID>_URI` may start with a digit) are
 * dropped by some POSIX shells (dash, Debian's /bin/sh) from the environment they pass on:
 * whatever runs such an environment through a shell uses `shellFor`, which picks bash (it
 * passes them on) when the environment holds one.
 */
import { existsSync } from 'node:fs';

export const BASE_PATH = '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin';

/** Expands $NAME and ${NAME} in `value` against `env` (unset names become ""); "$$" is a literal "$". */
export function expand(value: string, env: Readonly<Record<string, string>>): string {
  return value.replace(/\$(?:\{([A-Za-z_][A-Za-z0-9_]*)\}|([A-Za-z_][A-Za-z0-9_]*)|(\$))/g, (_m, braced: string | undefined, bare: string | undefined, dollar: string | undefined) => {
    if (dollar) return '$';
    return env[(braced ?? bare) as string] ?? '';
  });
}

/** Applies `layer` over `env` (in place), expanding each value against the env before the layer. */
export function applyLayer(env: Record<string, string>, layer: Readonly<Record<string, string>> | undefined): void {
  if (!layer) return;
  const before = { ...env };
  for (const [k, v] of Object.entries(layer)) env[k] = expand(v, before);
}

export interface EnvInputs {
  /** Each package's environment, in install order (dependencies first). */
  packages: ReadonlyArray<Readonly<Record<string, string>>>;
  /** The process's own environment. */
  process: Readonly<Record<string, string>> | undefined;
  /** START_PATH unless a layer sets it. */
  defaultStartPath: string;
  /** HOME unless a layer sets it; default "/". */
  home?: string;
  /** The env var values for ports: PORT and PORT_<n>. */
  ports?: Readonly<Record<string, string>>;
  /** The platform's variables (job and instance uuids, FQN...). */
  platform?: Readonly<Record<string, string>>;
  /** STAGER_URL of a stager run; "" or absent otherwise. */
  stagerUrl?: string;
}

export function buildEnvironment(inputs: EnvInputs): Record<string, string> {
  const env: Record<string, string> = { PATH: BASE_PATH, HOME: inputs.home ?? '/' };
  for (const layer of inputs.packages) applyLayer(env, layer);
  applyLayer(env, inputs.process);
  env['START_PATH'] ||= inputs.defaultStartPath;
  env['START_COMMAND'] ??= '';
  Object.assign(env, inputs.ports ?? {});
  Object.assign(env, inputs.platform ?? {});
  if (inputs.stagerUrl) env['STAGER_URL'] = inputs.stagerUrl;
  return env;
}

/** True when every POSIX shell keeps `name` in the environment of the commands it runs. */
export function isShellName(name: string): boolean {
  return /^[A-Za-z_][A-Za-z0-9_]*$/.test(name);
}

/**
 * The shell to run a command with `env` through: /bin/sh, or /bin/bash when `env` holds a
 * name that is not a shell identifier (dash drops those; bash passes them on) and bash is
 * installed (`exists`, for tests).
 */
export function shellFor(env: Readonly<Record<string, string>>, exists: (path: string) => boolean = existsSync): string {
  if (Object.keys(env).every(isShellName)) return '/bin/sh';
  return exists('/bin/bash') ? '/bin/bash' : '/bin/sh';
}

/** The commands of a process, as a job declares them. */
export interface StartCommands {
  /** Passed to exec as is (first element the program). */
  startCommandRaw?: readonly string[] | undefined;
  /** Run by `/bin/sh -c`. */
  startCommand?: string | undefined;
}

/**
 * What to exec: the process's raw command, else its shell command, else the START_COMMAND its
 * packages set (through `env`), run by `<shell> -c` (`shellFor(env)`: /bin/sh, or bash when a
 * name of `env` would be dropped by dash); undefined when there is none.
 */
export function startArgv(commands: StartCommands, env: Readonly<Record<string, string>>, exists?: (path: string) => boolean): string[] | undefined {
  if (commands.startCommandRaw?.length) return [...commands.startCommandRaw];
  const command = commands.startCommand || env['START_COMMAND'];
  return command ? [shellFor(env, exists), '-c', command] : undefined;
}

/** The process an instance of a job runs: the one named `app`, else the first; undefined when there are none. */
export function mainProcessName(names: readonly string[]): string | undefined {
  return names.includes('app') ? 'app' : names[0];
}
