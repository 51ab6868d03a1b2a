/**
 * Test support: a real etcd (Debian's etcd-server, /usr/bin/etcd) of one member, started on
 * loopback ports in a temporary directory with etcd's authentication on (user `root` and a
 * generated password, as controllers reach it in production: never an open port), and killed
 * with its directory removed on stop() and, should the test process end first, at its exit.
 * Exported from the package as `@platform/controller/testing` for the integration tests.
 *
 * With `tls`, its client URL is HTTPS and asks for client certificates (`--client-cert-auth`),
 * signed by a CA made for the test; etcd then takes a certificate's common name as its user.
 * `tls` holds the certificate of the user `platform`, whose role may read and write under
 * `/platform/` only: how docs/operators.md has the controllers reach etcd.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
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
  /** The root user (with `tls`, over a root client certificate: `rootTls`). */
  auth: { username: string; password: string };
  /** With `tls`: the CA, and the client certificate and key of the user `platform` (PEM). */
  tls?: { ca: Buffer; cert: Buffer; key: Buffer };
  /** With `tls`: a client certificate of root, for setting etcd up. */
  rootTls?: { ca: Buffer; cert: Buffer; key: Buffer };
  /** With `tls`: the files of `tls`, for the controller's PLATFORM_ETCD_CA, _CERT and _KEY. */
  files?: { ca: string; cert: string; key: string };
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

function openssl(dir: string, args: string[]): void {
  const r = spawnSync('openssl', args, { cwd: dir, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`openssl ${args[0]} failed: ${r.error?.message ?? ''}${r.stderr}`);
}

/** A CA, a server certificate for 127.0.0.1, and client certificates for `root` and `platform`. */
async function makeCertificates(dir: string): Promise<void> {
  openssl(dir, ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', 'ca.key', '-out', 'ca.pem', '-days', '2', '-subj', '/CN=platform test etcd CA']);
  const issue = async (name: string, ext: string) => {
    await writeFile(join(dir, `${name}.ext`), ext);
    openssl(dir, ['req', '-newkey', 'rsa:2048', '-nodes', '-keyout', `${name}.key`, '-out', `${name}.csr`, '-subj', `/CN=${name}`]);
    openssl(dir, ['x509', '-req', '-in', `${name}.csr`, '-CA', 'ca.pem', '-CAkey', 'ca.key', '-CAcreateserial', '-out', `${name}.pem`, '-days', '2', '-extfile', `${name}.ext`]);
  };
  await issue('server', 'subjectAltName=IP:127.0.0.1,DNS:localhost\nextendedKeyUsage=serverAuth,clientAuth\n');
  await issue('root', 'extendedKeyUsage=clientAuth\n');
  await issue('platform', 'extendedKeyUsage=clientAuth\n');
}

/** Starts etcd and waits (up to `readyMs`) until it answers with authentication on. */
export async function startEtcd(o: { readyMs?: number; tls?: boolean } = {}): Promise<EtcdTestServer> {
  const dir = await mkdtemp(join(tmpdir(), 'platform-etcd-'));
  const [client, peer] = [await freePort(), await freePort()];
  const name = `test-${client}`;
  const scheme = o.tls ? 'https' : 'http';
  try {
    if (o.tls) await makeCertificates(dir);
  } catch (err) {
    await rm(dir, { recursive: true, force: true });
    throw err;
  }
  const child = spawn(
    ETCD_BINARY,
    [
      '--name', name,
      '--data-dir', join(dir, 'data'),
      '--listen-client-urls', `${scheme}://127.0.0.1:${client}`,
      '--advertise-client-urls', `${scheme}://127.0.0.1:${client}`,
      ...(o.tls ? ['--cert-file', join(dir, 'server.pem'), '--key-file', join(dir, 'server.key'), '--client-cert-auth', '--trusted-ca-file', join(dir, 'ca.pem')] : []),
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
  const certificates = async (user: string) => ({ ca: await readFile(join(dir, 'ca.pem')), cert: await readFile(join(dir, `${user}.pem`)), key: await readFile(join(dir, `${user}.key`)) });
  let tls: EtcdTestServer['tls'];
  let rootTls: EtcdTestServer['rootTls'];
  try {
    if (o.tls) [tls, rootTls] = [await certificates('platform'), await certificates('root')];
    const deadline = Date.now() + (o.readyMs ?? 20_000);
    const setup = new Etcd3({
      hosts: `${scheme}://${endpoint}`,
      dialTimeout: 1000,
      ...(rootTls ? { credentials: { rootCertificate: rootTls.ca, certChain: rootTls.cert, privateKey: rootTls.key } } : {}),
    });
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
      if (o.tls) {
        // The controllers' user: its certificate's common name, its role confined to /platform/.
        await setup.role('platform').create();
        await setup.role('platform').grant({ permission: 'Readwrite', range: setup.range({ prefix: '/platform/' }) });
        await setup.user('platform').create(randomBytes(12).toString('hex'));
        await setup.user('platform').addRole('platform');
      }
      await setup.auth.authEnable();
    } finally {
      setup.close();
    }
  } catch (err) {
    await stop();
    throw err;
  }
  return {
    endpoint,
    auth: { username: 'root', password },
    ...(tls && rootTls ? { tls, rootTls, files: { ca: join(dir, 'ca.pem'), cert: join(dir, 'platform.pem'), key: join(dir, 'platform.key') } } : {}),
    pid: child.pid!,
    stop,
  };
}
