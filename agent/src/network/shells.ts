/**
 * Shells that the agent starts once and that run the scripts of network commands it sends them
 * (commands.ts runScript), so that making an instance's network forks no process of the agent's:
 * each fork of the agent copies the page tables of a process of 100 MiB and more, on its main
 * thread (several ms on a busy host, for every instance starting), where a fork of a shell is
 * cheap.
 *
 * Each shell reads one request a line (`<id> <script, base64>`), runs the script with `/bin/sh -s`
 * (the script on its stdin, which no command of it reads: runScript gives each its own; SIGKILLed
 * after TIMEOUT_S), and answers one line (`<id> <exit code> <its
 * stderr's last 3000 bytes, base64>`); one script at a time per shell, up to SHELLS shells, a
 * script going to the one with the fewest waiting. A shell that exits (killed by someone) fails the
 * scripts it had, and the next script starts a new one. The shells hold no reference on the
 * agent's event loop while they have nothing to run, and end when the agent does (their stdin
 * closes).
 */
import { spawn, type ChildProcess } from 'node:child_process';

/**
 * How many shells at most (scripts of different instances run side by side up to this; with 4,
 * the network steps of 50 instances starting at once waited for each other: a median of 855 ms
 * against 545 ms with a process each). A shell is made when every other has a script to run.
 */
export const SHELLS = 16;
const TIMEOUT_S = 10;
/** An answer later than this (the shell hung) ends the shell and fails its scripts. */
const ANSWER_TIMEOUT_MS = (TIMEOUT_S + 5) * 1000;

const LOOP = [
  'while IFS=" " read -r id enc; do',
  `  err=$(printf "%s" "$enc" | base64 -d | timeout -s KILL ${TIMEOUT_S} /bin/sh -s 2>&1 >/dev/null)`,
  '  code=$?',
  '  printf "%s %s %s\\n" "$id" "$code" "$(printf "%s" "$err" | tail -c 3000 | base64 -w0)"',
  'done',
].join('\n');

/** A script's end: its exit code (124 or 137 when it was killed at its timeout) and its stderr. */
export interface ScriptResult {
  code: number;
  stderr: string;
}

interface Waiting {
  resolve(r: ScriptResult): void;
  reject(err: Error): void;
  timer: NodeJS.Timeout;
}

class Shell {
  readonly child: ChildProcess;
  readonly waiting = new Map<number, Waiting>();
  #buffer = '';
  #ended = false;

  constructor(private readonly onEnd: (s: Shell) => void) {
    this.child = spawn('/bin/sh', ['-c', LOOP], { stdio: ['pipe', 'pipe', 'ignore'] });
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
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.end(new Error(`no answer from the shell running network commands within ${ANSWER_TIMEOUT_MS} ms`));
        this.child.kill('SIGKILL');
      }, ANSWER_TIMEOUT_MS);
      this.waiting.set(id, { resolve, reject, timer });
      this.#hold(true);
      this.child.stdin!.write(`${id} ${Buffer.from(script).toString('base64')}\n`);
    });
  }

  /** Fails what it has; no script goes to it any more. */
  end(err: Error): void {
    if (this.#ended) return;
    this.#ended = true;
    this.onEnd(this);
    for (const w of this.waiting.values()) {
      clearTimeout(w.timer);
      w.reject(err);
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
      const [id, code, err] = line.split(' ');
      const w = this.waiting.get(Number(id));
      if (!w) continue;
      this.waiting.delete(Number(id));
      clearTimeout(w.timer);
      w.resolve({ code: Number(code), stderr: Buffer.from(err ?? '', 'base64').toString('utf8') });
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
