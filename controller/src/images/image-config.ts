/**
 * What a package and a job take from an image's configuration: its environment, the start
 * command (Entrypoint + Cmd, an argv run without a shell), the working directory (START_PATH),
 * the user, the exposed ports and the volumes.
 */
import { ImageError } from './flatten.js';
import type { ImageConfig } from './registry-client.js';

export interface ImagePlan {
  /** The image's Env, then START_COMMAND (the argv, shell-quoted) and START_PATH. */
  environment: Record<string, string>;
  /** Entrypoint followed by Cmd. */
  startCommand: string[];
  workingDir: string;
  /** `User` of the image; empty means root. */
  user: string;
  /** TCP ports of ExposedPorts (UDP ones are listed apart). */
  exposedPorts: number[];
  udpPorts: number[];
  volumes: string[];
}

/** `argv` as one shell command line (for START_COMMAND, which is read as text). */
export function shellQuote(argv: readonly string[]): string {
  return argv.map((a) => (/^[A-Za-z0-9_@%+=:,./-]+$/.test(a) ? a : `'${a.replace(/'/g, `'\\''`)}'`)).join(' ');
}

const strings = (v: unknown, what: string): string[] => {
  if (v === undefined || v === null) return [];
  if (!Array.isArray(v) || v.some((s) => typeof s !== 'string')) throw new ImageError(`the image config's ${what} is not a list of strings`);
  return v as string[];
};

export function planOf(config: ImageConfig): ImagePlan {
  if (config.os && config.os !== 'linux') throw new ImageError(`the image is for ${config.os}; linux images run here`);
  if (config.architecture && config.architecture !== 'amd64') throw new ImageError(`the image is for ${config.architecture}; amd64 images run here`);
  const c = config.config ?? {};
  const environment: Record<string, string> = {};
  for (const entry of strings(c.Env, 'Env')) {
    const eq = entry.indexOf('=');
    if (eq <= 0) continue;
    environment[entry.slice(0, eq)] = entry.slice(eq + 1);
  }
  const startCommand = [...strings(c.Entrypoint, 'Entrypoint'), ...strings(c.Cmd, 'Cmd')];
  const workingDir = typeof c.WorkingDir === 'string' && c.WorkingDir.startsWith('/') ? c.WorkingDir : '/';
  if (startCommand.length > 0) environment['START_COMMAND'] = shellQuote(startCommand);
  environment['START_PATH'] = workingDir;
  const exposedPorts: number[] = [];
  const udpPorts: number[] = [];
  for (const key of Object.keys(c.ExposedPorts ?? {})) {
    const m = /^(\d{1,5})(?:\/(tcp|udp|sctp))?$/.exec(key);
    const port = m ? Number(m[1]) : NaN;
    if (!m || port > 65535) throw new ImageError(`the image config exposes "${key}", not <port>/<tcp|udp>`);
    if (m[2] === 'udp') udpPorts.push(port);
    else if (m[2] !== 'sctp') exposedPorts.push(port);
  }
  return {
    environment,
    startCommand,
    workingDir,
    user: typeof c.User === 'string' ? c.User : '',
    exposedPorts: exposedPorts.sort((a, b) => a - b),
    udpPorts: udpPorts.sort((a, b) => a - b),
    volumes: Object.keys(c.Volumes ?? {}).sort(),
  };
}
