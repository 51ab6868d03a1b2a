/**
 * Virtual networks in tests: whether this host can make them (root, iproute2, nftables, nsenter,
 * bubblewrap), what the agent made (netns, links, nft tables, looked at with `ip` and `nft`), an
 * app that reaches other instances from inside its own, and cleaning up: what an agent makes
 * carries fixed prefixes (agent/src/network/host-networks.ts NAME_PREFIXES), what the tests make
 * themselves `plt`, so that a run killed half way is cleaned up by the next one.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { ExecutionContext } from 'ava';
import { bwrapWorks } from './agent-process.js';
import { tarGz } from './apps.js';
import { agentPrefixes } from './leftovers.js';

/** The system's directories only: under npm, node_modules/.bin is first in PATH, and an npm package is named `nft`. */
const SBIN = '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin';

function has(tool: string): boolean {
  return spawnSync('sh', ['-c', `command -v ${tool}`], { env: { ...process.env, PATH: SBIN }, stdio: 'ignore' }).status === 0;
}

/** Whether virtual networks can run here; says so (or fails under PLATFORM_REQUIRE_SYSTEM_TOOLS=1) when not. */
export function networksAvailable(t: ExecutionContext): boolean {
  const missing: string[] = [];
  if (process.getuid?.() !== 0) missing.push('root (network namespaces and bridges need CAP_NET_ADMIN)');
  for (const [tool, pkg] of [['ip', 'iproute2'], ['bridge', 'iproute2'], ['nft', 'nftables'], ['nsenter', 'util-linux']]) if (!has(tool!)) missing.push(`${tool} (apt-get install ${pkg})`);
  if (!bwrapWorks()) missing.push('bubblewrap (apt-get install bubblewrap)');
  if (missing.length === 0) return true;
  const message = `needs ${missing.join(', ')}`;
  if (process.env['PLATFORM_REQUIRE_SYSTEM_TOOLS'] === '1') throw new Error(message);
  t.log(`skipped: ${message}`);
  return false;
}

/** Runs a host command (ip, nft, bridge); answers stdout. */
export function sh(argv: string[]): string {
  return execFileSync(argv[0]!, argv.slice(1), { encoding: 'utf8', env: { ...process.env, PATH: SBIN }, stdio: ['ignore', 'pipe', 'pipe'] });
}

function quiet(argv: string[]): void {
  spawnSync(argv[0]!, argv.slice(1), { env: { ...process.env, PATH: SBIN }, stdio: 'ignore' });
}

export const netnsList = (): string[] => sh(['ip', 'netns', 'list']).split('\n').map((l) => l.split(' ')[0]!).filter(Boolean);
export const linkNames = (): string[] => sh(['ip', '-o', 'link', 'show']).split('\n').map((l) => /^\d+: ([^:@]+)/.exec(l)?.[1] ?? '').filter(Boolean);
export const nftTables = (): string[] => sh(['nft', 'list', 'tables']).split('\n').map((l) => l.trim()).filter(Boolean);
/** The lines of the agent's inet table `name` (empty when it is not there). */
export function nftRules(name: string): string[] {
  try {
    return sh(['nft', 'list', 'table', 'inet', name]).split('\n').map((l) => l.trim());
  } catch {
    return [];
  }
}
export const ipIn = (netns: string, args: string[]): string => sh(['ip', '-n', netns, ...args]);

/** What agent `agent` names after an instance and a network (host-networks.ts HostNetworks.names). */
export function namesOf(agent: string, instance: string, network: string): { netns: string; veth: string; bridge: string; vxlan: string; table: string } {
  const hex = (u: string, n: number) => u.replace(/-/g, '').toLowerCase().slice(0, n);
  const p = agentPrefixes(agent);
  return { netns: `${p.netns}${instance}`, veth: `${p.veth}${hex(instance, 7)}`, bridge: `${p.bridge}${hex(network, 7)}`, vxlan: `${p.vxlan}${hex(network, 7)}`, table: `${p.table}${hex(instance, 11)}` };
}

/**
 * The network namespace of an instance on a network of its own, as its agent recorded it
 * (`<data dir>/instances/<uuid>/instance.json`): `pln-<agent>-<instance uuid>`, or the name of
 * the namespace the agent made ahead when it came from its pool (--network-pool).
 */
export function instanceNetns(agent: { dataDir: string }, instanceUuid: string): string {
  const rec = JSON.parse(readFileSync(join(agent.dataDir, 'instances', instanceUuid, 'instance.json'), 'utf8')) as { network?: { netns?: string } };
  if (!rec.network?.netns) throw new Error(`instance ${instanceUuid} has no network namespace in its record`);
  return rec.network.netns;
}

/** An agent's namespace without processes this old is a leftover (one being set up is younger). */
const OLD_MS = 60_000;
/** What a test made this long ago belongs to a run that was killed (tests run side by side). */
const OLD_TEST_MS = 10 * 60_000;

function ageMs(netns: string): number | undefined {
  try {
    return Date.now() - statSync(`/run/netns/${netns}`).ctimeMs;
  } catch {
    return undefined;
  }
}

/**
 * Removes what killed runs left, never what a test running beside this one uses: agent
 * namespaces without processes that are older than a minute, the tests' own namespaces (`plt`)
 * older than ten minutes, bridges without veths (a test's bridge only when its namespaces are
 * gone: the tests make those first), broadcast tables of veths that are gone.
 */
export function sweepLeftovers(): void {
  for (const ns of netnsList()) {
    const age = ageMs(ns);
    if (age === undefined) continue;
    if (ns.startsWith('plt') ? age > OLD_TEST_MS : ns.startsWith('pln-') && age > OLD_MS && sh(['ip', 'netns', 'pids', ns]).trim() === '') {
      quiet(['ip', 'netns', 'delete', ns]);
    }
  }
  const namespaces = netnsList();
  // An agent makes an instance's namespace, then the bridge, then the veth: while a young one
  // exists, a bridge without veths may be one being set up.
  const settingUp = namespaces.some((ns) => ns.startsWith('pln-') && (ageMs(ns) ?? 0) < OLD_MS);
  for (const link of linkNames()) {
    const m = /^plt([0-9a-f]{6})b$/.exec(link);
    if (m && !namespaces.some((ns) => ns.startsWith(`plt${m[1]}`))) quiet(['ip', 'link', 'delete', link]);
    // An agent's own bridge (plb<ag>own) stays while the agent runs, with or without instances:
    // it is the agent's to remove (AgentProcess.dispose removes what a test's agent left).
    else if (link.startsWith('plb') && !link.endsWith('own') && !settingUp && sh(['ip', '-o', 'link', 'show', 'master', link]).split('\n').every((l) => !l.includes(': plv'))) {
      quiet(['ip', 'link', 'delete', `plx${link.slice(3)}`]);
      quiet(['ip', 'link', 'delete', link]);
    }
  }
  const live = new Set(linkNames());
  for (const table of nftTables()) {
    const m = /^table bridge (platform_bc_([0-9a-f]{5})[0-9a-f]{6}_([0-9a-f]{7})[0-9a-f]{4})$/.exec(table);
    if (m && !live.has(`plv${m[2]}${m[3]}`)) quiet(['nft', 'delete', 'table', 'bridge', m[1]!]);
  }
}

/**
 * An HTTP app on $PORT: `GET /` answers who it is; `GET /fetch?url=...` fetches that url from
 * inside the instance and answers `{ok, status, body}` or `{ok: false, error}`; `GET /resolve?name=`
 * answers the name's addresses as the instance resolves them; `GET /bytes?n=` sends n bytes;
 * `GET /pull?to=host:port&streams=N&ms=M` opens N TCP connections to host:port, reads what comes
 * for M ms and answers `{bits_per_second}` received from the end of the first second on;
 * `GET /env?name=` answers `{value}`, the variable's value. UDP datagrams to $PORT come back
 * with "udp:" before them.
 */
export const NETWORK_APP = `
const http = require('node:http');
const dns = require('node:dns');
const os = require('node:os');
const port = Number(process.env.PORT);
const server = http.createServer((req, res) => {
  const url = new URL(req.url, 'http://x');
  const send = (o) => { res.setHeader('content-type', 'application/json'); res.end(JSON.stringify(o)); };
  if (url.pathname === '/fetch') {
    const r = http.get(url.searchParams.get('url'), { timeout: 3000 }, (up) => {
      let body = '';
      up.on('data', (c) => (body += c));
      up.on('end', () => send({ ok: true, status: up.statusCode, body }));
    });
    r.on('timeout', () => r.destroy(new Error('timeout')));
    r.on('error', (e) => send({ ok: false, error: e.code || e.message }));
    return;
  }
  if (url.pathname === '/pull') {
    const [host, p] = url.searchParams.get('to').split(':');
    const ms = Number(url.searchParams.get('ms') || 5000);
    let bytes = 0;
    let from = 0;
    const sockets = [];
    for (let i = 0; i < Number(url.searchParams.get('streams') || 1); i++) {
      const s = require('node:net').connect(Number(p), host);
      s.on('data', (d) => (bytes += d.length));
      s.on('error', () => {});
      sockets.push(s);
    }
    setTimeout(() => (from = bytes), 1000);
    setTimeout(() => {
      for (const s of sockets) s.destroy();
      send({ bits_per_second: ((bytes - from) * 8 * 1000) / (ms - 1000) });
    }, ms);
    return;
  }
  if (url.pathname === '/env') return send({ value: process.env[url.searchParams.get('name')] ?? null });
  if (url.pathname === '/bytes') {
    const total = Number(url.searchParams.get('n'));
    const chunk = Buffer.alloc(64 * 1024, 120);
    let sent = 0;
    res.setHeader('content-length', String(total));
    const more = () => {
      while (sent < total) {
        const piece = total - sent >= chunk.length ? chunk : chunk.subarray(0, total - sent);
        sent += piece.length;
        if (!res.write(piece)) return res.once('drain', more);
      }
      res.end();
    };
    return more();
  }
  if (url.pathname === '/resolve') {
    dns.lookup(url.searchParams.get('name'), { all: true }, (err, addrs) => send(err ? { ok: false, error: err.code } : { ok: true, addresses: addrs.map((a) => a.address) }));
    return;
  }
  const addrs = Object.values(os.networkInterfaces()).flat().filter((a) => a.family === 'IPv4').map((a) => a.address);
  send({ instance: process.env.PLATFORM_INSTANCE_UUID, job: process.env.PLATFORM_JOB_UUID, addresses: addrs, port });
});
// LISTEN_HOST: one address only (127.0.0.1: an app that listens on its loopback alone).
server.listen(port, process.env.LISTEN_HOST || undefined, () => console.log('listening on ' + port));
// UDP on the same port: each datagram comes back with "udp:" before it.
const udp = require('node:dgram').createSocket('udp4');
udp.on('message', (m, from) => udp.send(Buffer.concat([Buffer.from('udp:'), m]), from.port, from.address));
udp.bind(port);
process.on('SIGTERM', () => server.close(() => process.exit(0)));
`;

export function networkAppArchive(): Buffer {
  return tarGz({ 'app/net.js': NETWORK_APP });
}

export interface AppAnswer {
  instance: string;
  job: string;
  addresses: string[];
  port: number;
}
export type FetchAnswer = { ok: true; status: number; body: string } | { ok: false; error: string };
