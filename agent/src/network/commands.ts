/**
 * The host commands virtual networks are made with: `ip` (iproute2), `bridge` (iproute2) and `nft`
 * (nftables), run as child processes (argv, no shell: `run`) or, for the instances' own networks,
 * as scripts of the agent's shells (`runScript`, shells.ts), each bounded in time. A failure is an
 * Error naming the command and what it wrote to stderr.
 */
import { execFile } from 'node:child_process';
import { findExecutable } from '../isolation/bwrap.js';
import { runInShell } from './shells.js';

const TIMEOUT_MS = 10_000;

export class CommandError extends Error {
  override readonly name = 'CommandError';
  constructor(
    message: string,
    readonly stderr: string,
  ) {
    super(message);
  }
}

/**
 * Runs `argv`; resolves its stdout; rejects with a CommandError (its message begins with `what`,
 * by default the command line). `input` goes to its stdin.
 */
export function run(argv: readonly string[], input?: string, what = argv.join(' ')): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = execFile(argv[0]!, argv.slice(1), { timeout: TIMEOUT_MS, maxBuffer: 4 << 20 }, (err, stdout, stderr) => {
      if (err) {
        const said = String(stderr).trim() || err.message;
        reject(new CommandError(`${what}: ${said}`, String(stderr)));
        return;
      }
      resolve(String(stdout));
    });
    if (input !== undefined) child.stdin?.end(input);
  });
}

/**
 * Runs network commands as a script of one of the agent's shells (shells.ts): no process of the
 * agent's is forked for them (each fork of the agent copies the page tables of a process of
 * 100 MiB and more, on its main thread, where the shell's own forks are small). `parts` are run
 * in order, each a command line and, when given, the text it reads on its stdin (a
 * here-document: written as is, nothing in it is expanded); the first that fails ends the
 * script, with a CommandError of its stderr and what it was (`what`). Stdout is not kept.
 */
export async function runScript(parts: readonly { argv: readonly string[]; input?: string; what: string }[]): Promise<void> {
  const lines: string[] = [];
  parts.forEach((p, i) => {
    const cmd = p.argv.map(shellQuote).join(' ');
    const fail = `|| { echo ${shellQuote(`(${p.what})`)} >&2; exit 1; }`;
    if (p.input === undefined) {
      // The script itself is the shell's stdin: no command reads it.
      lines.push(`${cmd} </dev/null ${fail}`);
      return;
    }
    const end = `PLATFORM_INPUT_${i}`;
    if (p.input.split('\n').includes(end)) throw new Error(`the input of ${p.what} holds the line ${end}`);
    lines.push(`${cmd} <<'${end}' ${fail}`, ...p.input.replace(/\n$/, '').split('\n'), end);
  });
  const what = parts.map((p) => p.what).join(', ');
  const r = await runInShell(lines.join('\n'));
  if (r.code === 0) return;
  const said = r.stderr.trim() || `exit code ${r.code}`;
  throw new CommandError(`${what}: ${said}`, r.stderr);
}

/** `s` as one word of a POSIX shell command line. */
export function shellQuote(s: string): string {
  return /^[A-Za-z0-9_@%+=:,./-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`;
}

/** Runs `argv`; a failure whose stderr matches `gone` (the object is not there) counts as done. */
export async function runIgnoring(argv: readonly string[], gone: RegExp): Promise<void> {
  try {
    await run(argv);
  } catch (err) {
    if (!(err instanceof CommandError) || !gone.test(err.stderr)) throw err;
  }
}

/** runScript of one command; a failure whose stderr matches `gone` (the object is not there) counts as done. */
export async function runScriptIgnoring(argv: readonly string[], gone: RegExp, input?: string): Promise<void> {
  try {
    await runScript([{ argv, what: argv.join(' '), ...(input !== undefined ? { input } : {}) }]);
  } catch (err) {
    if (!(err instanceof CommandError) || !gone.test(err.stderr)) throw err;
  }
}

/** Not there (a link, a namespace, a table, an address): stderr of ip and nft. */
export const NOT_THERE = /Cannot find device|does not exist|No such file|No such process|not found|Cannot open network namespace|RTNETLINK answers: No such/i;

/**
 * Where the network tools are looked for: the system's directories only, never the agent's PATH
 * (under npm, node_modules/.bin comes first there, and an npm package is named `nft` too).
 */
const SYSTEM_PATH = '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin';

/** Whether `name` is installed in the system's directories. */
export function hasSystemTool(name: string): boolean {
  return findExecutable(name, SYSTEM_PATH) !== undefined;
}

/** What the host lacks to run instances on virtual networks (undefined: nothing). */
export function missingNetworkTools(): string | undefined {
  if (process.getuid?.() !== 0) return 'the agent is not root (network namespaces, bridges and veth pairs need CAP_NET_ADMIN and CAP_SYS_ADMIN)';
  for (const [tool, pkg] of [['ip', 'iproute2'], ['bridge', 'iproute2'], ['nft', 'nftables'], ['nsenter', 'util-linux']] as const) {
    if (!findExecutable(tool, SYSTEM_PATH)) return `${tool} is not installed (Debian package ${pkg})`;
  }
  return undefined;
}

const tools = new Map<string, string>();

/** The absolute path of a network tool (checked by missingNetworkTools), looked for once. */
export function tool(name: 'ip' | 'bridge' | 'nft' | 'nsenter' | 'tc'): string {
  let path = tools.get(name);
  if (path === undefined) {
    path = findExecutable(name, SYSTEM_PATH);
    // Not found (yet): looked for again next time.
    if (path === undefined) return name;
    tools.set(name, path);
  }
  return path;
}
