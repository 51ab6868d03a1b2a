/**
 * Test support: a real etcd (Debian's etcd-server, /usr/bin/etcd) of one member, or a cluster of
 * several (`members: 3`, what the failover tests run on), started on loopback ports in a
 * temporary directory with etcd's authentication on (user `root` and a generated password, as
 * controllers reach it in production: never an open port). stop() kills every member and removes
 * the directory; should the test process end first, its exit kills them too (and, where
 * util-linux's setpriv is, so does its death by any signal).
 * Exported from the package as `@platform/controller/testing` for the integration tests.
 *
 * With `tls`, its client URLs are HTTPS and ask for client certificates (`--client-cert-auth`),
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

/** One member of the test's etcd. */
export interface EtcdMember {
  /** Its name in the cluster. */
  name: string;
  /** host:port of its client listener. */
  endpoint: string;
  pid: number;
  /** Whether its process still runs. */
  readonly running: boolean;
  /** Kills it with SIGKILL (as a host that dies) and waits for its exit; its data stays. */
  kill(): Promise<void>;
}

export interface EtcdTestServer {
  /** host:port of the first member's client listener. */
  endpoint: string;
  /** host:port of every member's client listener, for a client given all of them. */
  endpoints: string[];
  members: EtcdMember[];
  /** The member that etcd's Raft has as its leader now (asked of the running members). */
  leader(): Promise<EtcdMember>;
  /** The root user (with `tls`, over a root client certificate: `rootTls`). */
  auth: { username: string; password: string };
  /** With `tls`: the CA, and the client certificate and key of the user `platform` (PEM). */
  tls?: { ca: Buffer; cert: Buffer; key: Buffer };
  /** With `tls`: a client certificate of root, for setting etcd up. */
  rootTls?: { ca: Buffer; cert: Buffer; key: Buffer };
  /** With `tls`: the files of `tls`, for the controller's PLATFORM_ETCD_CA, _CERT and _KEY. */
  files?: { ca: string; cert: string; key: string };
  /** The first member's process. */
  pid: number;
  /** The value of `key` as etcd holds it (read as root from the running members), or undefined. */
  get(key: string): Promise<string | undefined>;
  /** Kills every member (SIGKILL) and removes the directory. Safe to call more than once. */
  stop(): Promise<void>;
}

/**
 * `count` distinct free loopback ports: every one is held until all are picked (a port closed at
 * once may be handed out again by the next pick: two members then shared a port and a name).
 */
async function freePorts(count: number): Promise<number[]> {
  const servers = Array.from({ length: count }, () => createServer());
  try {
    for (const server of servers) await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return servers.map((server) => (server.address() as { port: number }).port);
  } finally {
    await Promise.all(servers.map((server) => new Promise<void>((resolve) => (server.listening ? server.close(() => resolve()) : resolve()))));
  }
}

const running = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of running) child.kill('SIGKILL');
});

/**
 * util-linux's setpriv, to start each member with a parent-death signal: a test process killed
 * outright (no exit handler runs) takes its etcd members with it.
 */
let setpriv: boolean | undefined;
function withParentDeathSignal(command: string, args: string[]): [string, string[]] {
  setpriv ??= spawnSync('setpriv', ['--help'], { encoding: 'utf8' }).stdout?.includes('--pdeathsig') ?? false;
  return setpriv ? ['setpriv', ['--pdeathsig', 'KILL', '--', command, ...args]] : [command, args];
}

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


/** A member's process, and the last of what it wrote to stderr (for a failure's message). */
interface Spawned {
  name: string;
  client: number;
  child: ChildProcess;
  stderr: () => string;
}

/** Kills `child` (SIGKILL) unless it has exited, and waits for its exit. */
async function kill(child: ChildProcess): Promise<void> {
  if (child.exitCode === null && child.signalCode === null) {
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    child.kill('SIGKILL');
    await exited;
  }
  running.delete(child);
}

/**
 * Starts etcd of `members` members (default 1) and waits (up to `readyMs`) until it answers with
 * a leader, then turns its authentication on.
 */
export async function startEtcd(o: { readyMs?: number; tls?: boolean; members?: number } = {}): Promise<EtcdTestServer> {
  const count = o.members ?? 1;
  if (!Number.isInteger(count) || count < 1) throw new Error(`etcd test server: members must be a positive integer, not ${count}`);
  const dir = await mkdtemp(join(tmpdir(), 'platform-etcd-'));
  const scheme = o.tls ? 'https' : 'http';
  const spawned: Spawned[] = [];
  let stopped: Promise<void> | undefined;
  const stop = () =>
    (stopped ??= (async () => {
      await Promise.all(spawned.map((m) => kill(m.child)));
      await rm(dir, { recursive: true, force: true });
    })());
  try {
    if (o.tls) await makeCertificates(dir);
    const ports: { client: number; peer: number }[] = [];
    const picked = await freePorts(2 * count);
    for (let i = 0; i < count; i++) ports.push({ client: picked[2 * i]!, peer: picked[2 * i + 1]! });
    const names = ports.map((p) => `test-${p.client}`);
    const initialCluster = ports.map((p, i) => `${names[i]}=http://127.0.0.1:${p.peer}`).join(',');
    const token = `platform-test-${randomBytes(6).toString('hex')}`;
    for (const [i, { client, peer }] of ports.entries()) {
      const name = names[i]!;
      const child = spawn(
        ...withParentDeathSignal(ETCD_BINARY, [
          '--name', name,
          '--data-dir', join(dir, name),
          '--listen-client-urls', `${scheme}://127.0.0.1:${client}`,
          '--advertise-client-urls', `${scheme}://127.0.0.1:${client}`,
          ...(o.tls ? ['--cert-file', join(dir, 'server.pem'), '--key-file', join(dir, 'server.key'), '--client-cert-auth', '--trusted-ca-file', join(dir, 'ca.pem')] : []),
          '--listen-peer-urls', `http://127.0.0.1:${peer}`,
          '--initial-advertise-peer-urls', `http://127.0.0.1:${peer}`,
          '--initial-cluster', initialCluster,
          '--initial-cluster-token', token,
          '--initial-cluster-state', 'new',
          '--log-level', 'error',
          '--logger', 'zap',
        ]),
        { stdio: ['ignore', 'ignore', 'pipe'] },
      );
      running.add(child);
      let stderr = '';
      child.stderr!.on('data', (d: Buffer) => (stderr = (stderr + d.toString('utf8')).slice(-4000)));
      spawned.push({ name, client, child, stderr: () => stderr });
    }
  } catch (err) {
    await stop();
    throw err;
  }
  const endpoints = spawned.map((m) => `127.0.0.1:${m.client}`);
  const password = randomBytes(12).toString('hex');
  const certificates = async (user: string) => ({ ca: await readFile(join(dir, 'ca.pem')), cert: await readFile(join(dir, `${user}.pem`)), key: await readFile(join(dir, `${user}.key`)) });
  let tls: EtcdTestServer['tls'];
  let rootTls: EtcdTestServer['rootTls'];
  /** A client of root on `hosts`: by password once authentication is on, by certificate with `tls`. */
  const rootClient = (hosts: string[], withPassword: boolean) =>
    new Etcd3({
      hosts: hosts.map((e) => `${scheme}://${e}`),
      dialTimeout: 1000,
      ...(rootTls ? { credentials: { rootCertificate: rootTls.ca, certChain: rootTls.cert, privateKey: rootTls.key } } : {}),
      ...(withPassword && !rootTls ? { auth: { username: 'root', password } } : {}),
    });
  try {
    if (o.tls) [tls, rootTls] = [await certificates('platform'), await certificates('root')];
    const deadline = Date.now() + (o.readyMs ?? 20_000);
    // Each member answers, and the cluster has elected a leader.
    for (const [i, m] of spawned.entries()) {
      const probe = rootClient([endpoints[i]!], false);
      try {
        for (;;) {
          if (m.child.exitCode !== null) throw new Error(`etcd member ${m.name} exited (${m.child.exitCode}): ${m.stderr()}`);
          try {
            const status = await probe.maintenance.status();
            if (status.leader !== '0') break;
          } catch (err) {
            if (Date.now() > deadline) throw new Error(`etcd member ${m.name} did not answer within ${o.readyMs ?? 20_000} ms: ${(err as Error).message} ${m.stderr()}`, { cause: err });
          }
          if (Date.now() > deadline) throw new Error(`etcd of ${count} members elected no leader within ${o.readyMs ?? 20_000} ms`);
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
      } finally {
        probe.close();
      }
    }
    const setup = rootClient(endpoints, false);
    try {
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
  const members: EtcdMember[] = spawned.map((m, i) => ({
    name: m.name,
    endpoint: endpoints[i]!,
    pid: m.child.pid!,
    get running() {
      return m.child.exitCode === null && m.child.signalCode === null;
    },
    kill: () => kill(m.child),
  }));
  const leader = async (): Promise<EtcdMember> => {
    // Each running member says which member it has as leader, and who it is: the one whose own id that is.
    const statuses = await Promise.all(
      members.map(async (m) => {
        if (!m.running) return undefined;
        const client = rootClient([m.endpoint], true);
        try {
          return { member: m, status: await client.maintenance.status() };
        } catch {
          return undefined; // a member that does not answer is not the leader we can name
        } finally {
          client.close();
        }
      }),
    );
    const found = statuses.find((s) => s && s.status.leader !== '0' && s.status.header.member_id === s.status.leader);
    if (!found) throw new Error(`no running etcd member is the leader now (${members.filter((m) => m.running).length} of ${members.length} running)`);
    return found.member;
  };
  return {
    endpoint: endpoints[0]!,
    endpoints,
    members,
    leader,
    auth: { username: 'root', password },
    ...(tls && rootTls ? { tls, rootTls, files: { ca: join(dir, 'ca.pem'), cert: join(dir, 'platform.pem'), key: join(dir, 'platform.key') } } : {}),
    pid: members[0]!.pid,
    get: async (key) => {
      const client = rootClient(members.filter((m) => m.running).map((m) => m.endpoint), true);
      try {
        return (await client.get(key).string()) ?? undefined;
      } finally {
        client.close();
      }
    },
    stop,
  };
}
