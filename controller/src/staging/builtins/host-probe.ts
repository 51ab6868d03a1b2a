/**
 * What the host offers to instances: its operating system and the language
 * runtimes installed on it. Probed at start-up (each runtime is asked for its
 * version and real install location); the results become built-in packages.
 */
import { execFile } from 'node:child_process';
import { access, constants, readFile, readdir, realpath } from 'node:fs/promises';
import { delimiter, dirname, join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

export interface HostOs {
  /** `linux` */
  kernel: string;
  /** os-release ID and VERSION_ID, e.g. `debian`, `12` (empty when unknown). */
  id: string;
  versionId: string;
  /** Host directories an instance needs from the system (bound read-only by the bwrap driver). */
  hostPaths: string[];
}

export interface HostRuntime {
  /** Runtime name in requirements: node, python, bash, perl, php, ruby, java, go. */
  name: string;
  /** Dotted version, e.g. `20.20.2`. */
  version: string;
  /** The directory holding the runtime's executables (prepended to PATH). */
  binDir: string;
  /** Host directories beyond the os package's that the runtime lives in. */
  hostPaths: string[];
  /** Extra environment (JAVA_HOME, GOROOT). */
  environment: Record<string, string>;
}

/** The system directories of the os package; only those present on the host are used. */
const SYSTEM_DIRS = ['/bin', '/sbin', '/lib', '/lib32', '/lib64', '/libx32', '/usr'];
/** Parts of /etc that programs read; secrets (shadow, ssh keys, sudoers) stay out. */
const ETC_ENTRIES = [
  'alternatives', 'ca-certificates', 'ca-certificates.conf', 'ssl/certs', 'resolv.conf', 'hosts', 'host.conf',
  'nsswitch.conf', 'gai.conf', 'localtime', 'passwd', 'group', 'ld.so.cache', 'ld.so.conf', 'ld.so.conf.d', 'mime.types',
];
const ETC_PREFIXES = ['java', 'python', 'perl', 'php', 'ruby'];

async function exists(path: string): Promise<boolean> {
  try {
    await access(path, constants.F_OK);
    return true;
  } catch {
    return false;
  }
}

export async function probeOs(): Promise<HostOs> {
  let id = '';
  let versionId = '';
  try {
    const text = await readFile('/etc/os-release', 'utf8');
    const field = (name: string) => /^"?(.*?)"?$/.exec(new RegExp(`^${name}=(.*)$`, 'm').exec(text)?.[1] ?? '')?.[1] ?? '';
    id = field('ID');
    versionId = field('VERSION_ID');
  } catch {
    // Not every system has os-release; the os package then provides only os.linux.
  }
  const hostPaths: string[] = [];
  for (const dir of SYSTEM_DIRS) if (await exists(dir)) hostPaths.push(dir);
  for (const entry of ETC_ENTRIES) if (await exists(`/etc/${entry}`)) hostPaths.push(`/etc/${entry}`);
  try {
    for (const entry of (await readdir('/etc')).sort()) {
      if (ETC_PREFIXES.some((p) => entry.startsWith(p))) hostPaths.push(`/etc/${entry}`);
    }
  } catch {
    // No /etc to read.
  }
  return { kernel: process.platform, id, versionId, hostPaths };
}

/** The first executable named `command` on PATH. */
async function which(command: string, path = process.env['PATH'] ?? ''): Promise<string | undefined> {
  for (const dir of path.split(delimiter)) {
    if (!dir) continue;
    const candidate = join(dir, command);
    try {
      await access(candidate, constants.X_OK);
      return candidate;
    } catch {
      // Next directory.
    }
  }
  return undefined;
}

async function output(file: string, args: string[]): Promise<string> {
  const { stdout, stderr } = await run(file, args, { timeout: 10_000, encoding: 'utf8', maxBuffer: 1 << 20 });
  return `${stdout}\n${stderr}`;
}

interface Probe {
  name: string;
  command: string;
  /** Version and real executable path from the runtime itself. */
  ask: (bin: string) => Promise<{ version: string; executable: string }>;
  environment?: (executable: string) => Record<string, string>;
}

const firstVersion = (text: string) => /(\d+(?:\.\d+)+)/.exec(text)?.[1] ?? '';

/** Asks `bin` to print `<version> <executable>` (the `args` do that); the executable defaults to `bin`. */
async function versionAndExecutable(bin: string, args: string[]): Promise<{ version: string; executable: string }> {
  const [version = '', executable = bin] = (await output(bin, args)).trim().split(/\s+/);
  return { version, executable };
}

const PROBES: Probe[] = [
  {
    name: 'node',
    command: 'node',
    ask: (bin) => versionAndExecutable(bin, ['-e', 'console.log(process.versions.node, process.execPath)']),
  },
  {
    name: 'python',
    command: 'python3',
    ask: (bin) => versionAndExecutable(bin, ['-c', 'import platform,sys;print(platform.python_version(), sys.executable)']),
  },
  {
    name: 'bash',
    command: 'bash',
    ask: async (bin) => ({ version: firstVersion(await output(bin, ['-c', 'echo $BASH_VERSION'])), executable: bin }),
  },
  {
    name: 'perl',
    command: 'perl',
    ask: (bin) => versionAndExecutable(bin, ['-e', 'print substr($^V, 1), " ", $^X, "\\n"']),
  },
  {
    name: 'php',
    command: 'php',
    ask: async (bin) => {
      const answer = await versionAndExecutable(bin, ['-r', 'echo PHP_VERSION, " ", PHP_BINARY, "\\n";']);
      return { ...answer, version: firstVersion(answer.version) };
    },
  },
  {
    name: 'ruby',
    command: 'ruby',
    ask: (bin) => versionAndExecutable(bin, ['-e', 'require "rbconfig"; puts RUBY_VERSION + " " + RbConfig.ruby']),
  },
  {
    name: 'java',
    command: 'java',
    ask: async (bin) => ({ version: firstVersion(/version "([^"]+)"/.exec(await output(bin, ['-version']))?.[1] ?? ''), executable: bin }),
    environment: (executable) => ({ JAVA_HOME: dirname(dirname(executable)) }),
  },
  {
    name: 'go',
    command: 'go',
    ask: async (bin) => {
      const [goversion = '', goroot = ''] = (await output(bin, ['env', 'GOVERSION', 'GOROOT'])).trim().split(/\s+/);
      return { version: firstVersion(goversion), executable: goroot ? join(goroot, 'bin', 'go') : bin };
    },
    environment: (executable) => ({ GOROOT: dirname(dirname(executable)) }),
  },
];

/** True when `path` lies within one of `dirs`. */
function within(path: string, dirs: readonly string[]): boolean {
  return dirs.some((d) => path === d || path.startsWith(`${d}/`));
}

/** The runtimes found on the host, in the order of the probes; those missing or failing are left out. */
export async function probeRuntimes(os: HostOs, onError?: (name: string, err: unknown) => void): Promise<HostRuntime[]> {
  const found = await Promise.all(
    PROBES.map(async (probe): Promise<HostRuntime | undefined> => {
      const bin = await which(probe.command);
      if (!bin) return undefined;
      try {
        const answer = await probe.ask(bin);
        if (!/^\d+(\.\d+)*$/.test(answer.version)) throw new Error(`no version in the answer of ${bin}`);
        const executable = await realpath(answer.executable);
        const binDir = dirname(executable);
        const prefix = dirname(binDir);
        return {
          name: probe.name,
          version: answer.version,
          binDir,
          hostPaths: within(executable, os.hostPaths) ? [] : [prefix],
          environment: probe.environment?.(executable) ?? {},
        };
      } catch (err) {
        onError?.(probe.name, err);
        return undefined;
      }
    }),
  );
  return found.filter((r): r is HostRuntime => r !== undefined);
}

/** `node` and `20.20.2` -> node, node-20, node-20.20, node-20.20.2 (general to exact). */
export function versionLevels(name: string, version: string): string[] {
  const parts = version.split('.');
  return [name, ...parts.map((_, i) => `${name}-${parts.slice(0, i + 1).join('.')}`)];
}
