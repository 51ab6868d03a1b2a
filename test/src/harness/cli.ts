/**
 * Runs the `platform` command-line client as a user does: the built binary as a child process,
 * with its own HOME (so its configuration file is the test's), against a real controller.
 */
import { spawn, spawnSync } from 'node:child_process';
import { request } from 'node:http';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ExecutionContext } from 'ava';

export const CLI_BIN = join(dirname(fileURLToPath(import.meta.resolve('@platform/cli/package.json'))), 'bin', 'platform.js');

/**
 * True when `tool` is missing and the test should skip (it logs why); with
 * PLATFORM_REQUIRE_SYSTEM_TOOLS=1 a missing tool fails the test instead.
 */
export function missingTool(t: ExecutionContext, tool: string, debianPackage = tool): boolean {
  if (spawnSync('sh', ['-c', `command -v ${tool}`]).status === 0) return false;
  if (process.env['PLATFORM_REQUIRE_SYSTEM_TOOLS'] === '1') throw new Error(`${tool} is required: apt-get install ${debianPackage}`);
  t.log(`skipped: ${tool} is not installed (apt-get install ${debianPackage})`);
  t.pass();
  return true;
}

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

export interface CliOptions {
  stdin?: string;
  cwd?: string;
  env?: Record<string, string>;
  /** Kill the command after this long (a `logs --tail`); the result is what it wrote until then. */
  killAfterMs?: number;
  /** Kill it once stdout satisfies this (a line awaited from `logs --tail`). */
  until?: (stdout: string) => boolean;
  /** Told of stderr as it grows (what the command asks the user to do). */
  onStderr?: (stderr: string) => void;
}

export class Cli {
  private constructor(
    readonly home: string,
    readonly command: readonly string[],
  ) {}

  /** A user with a fresh HOME; `command` is how to start the client (default: node and the workspace's bin). */
  static async create(t: ExecutionContext, command: readonly string[] = [process.execPath, CLI_BIN]): Promise<Cli> {
    const home = await mkdtemp(join(tmpdir(), 'platform-cli-home-'));
    t.teardown(() => rm(home, { recursive: true, force: true }));
    return new Cli(home, command);
  }

  run(args: readonly string[], o: CliOptions = {}): Promise<CliResult> {
    return new Promise((resolve, reject) => {
      const child = spawn(this.command[0]!, [...this.command.slice(1), ...args], {
        cwd: o.cwd ?? this.home,
        env: { PATH: process.env['PATH'] ?? '/usr/bin:/bin', HOME: this.home, ...o.env },
        stdio: ['pipe', 'pipe', 'pipe'],
      });
      let stdout = '';
      let stderr = '';
      const timer = o.killAfterMs ? setTimeout(() => child.kill('SIGTERM'), o.killAfterMs) : undefined;
      child.stdout.on('data', (c: Buffer) => {
        stdout += c.toString('utf8');
        if (o.until?.(stdout)) child.kill('SIGTERM');
      });
      child.stderr.on('data', (c: Buffer) => {
        stderr += c.toString('utf8');
        o.onStderr?.(stderr);
      });
      child.on('error', reject);
      child.on('close', (code) => {
        if (timer) clearTimeout(timer);
        resolve({ code, stdout, stderr });
      });
      child.stdin.end(o.stdin ?? '');
    });
  }

  /** Runs and requires exit code 0; answers stdout. */
  async ok(args: readonly string[], o: CliOptions = {}): Promise<string> {
    const r = await this.run(args, o);
    if (r.code !== 0) throw new Error(`platform ${args.join(' ')} exited ${r.code}\nstdout: ${r.stdout}\nstderr: ${r.stderr}`);
    return r.stdout;
  }

  /** Runs with --json and parses stdout. */
  async json<T>(args: readonly string[], o: CliOptions = {}): Promise<T> {
    return JSON.parse(await this.ok(['--json', ...args], o)) as T;
  }
}

/** GET through the router with the route's host name (fetch may not set Host). */
export function viaRouter(router: string, url: string, path = '/'): Promise<{ status: number; text: string }> {
  const [host, port] = [router.slice(0, router.lastIndexOf(':')), Number(router.slice(router.lastIndexOf(':') + 1))];
  return new Promise((resolve, reject) => {
    const req = request({ host, port, path, headers: { Host: new URL(url).host } }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (text += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
    });
    req.on('error', reject);
    req.end();
  });
}
