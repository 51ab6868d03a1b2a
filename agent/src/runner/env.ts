/**
 * The environment of an instance, merged in this order (later wins):
 *  1. a base: PATH (the usual system directories) and HOME (`/` under bwrap; the instance root's
 *     host path under the `process` driver, so that nothing writes into the host's `/`);
 *  2. each package's environment, in install order (dependencies first, the application package
 *     last), each value expanded against what is set so far: "$PATH" / "${PATH}" in
 *     "/opt/node/bin:$PATH" is the earlier PATH (unset names expand to ""; "$$" is a literal "$");
 *  3. the process's environment (ProcessSpec.environment), expanded the same way;
 *  4. START_PATH (default /app when the root has /app, else /) and START_COMMAND ("" if unset)
 *     when nobody set them;
 *  5. PORT (the port the agent chose for the job's port 0; else the first port) and
 *     PORT_<number> for every port;
 *  6. the platform's variables from the controller (job and instance uuids, FQN...);
 *  7. STAGER_URL for stager instances.
 * Nothing of the agent's own environment (which holds the join secret) is passed on.
 */

export const BASE_PATH = '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin';

/** Expands $NAME and ${NAME} in `value` against `env`. */
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
  packages: ReadonlyArray<Readonly<Record<string, string>>>;
  process: Readonly<Record<string, string>>;
  defaultStartPath: string;
  /** HOME unless a layer sets it. */
  home?: string;
  /** The env var values for ports: PORT and PORT_<n>. */
  ports: Readonly<Record<string, string>>;
  platform: Readonly<Record<string, string>>;
  stagerUrl: string;
}

export function buildEnvironment(inputs: EnvInputs): Record<string, string> {
  const env: Record<string, string> = { PATH: BASE_PATH, HOME: inputs.home ?? '/' };
  for (const layer of inputs.packages) applyLayer(env, layer);
  applyLayer(env, inputs.process);
  env['START_PATH'] ||= inputs.defaultStartPath;
  env['START_COMMAND'] ??= '';
  Object.assign(env, inputs.ports);
  Object.assign(env, inputs.platform);
  if (inputs.stagerUrl) env['STAGER_URL'] = inputs.stagerUrl;
  return env;
}
