/** Test support: the real platform-agent binary as a child process. */
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export const AGENT_BIN = fileURLToPath(new URL('../bin/platform-agent.js', import.meta.url));

export class AgentProcess {
  readonly lines: Record<string, unknown>[] = [];
  stderr = '';
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  constructor(readonly child: ChildProcess) {
    let buf = '';
    child.stdout?.on('data', (d: Buffer) => {
      buf += d.toString();
      let i;
      while ((i = buf.indexOf('\n')) >= 0) {
        const line = buf.slice(0, i);
        buf = buf.slice(i + 1);
        try {
          this.lines.push(JSON.parse(line) as Record<string, unknown>);
        } catch {
          this.lines.push({ raw: line });
        }
      }
    });
    child.stderr?.on('data', (d: Buffer) => (this.stderr += d.toString()));
    this.exited = exitAfterOutput(child);
  }

  static start(args: string[], env: Record<string, string> = {}): AgentProcess {
    const child = spawn(process.execPath, [AGENT_BIN, ...args], {
      env: { PATH: process.env['PATH'] ?? '/usr/bin:/bin', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    return new AgentProcess(child);
  }

  logged(msg: string): Record<string, unknown> | undefined {
    return this.lines.find((l) => l['msg'] === msg);
  }
}

/**
 * The exit of `child`, told once what it wrote to its pipes has been read too (the exit can
 * come before the last of its output is read: a test reading stderr at once could miss it). A
 * descendant that keeps a pipe open holds the answer up for at most OUTPUT_AFTER_EXIT_MS.
 */
function exitAfterOutput(child: ChildProcess): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
  return new Promise((resolve) => {
    child.once('exit', (code, signal) => {
      const done = () => {
        clearTimeout(timer);
        resolve({ code, signal });
      };
      const timer = setTimeout(done, OUTPUT_AFTER_EXIT_MS);
      const ends = [child.stdout, child.stderr]
        .filter((s) => s !== null && !s.readableEnded && !s.destroyed)
        .map((s) => new Promise<void>((r) => {
          s!.once('end', () => r());
          s!.once('close', () => r());
        }));
      void Promise.all(ends).then(done);
    });
  });
}
const OUTPUT_AFTER_EXIT_MS = 5_000;
