/**
 * Shells that the agent starts once and that run the scripts of network commands it sends them
 * (commands.ts runScript), so that making an instance's network forks no process of the agent's:
 * each fork of the agent copies the page tables of a process of 100 MiB and more, on its main
 * thread (several ms on a busy host, for every instance starting), where a fork of a shell is
 * cheap.
 *
 * The agent writes each script to a file of its own, in a directory only root reads
 * (`platform-net-scripts-<pid>-*` in the temporary directory, mode 0700), and sends a shell one
 * line, `<id> <path>`; the shell runs the file in a subshell
 * (`( . path )`: one fork, no program started but the script's own commands), its stderr into
 * `<path>.err`, and answers one line, `<id> <exit code>`; the agent reads the stderr of a script
 * that failed (its last 3000 bytes) and removes both files. The first shells base64-decoded each
 * script, ran it under timeout(1) and encoded its stderr back: six programs started for every
 * script, about 5.5 ms of CPU each time (bench:agents: two to three scripts an instance start).
 *
 * One script at a time per shell, up to SHELLS shells, a script going to the one with the
 * fewest waiting. Each shell leads a process group of its own: a script not answered within
 * ANSWER_TIMEOUT_MS has the whole group killed (the shell and what its script started), which
 * fails the scripts that shell had; so does a shell that exits (killed by someone), and the next
 * script starts a new one. The shells hold no reference on the agent's event loop while they
 * have nothing to run, and end when the agent does (their stdin closes).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { signalPid } from '../isolation/procfs.js';

/**
 * How many shells at most (scripts of different instances run side by side up to this; with 4,
 * the network steps of 50 instances starting at once waited for each other: a median of 855 ms
 * against 545 ms with a process each). A shell is made when every other has a script to run.
 */
export const SHELLS = 16;
/** A script not answered by then (counted from when it was sent) has its shell's group killed. */
const ANSWER_TIMEOUT_MS = 15_000;
/** How much of a failed script's stderr is kept. */
const STDERR_KEPT = 3000;

const LOOP = ['while read -r id path; do', '  ( . "$path" ) </dev/null >/dev/null 2>"$path.err"', '  echo "$id $?"', 'done'].join('\n');

const DIR_PREFIX = 'platform-net-scripts-';

/**
 * The scripts' directory: made at the first script (mode 0700, as mkdtemp makes it, named with
 * the process's pid), removed when the process exits; those of processes that are gone (an
 * agent killed with -9) are removed when the next one is made.
 */
let scriptDir: string | undefined;
function scripts(): string {
  if (scriptDir === undefined) {
    removeStale();
    const dir = mkdtempSync(join(tmpdir(), `${DIR_PREFIX}${process.pid}-`));
    scriptDir = dir;
    process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
  }
  return scriptDir;
}

/** Removes the script directories of processes that are gone (exported for tests). */
export function removeStale(): void {
  let names: string[];
  try {
    names = readdirSync(tmpdir());
  } catch {
    return;
  }
  for (const name of names) {
    const pid = Number(new RegExp(`^${DIR_PREFIX}(\\d+)-`).exec(name)?.[1]);
    // (The agent is root: signal 0 reaches any process there is.)
    if (!pid || pid === process.pid || signalPid(pid, 0)) continue;
    rmSync(join(tmpdir(), name), { recursive: true, force: true });
  }
}

/** A script's end: its exit code and, when it failed, the end of its stderr. */
export interface ScriptResult {
  code: number;
  stderr: string;
}

interface Waiting {
  resolve(r: ScriptResult): void;
  reject(err: Error): void;
  timer: NodeJS.Timeout;
  /** The script's file (and `<path>.err`, its stderr). */
  path: string;
}

class Shell {
  readonly child: ChildProcess;
  readonly waiting = new Map<number, Waiting>();
  #buffer = '';
  #ended = false;

  constructor(private readonly onEnd: (s: Shell) => void) {
    // Detached: the leader of a process group of its own, which a timeout kills as a whole.
    this.child = spawn('/bin/sh', ['-c', LOOP], { stdio: ['pipe', 'pipe', 'ignore'], detached: true });
    this.child.stdout!.setEncoding('utf8');
    this.child.stdout!.on('data', (chunk: string) => this.#read(chunk));
    this.child.on('error', (err) => this.end(err));
    this.child.on('exit', (code, signal) => this.end(new Error(`the shell running network commands exited (${signal ?? code})`)));
    // A write to a shell that died meanwhile: its exit fails what it had.
    this.child.stdin!.on('error', () => {});
    this.#hold(false);
  }

  get ended(): boolean {
    return this.#ended;
  }

  send(id: number, script: string): Promise<ScriptResult> {
    const path = join(scripts(), `${process.pid}-${id}.sh`);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.end(new Error(`no answer from the shell running network commands within ${ANSWER_TIMEOUT_MS} ms`));
        this.#kill();
      }, ANSWER_TIMEOUT_MS);
      this.waiting.set(id, { resolve, reject, timer, path });
      this.#hold(true);
      writeFile(path, script, { mode: 0o600 }).then(
        () => {
          if (this.waiting.has(id)) this.child.stdin!.write(`${id} ${path}\n`);
        },
        (err: unknown) => {
          const w = this.waiting.get(id);
          if (!w) return;
          this.waiting.delete(id);
          clearTimeout(w.timer);
          w.reject(new Error(`the script of network commands cannot be written: ${(err as Error).message}`));
        },
      );
    });
  }

  /** SIGKILL to the shell's process group: the shell and whatever its script started. */
  #kill(): void {
    try {
      if (this.child.pid !== undefined) process.kill(-this.child.pid, 'SIGKILL');
    } catch {
      // Gone already.
    }
  }

  /** Fails what it has; no script goes to it any more. */
  end(err: Error): void {
    if (this.#ended) return;
    this.#ended = true;
    this.onEnd(this);
    for (const w of this.waiting.values()) {
      clearTimeout(w.timer);
      w.reject(err);
      void removeScript(w.path);
    }
    this.waiting.clear();
    this.#hold(false);
    this.child.stdin!.end();
  }

  #read(chunk: string): void {
    this.#buffer += chunk;
    for (let nl = this.#buffer.indexOf('\n'); nl >= 0; nl = this.#buffer.indexOf('\n')) {
      const line = this.#buffer.slice(0, nl);
      this.#buffer = this.#buffer.slice(nl + 1);
      const [id, code] = line.split(' ');
      const w = this.waiting.get(Number(id));
      if (!w) continue;
      this.waiting.delete(Number(id));
      clearTimeout(w.timer);
      const exit = Number(code);
      // Its stderr is read only when it failed (one that succeeded may have warned: not kept).
      const stderr = exit === 0 ? Promise.resolve('') : readFile(`${w.path}.err`).then((b) => b.subarray(Math.max(0, b.length - STDERR_KEPT)).toString('utf8'), () => '');
      void stderr.then(async (text) => {
        await removeScript(w.path);
        w.resolve({ code: exit, stderr: text });
      });
    }
    if (this.waiting.size === 0) this.#hold(false);
  }

  /** Whether the shell keeps the agent's event loop alive: while it has a script to answer. */
  #hold(on: boolean): void {
    const handles = [this.child, this.child.stdout, this.child.stdin] as unknown as ({ ref?(): void; unref?(): void } | null)[];
    for (const h of handles) {
      if (on) h?.ref?.();
      else h?.unref?.();
    }
  }
}

/** Removes a script's file and its stderr's. */
async function removeScript(path: string): Promise<void> {
  await Promise.all([rm(path, { force: true }), rm(`${path}.err`, { force: true })]).catch(() => undefined);
}

/** Where the scripts are written (undefined before the first); for tests. */
export function scriptDirectory(): string | undefined {
  return scriptDir;
}

const shells: Shell[] = [];
let nextId = 1;

/** Runs `script` in one of the shells; resolves its exit code and stderr; rejects when the shell cannot answer. */
export function runInShell(script: string): Promise<ScriptResult> {
  let shell = shells.reduce<Shell | undefined>((best, s) => (!best || s.waiting.size < best.waiting.size ? s : best), undefined);
  if (!shell || (shell.waiting.size > 0 && shells.length < SHELLS)) {
    shell = new Shell((s) => shells.splice(shells.indexOf(s) >>> 0, 1));
    shells.push(shell);
  }
  return shell.send(nextId++, script);
}

/** The shells' pids now (tests). */
export function shellPids(): number[] {
  return shells.map((s) => s.child.pid ?? -1);
}
