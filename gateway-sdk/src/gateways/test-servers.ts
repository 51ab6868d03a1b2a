/**
 * Real PostgreSQL and Redis servers for the gateways' tests: each on a free
 * loopback port with its data in a temporary directory, stopped and removed by
 * `stop()`. PostgreSQL refuses to run as root, so as root it runs as `nobody`.
 * Exported as `@platform/gateway-sdk/test-servers`, for tests that run a gateway against a real
 * server (the controller's end-to-end tests do).
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { chmod, chown, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** The newest PostgreSQL server programs of the Debian packages (or $PLATFORM_PG_BIN); undefined when none. */
export function findPgBin(): string | undefined {
  const given = process.env['PLATFORM_PG_BIN'];
  if (given) return given;
  let versions: string[];
  try {
    versions = readdirSync('/usr/lib/postgresql').filter((v) => existsSync(join('/usr/lib/postgresql', v, 'bin', 'initdb')));
  } catch {
    return undefined;
  }
  const newest = versions.sort((a, b) => Number(b) - Number(a))[0];
  return newest ? join('/usr/lib/postgresql', newest, 'bin') : undefined;
}

export function hasRedisServer(): boolean {
  return spawnSync('redis-server', ['--version']).status === 0;
}

/**
 * Registers the test file's tests with `register` when `available`; else a
 * test that fails under PLATFORM_REQUIRE_SYSTEM_TOOLS=1 (CI) and passes with a
 * notice otherwise.
 */
export function whenInstalled(available: boolean, what: string, register: () => void, define: (title: string, fn: (t: { fail(m: string): void; log(m: string): void; pass(): void }) => void) => void): void {
  if (available) return register();
  const message = `${what} is not installed: apt-get install ${what} (.ci/run does)`;
  if (process.env['PLATFORM_REQUIRE_SYSTEM_TOOLS'] === '1') define(`${what} is installed (PLATFORM_REQUIRE_SYSTEM_TOOLS=1)`, (t) => t.fail(message));
  else {
    process.stderr.write(`\n  SKIPPED: ${message}\n\n`);
    define(`skipped: ${what} is not installed`, (t) => {
      t.log(message);
      t.pass();
    });
  }
}

export interface TestServer {
  /** Admin url. */
  url: string;
  host: string;
  port: number;
  stop(): Promise<void>;
}

/** A port free right now on 127.0.0.1 (the server that takes it is started at once). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

function exited(child: ChildProcess): Promise<void> {
  return child.exitCode !== null || child.signalCode !== null ? Promise.resolve() : new Promise((resolve) => child.once('exit', () => resolve()));
}

/** Polls `ready` (every 50 ms, then slower) until it resolves true, the process exits, or `timeoutMs` passes. */
async function waitReady(child: ChildProcess, ready: () => Promise<boolean>, what: string, log: () => string, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let delay = 50;
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) throw new Error(`${what} exited (${child.exitCode ?? child.signalCode}): ${log()}`);
    if (await ready().catch(() => false)) return;
    if (Date.now() > deadline) throw new Error(`${what} did not become ready in ${timeoutMs} ms: ${log()}`);
    await new Promise((resolve) => setTimeout(resolve, delay));
    delay = Math.min(delay * 2, 500);
  }
}

export async function startPostgres(): Promise<TestServer> {
  const bin = findPgBin();
  if (!bin) throw new Error('PostgreSQL is not installed');
  const dir = await mkdtemp(join(tmpdir(), 'gw-pg-'));
  const asRoot = process.getuid?.() === 0;
  const ids = asRoot ? { uid: 65534, gid: 65534 } : {};
  let child: ChildProcess | undefined;
  const stop = async () => {
    if (child && child.exitCode === null && child.signalCode === null) {
      child.kill('SIGINT'); // fast shutdown
      const t = setTimeout(() => child?.kill('SIGKILL'), 10_000);
      await exited(child);
      clearTimeout(t);
    }
    await rm(dir, { recursive: true, force: true });
  };
  try {
    const data = join(dir, 'data');
    const pwfile = join(dir, 'pw');
    const password = 'admin-secret';
    await writeFile(pwfile, password);
    if (asRoot) {
      await chown(dir, 65534, 65534);
      await chown(pwfile, 65534, 65534);
    }
    await chmod(dir, 0o700);
    const init = spawnSync(join(bin, 'initdb'), ['-D', data, '-U', 'admin', `--pwfile=${pwfile}`, '--auth-local=trust', '--auth-host=scram-sha-256', '-E', 'UTF8', '--no-sync'], { ...ids, encoding: 'utf8', cwd: dir });
    if (init.status !== 0) throw new Error(`initdb failed: ${init.error?.message ?? ''}${init.stderr}`);
    const port = await freePort();
    let log = '';
    child = spawn(join(bin, 'postgres'), ['-D', data, '-p', String(port), '-k', dir, '-c', 'listen_addresses=127.0.0.1', '-c', 'fsync=off', '-c', 'max_connections=50'], { ...ids, cwd: dir, stdio: ['ignore', 'ignore', 'pipe'] });
    child.stderr!.on('data', (c: Buffer) => (log = (log + c.toString()).slice(-4000)));
    const url = `postgres://admin:${password}@127.0.0.1:${port}/postgres`;
    const pg = (await import('pg')).default;
    await waitReady(
      child,
      async () => {
        const c = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2000 });
        c.on('error', () => {});
        try {
          await c.connect();
          await c.query('SELECT 1');
          return true;
        } finally {
          await c.end().catch(() => {});
        }
      },
      'postgres',
      () => log,
    );
    return { url, host: '127.0.0.1', port, stop };
  } catch (err) {
    await stop();
    throw err;
  }
}

export async function startRedis(): Promise<TestServer & { version: string }> {
  const dir = await mkdtemp(join(tmpdir(), 'gw-redis-'));
  let child: ChildProcess | undefined;
  const stop = async () => {
    if (child && child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      const t = setTimeout(() => child?.kill('SIGKILL'), 10_000);
      await exited(child);
      clearTimeout(t);
    }
    await rm(dir, { recursive: true, force: true });
  };
  try {
    const version = /v=(\d+\.\d+\.\d+)/.exec(spawnSync('redis-server', ['--version'], { encoding: 'utf8' }).stdout ?? '')?.[1] ?? '0.0.0';
    const port = await freePort();
    const password = 'admin-secret';
    let log = '';
    child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir, '--requirepass', password], { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout!.on('data', (c: Buffer) => (log = (log + c.toString()).slice(-4000)));
    child.stderr!.on('data', (c: Buffer) => (log = (log + c.toString()).slice(-4000)));
    const url = `redis://:${password}@127.0.0.1:${port}`;
    const { createClient } = await import('redis');
    await waitReady(
      child,
      async () => {
        const c = createClient({ url, socket: { connectTimeout: 2000, reconnectStrategy: false } });
        c.on('error', () => {});
        try {
          await c.connect();
          return String(await c.sendCommand(['PING'])) === 'PONG';
        } finally {
          c.destroy();
        }
      },
      'redis-server',
      () => log,
    );
    return { url, host: '127.0.0.1', port, version, stop };
  } catch (err) {
    await stop();
    throw err;
  }
}
