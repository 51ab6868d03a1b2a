/**
 * Test support: a real etcd (Debian's etcd-server, /usr/bin/etcd) of one member, started on
 * loopback ports in a temporary directory with etcd's authentication on (user `root` and a
 * generated password, as controllers reach it in production: never an open port), and killed
 * with its directory removed on stop() and, should the test process end first, at its exit.
 * Exported from the package as `@platform/controller/testing` for the integration tests.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Etcd3 } from 'etcd3';

export const ETCD_BINARY = process.env['PLATFORM_ETCD_BINARY'] ?? 'etcd';

/** Whether etcd can be started here. */
export function etcdAvailable(): boolean {
  return spawnSync(ETCD_BINARY, ['--version'], { encoding: 'utf8' }).status === 0;
}

export interface EtcdTestServer {
  /** host:port of its client listener. */
  endpoint: string;
  auth: { username: string; password: string };
  pid: number;
  /** Kills it (SIGKILL) and removes its directory. Safe to call more than once. */
  stop(): Promise<void>;
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

const running = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of running) child.kill('SIGKILL');
});

/** Starts etcd and waits (up to `readyMs`) until it answers with authentication on. */
export async function startEtcd(o: { readyMs?: number } = {}): Promise<EtcdTestServer> {
  const dir = await mkdtemp(join(tmpdir(), 'platform-etcd-'));
  const [client, peer] = [await freePort(), await freePort()];
  const name = `test-${client}`;
  const child = spawn(
    ETCD_BINARY,
    [
      '--name', name,
      '--data-dir', join(dir, 'data'),
      '--listen-client-urls', `http://127.0.0.1:${client}`,
      '--advertise-client-urls', `http://127.0.0.1:${client}`,
      '--listen-peer-urls', `http://127.0.0.1:${peer}`,
      '--initial-advertise-peer-urls', `http://127.0.0.1:${peer}`,
      '--initial-cluster', `${name}=http://127.0.0.1:${peer}`,
      '--log-level', 'error',
      '--logger', 'zap',
    ],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  running.add(child);
  let stderr = '';
  child.stderr!.on('data', (d: Buffer) => (stderr = (stderr + d.toString('utf8')).slice(-4000)));
  let stopped: Promise<void> | undefined;
  const stop = () =>
    (stopped ??= (async () => {
      if (child.exitCode === null && child.signalCode === null) {
        const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
        child.kill('SIGKILL');
        await exited;
      }
      running.delete(child);
      await rm(dir, { recursive: true, force: true });
    })());
  const endpoint = `127.0.0.1:${client}`;
  const password = randomBytes(12).toString('hex');
  try {
    const deadline = Date.now() + (o.readyMs ?? 20_000);
    const setup = new Etcd3({ hosts: `http://${endpoint}`, dialTimeout: 1000 });
    try {
      for (;;) {
        if (child.exitCode !== null) throw new Error(`etcd exited (${child.exitCode}): ${stderr}`);
        try {
          await setup.maintenance.status();
          break;
        } catch (err) {
          if (Date.now() > deadline) throw new Error(`etcd did not answer within ${o.readyMs ?? 20_000} ms: ${(err as Error).message} ${stderr}`, { cause: err });
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
      }
      // etcd's authentication: a root user (root role) with a password, then auth on.
      await setup.user('root').create(password);
      await setup.user('root').addRole('root');
      await setup.auth.authEnable();
    } finally {
      setup.close();
    }
  } catch (err) {
    await stop();
    throw err;
  }
  return { endpoint, auth: { username: 'root', password }, pid: child.pid!, stop };
}
