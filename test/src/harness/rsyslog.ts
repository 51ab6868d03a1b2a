/**
 * A real rsyslogd for the log drain tests: its own configuration in a temporary directory,
 * listening on loopback TCP (octet-counted frames) and UDP ports, writing every message it
 * receives to one file as `<imtcp|imudp> <app-name> <procid> <msgid> <structured data> <message>`; foreground
 * (-n), no system socket, killed and removed by dispose().
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ExecutionContext } from 'ava';
import { freePort } from './net.js';
import { eventually } from './wait.js';

export const RSYSLOGD = ['/usr/sbin/rsyslogd', '/usr/bin/rsyslogd'].find((p) => existsSync(p));

/** True when rsyslogd is here; else the test says so and skips (or fails with PLATFORM_REQUIRE_SYSTEM_TOOLS=1). */
export function rsyslogAvailable(t: ExecutionContext): boolean {
  if (RSYSLOGD) return true;
  if (process.env['PLATFORM_REQUIRE_SYSTEM_TOOLS'] === '1') throw new Error('rsyslogd is required: apt-get install rsyslog');
  t.log('rsyslogd is not installed (apt-get install rsyslog): skipped');
  return false;
}

export class Rsyslog {
  #child: ChildProcess | undefined;
  private constructor(
    readonly dir: string,
    readonly tcpPort: number,
    readonly udpPort: number,
  ) {}

  get output(): string {
    return join(this.dir, 'received.log');
  }

  static async start(): Promise<Rsyslog> {
    const dir = await mkdtemp(join(tmpdir(), 'platform-rsyslog-'));
    const r = new Rsyslog(dir, await freePort(), await freePort());
    await writeFile(
      join(dir, 'rsyslog.conf'),
      [
        `global(workDirectory="${dir}")`,
        'module(load="imtcp")',
        'module(load="imudp")',
        `input(type="imtcp" address="127.0.0.1" port="${r.tcpPort}")`,
        `input(type="imudp" address="127.0.0.1" port="${r.udpPort}")`,
        'template(name="drain" type="string" string="%inputname% %app-name% %procid% %msgid% %structured-data% %msg%\\n")',
        `action(type="omfile" file="${r.output}" template="drain")`,
        '',
      ].join('\n'),
    );
    await r.#spawn();
    return r;
  }

  async #spawn(): Promise<void> {
    const child = spawn(RSYSLOGD!, ['-n', '-f', join(this.dir, 'rsyslog.conf'), '-i', join(this.dir, 'rsyslogd.pid')], { stdio: ['ignore', 'ignore', 'pipe'] });
    this.#child = child;
    let stderr = '';
    child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
    // Listening once a TCP connection is taken.
    await eventually(
      async () => {
        if (child.exitCode !== null) throw new Error(`rsyslogd exited (${child.exitCode}): ${stderr}`);
        const { connect } = await import('node:net');
        return new Promise<boolean>((resolve) => {
          const s = connect(this.tcpPort, '127.0.0.1', () => {
            s.destroy();
            resolve(true);
          });
          s.on('error', () => resolve(false));
        });
      },
      { timeoutMs: 20_000, what: 'rsyslogd listening' },
    );
  }

  /** The lines received so far. */
  async lines(): Promise<string[]> {
    try {
      return (await readFile(this.output, 'utf8')).split('\n').filter(Boolean);
    } catch {
      return [];
    }
  }

  async stop(): Promise<void> {
    const child = this.#child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGKILL');
    await exited;
  }

  /** Starts again on the same ports (the same file). */
  async restart(): Promise<void> {
    await this.stop();
    await this.#spawn();
  }

  async dispose(): Promise<void> {
    await this.stop();
    await rm(this.dir, { recursive: true, force: true });
  }
}
