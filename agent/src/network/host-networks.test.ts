/**
 * What an agent left on the host, found by its own name prefixes and removed (real namespaces,
 * interfaces and nft tables: root, iproute2 and nftables). Every object this test makes carries
 * the prefixes of two random agent uuids, and the teardown removes them all even when it fails.
 */
import { randomUUID } from 'node:crypto';
import { execFileSync, spawnSync } from 'node:child_process';
import { createServer, type AddressInfo } from 'node:net';
import test from 'ava';
import { silentLogger } from '@platform/proto/common';
import { requireTool } from '../test-support/system.js';
import { missingNetworkTools, tool } from './commands.js';
import { acceptingPorts, agentPrefixes, egressRules, forwardsMap, HostNetworks, instanceRules, ownSubnetClash, POOL_NAME, type NetworkAttachment } from './host-networks.js';
import { tempDir } from '../test-support/temp.js';
import { eventually } from '../test-support/wait.js';
import { parseCidr } from '@platform/proto/common';
import { PortForwarders } from './port-forwarder.js';
import { instanceHandles } from './shaping.js';

/** A TCP port free on 127.0.0.1 now (the forwarders listen there). */
const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const server = createServer().once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolve(port));
    });
  });
const sh = (argv: string[], input?: string) => execFileSync(argv[0]!, argv.slice(1), { encoding: 'utf8', ...(input ? { input } : {}) });
const quiet = (argv: string[]) => spawnSync(argv[0]!, argv.slice(1), { stdio: 'ignore' });
const namespaces = () => sh([tool('ip'), 'netns', 'list']).split('\n').map((l) => l.split(' ')[0]!).filter(Boolean);
const links = () => sh([tool('ip'), '-o', 'link', 'show']).split('\n').map((l) => /^\d+: ([^:@]+)/.exec(l)?.[1] ?? '').filter(Boolean);
const tables = () => sh([tool('nft'), 'list', 'tables']).split('\n').map((l) => l.trim()).filter(Boolean);

test('networks: removeLeftovers deletes the agent\'s own namespaces, interfaces and tables that no kept instance holds, and nothing of another agent', async (t) => {
  if (!requireTool(t, missingNetworkTools() === undefined, 'root with iproute2, nftables and nsenter')) return;
  const ip = tool('ip');
  const nft = tool('nft');
  const agent = randomUUID();
  const other = randomUUID();
  const p = agentPrefixes(agent);
  const q = agentPrefixes(other);
  const kept = { netns: `${p.netns}${randomUUID()}`, veth: `${p.veth}2222222`, bridge: `${p.bridge}2222222`, table: `${p.table}22222222222` };
  const lost = { netns: `${p.netns}${randomUUID()}`, veth: `${p.veth}1111111`, bridge: `${p.bridge}1111111`, vxlan: `${p.vxlan}1111111`, ifb: p.ownIfb, table: `${p.table}11111111111` };
  const foreign = { netns: `${q.netns}${randomUUID()}`, bridge: `${q.bridge}3333333`, table: `${q.table}33333333333`, uidTable: q.uidTable };
  t.teardown(() => {
    for (const ns of [kept.netns, lost.netns, foreign.netns]) quiet([ip, 'netns', 'delete', ns]);
    for (const l of [kept.veth, kept.bridge, lost.veth, lost.bridge, lost.vxlan, lost.ifb, foreign.bridge]) quiet([ip, 'link', 'delete', l]);
    for (const tb of [kept.table, lost.table, foreign.table]) quiet([nft, 'delete', 'table', 'bridge', tb]);
    for (const tb of [p.uidTable, q.uidTable]) quiet([nft, 'delete', 'table', 'inet', tb]);
  });
  for (const ns of [kept.netns, lost.netns, foreign.netns]) sh([ip, 'netns', 'add', ns]);
  for (const b of [kept.bridge, lost.bridge, foreign.bridge]) sh([ip, 'link', 'add', b, 'type', 'bridge']);
  sh([ip, 'link', 'add', lost.ifb, 'type', 'ifb']);
  sh([ip, 'link', 'add', lost.vxlan, 'type', 'vxlan', 'id', '4242', 'dstport', '4789', 'local', '127.0.0.1', 'nolearning']);
  sh([ip, 'link', 'add', kept.veth, 'type', 'veth', 'peer', 'name', 'eth0', 'netns', kept.netns]);
  sh([ip, 'link', 'add', lost.veth, 'type', 'veth', 'peer', 'name', 'eth0', 'netns', lost.netns]);
  for (const tb of [kept.table, lost.table, foreign.table]) sh([nft, 'add', 'table', 'bridge', tb]);
  for (const tb of [p.uidTable, q.uidTable]) sh([nft, 'add', 'table', 'inet', tb]);

  const networks = new HostNetworks({ address: '127.0.0.1', agentUuid: agent, log: silentLogger, forwarders: new PortForwarders(silentLogger) });
  const attachment = { netns: kept.netns, hostVeth: kept.veth, bridge: kept.bridge, vxlan: `${p.vxlan}2222222`, broadcastTable: kept.table } as NetworkAttachment;
  const removed = await networks.removeLeftovers([attachment]);
  // The lost veth goes with its namespace, but the kernel tears a namespace down after `ip netns
  // delete` returns: the listing that follows may still show the veth, which is then deleted (or
  // found gone) and named. Either is right; what must hold is the rest of the list.
  t.deepEqual(removed.filter((r) => r !== `link ${lost.veth}`).sort(), [`link ${lost.bridge}`, `link ${lost.vxlan}`, `link ${lost.ifb}`, `netns ${lost.netns}`, `nft table bridge ${lost.table}`].sort());
  const ns = namespaces();
  const ls = links();
  const ts = tables();
  t.true(ns.includes(kept.netns) && ls.includes(kept.veth) && ls.includes(kept.bridge) && ts.includes(`table bridge ${kept.table}`), 'what a kept instance holds stays');
  t.true(ts.includes(`table inet ${p.uidTable}`), 'the uid table stays while an instance is kept');
  t.false(ns.includes(lost.netns) || ls.includes(lost.veth) || ls.includes(lost.bridge) || ls.includes(lost.vxlan) || ls.includes(lost.ifb) || ts.includes(`table bridge ${lost.table}`));
  t.true(ns.includes(foreign.netns) && ls.includes(foreign.bridge) && ts.includes(`table bridge ${foreign.table}`) && ts.includes(`table inet ${foreign.uidTable}`), 'another agent\'s objects stay');

  // Nothing kept (the agent stopped its instances): all of its own goes, the uid table too.
  await networks.removeLeftovers([]);
  t.false(namespaces().includes(kept.netns));
  t.false(links().some((l) => l.startsWith(p.veth) || l.startsWith(p.bridge) || l.startsWith(p.vxlan)));
  t.false(tables().some((tb) => tb.includes(p.table) || tb.includes(p.uidTable)));
  t.true(namespaces().includes(foreign.netns) && tables().includes(`table inet ${foreign.uidTable}`));
});

test('networks: an instance subnet that an interface of the host already has is a clash (another cluster\'s agent, the host\'s own network); the agent\'s own bridge is not', (t) => {
  const lines = [
    '1: lo    inet 127.0.0.1/8 scope host lo\\       valid_lft forever preferred_lft forever',
    '2: eth0    inet 10.192.0.77/16 brd 10.192.255.255 scope global eth0\\       valid_lft forever preferred_lft forever',
    '7: plbaaaaown    inet 10.192.3.1/24 scope global plbaaaaown\\       valid_lft forever preferred_lft forever',
    '9: plbbbbbown    inet 10.193.5.1/24 scope global plbbbbbown\\       valid_lft forever preferred_lft forever',
  ].join('\n');
  t.deepEqual(ownSubnetClash(lines, parseCidr('10.192.3.0/24'), 'plbaaaaown'), { device: 'eth0', cidr: '10.192.0.77/16' });
  t.deepEqual(ownSubnetClash(lines, parseCidr('10.193.5.0/24'), 'plbaaaaown'), { device: 'plbbbbbown', cidr: '10.193.5.1/24' });
  t.is(ownSubnetClash(lines, parseCidr('10.193.6.0/24'), 'plbaaaaown'), undefined);
  t.is(ownSubnetClash(lines.split('\n').slice(2).join('\n'), parseCidr('10.192.3.0/24'), 'plbaaaaown'), undefined, 'its own bridge is its own');
});

test('networks: the floor classes of an instance follow its place in the subnet (class 1:<offset + 16>, the u32 bucket its address\'s last byte), and an address that fits none has none', (t) => {
  const net24 = parseCidr('10.192.3.0/24');
  t.deepEqual(instanceHandles(net24, '10.192.3.2'), { minor: '12', bucket: '2', filter: '2:2:1' });
  t.deepEqual(instanceHandles(net24, '10.192.3.254'), { minor: '10e', bucket: 'fe', filter: '2:fe:1' });
  const net23 = parseCidr('10.192.2.0/23');
  t.deepEqual(instanceHandles(net23, '10.192.3.7'), { minor: '117', bucket: '7', filter: '2:7:2' }, 'the second /24 of a /23: another item in the same bucket');
  const net26 = parseCidr('10.192.3.64/26');
  t.deepEqual(instanceHandles(net26, '10.192.3.66'), { minor: '12', bucket: '42', filter: '2:42:1' }, 'the bucket is the address\'s last byte, not the offset');
  t.is(instanceHandles(net24, '10.192.4.2'), undefined, 'outside the subnet');
  t.is(instanceHandles(net24, '10.192.3.0'), undefined, 'the network address');
  t.is(instanceHandles(parseCidr('10.0.0.0/8'), '10.1.0.0'), undefined, 'no class number left');
});

test('networks: a pool of namespaces made ahead is handed to starting instances ready (eth0 with the address, the default route), made again while none starts, emptied on demand; one deleted meanwhile is not handed out; a killed agent\'s are removed at its next start', async (t) => {
  if (!requireTool(t, missingNetworkTools() === undefined, 'root with iproute2, nftables and nsenter')) return;
  const ip = tool('ip');
  const agent = randomUUID();
  const p = agentPrefixes(agent);
  const held: NetworkAttachment[] = [];
  // Made for the pool and not handed out (an instance keeps the pool's name).
  const poolNs = () => namespaces().filter((n) => n.startsWith(`${p.netns}${POOL_NAME}`) && !held.some((a) => a.netns === n));
  t.teardown(() => {
    for (const ns of namespaces()) if (ns.startsWith(p.netns)) quiet([ip, 'netns', 'delete', ns]);
    for (const l of links()) if (l.startsWith(p.veth) || l.startsWith(p.bridge)) quiet([ip, 'link', 'delete', l]);
    quiet([tool('nft'), 'delete', 'table', 'inet', p.egressTable]);
  });
  // A /24 of its own (tests run side by side; the agent refuses one a host interface has).
  const subnet = `10.251.${1 + Math.floor(Math.random() * 250)}.0/24`;
  const gateway = subnet.replace(/0\/24$/, '1');
  const options = { address: '127.0.0.1', agentUuid: agent, log: silentLogger, forwarders: new PortForwarders(silentLogger), ownNetworks: true, pool: 2 };
  const networks = new HostNetworks(options);
  networks.setOwnSubnet(subnet);
  const attach = async () => {
    const a = await networks.attachOwn(randomUUID(), 'job', tempDir(t, 'pool-'), [], () => {});
    held.push(a);
    return a;
  };

  const first = await attach();
  t.false(first.netns.includes(POOL_NAME), 'the first instance makes its own: the pool is filled once the bridge is there');
  await eventually(() => networks.pooled === 2, 'the pool filled');
  t.is(poolNs().length, 2);
  // Someone deletes one of them: the other is handed out, the deleted one never.
  const [gone, other] = poolNs() as [string, string];
  sh([ip, 'netns', 'delete', gone]);
  const second = await attach();
  const fourth = await attach();
  t.true([second, fourth].some((a) => a.netns === other));
  t.false([second, fourth].some((a) => a.netns === gone));
  t.true(second.netns.includes(POOL_NAME));
  for (const a of [second, fourth]) {
    t.regex(sh([ip, '-n', a.netns, '-o', '-4', 'addr', 'show', 'dev', 'eth0']), new RegExp(`inet ${a.address.replaceAll('.', '\\.')}/24 `));
    t.regex(sh([ip, '-n', a.netns, 'route', 'show', 'default']), new RegExp(`default via ${gateway.replaceAll('.', '\\.')} dev eth0`));
  }
  t.is(new Set([first, second, fourth].map((a) => a.address)).size, 3);
  await eventually(() => networks.pooled === 2 && poolNs().length === 2, 'the pool filled again');
  t.false(poolNs().includes(gone));

  // One with ports on a namespace made ahead: its ports join the set of the table it has, and
  // the host port the egress table's map; taken off, the map no longer has it.
  const hostPort = await freePort();
  const ported = await networks.attachOwn(randomUUID(), 'job', tempDir(t, 'pool-'), [], () => {}, { host: [hostPort], inside: [8080] });
  held.push(ported);
  t.true(ported.netns.includes(POOL_NAME));
  t.regex(sh(['nsenter', `--net=/run/netns/${ported.netns}`, '--', tool('nft'), 'list', 'set', 'ip', 'platform_instance', 'ports']), /elements = \{ 8080 \}/);
  t.is(sh(['nsenter', `--net=/run/netns/${ported.netns}`, '--', 'cat', '/proc/sys/net/ipv4/conf/eth0/route_localnet']).trim(), '1');
  const map = () => sh([tool('nft'), 'list', 'map', 'inet', p.egressTable, 'forwards']);
  t.regex(map(), new RegExp(`${hostPort} : ${ported.address.replaceAll('.', '\\.')} \\. 8080`));
  await networks.detach(ported);
  held.splice(held.indexOf(ported), 1);
  t.notRegex(map(), new RegExp(`${hostPort} :`));
  await eventually(() => networks.pooled === 2, 'the pool filled again after the ported one');

  await networks.emptyPool();
  t.deepEqual(poolNs(), [], 'emptied: its namespaces are deleted');
  t.is(networks.pooled, 0);
  const third = await attach();
  t.false(third.netns.includes(POOL_NAME));
  await eventually(() => networks.pooled === 2, 'the pool filled after the next start');
  t.true(new Set([first, second, third, fourth].map((a) => a.address)).size === 4 && poolNs().length === 2);

  // The agent is killed: its next start removes the pool's namespaces and keeps its instances'.
  const restarted = new HostNetworks(options);
  await restarted.removeLeftovers(held);
  t.deepEqual(poolNs(), []);
  t.true(held.every((a) => namespaces().includes(a.netns)));
  await networks.closePool();
  for (const a of held) await restarted.detach(a);
  await restarted.removeLeftovers([]);
  t.deepEqual(namespaces().filter((n) => n.startsWith(p.netns)), []);
});

test('acceptingPorts: the ports that accept a connection at the address, and not those refused; the application sees the try closed', async (t) => {
  const { createServer } = await import('node:net');
  let seen = 0;
  const server = createServer((s) => {
    seen++;
    s.on('error', () => {});
    s.resume();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => new Promise<void>((resolve) => server.close(() => resolve())));
  const open = (server.address() as { port: number }).port;
  // A port just freed: nothing listens there.
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const closed = (probe.address() as { port: number }).port;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  t.deepEqual([...(await acceptingPorts('127.0.0.1', [open, closed])())], [open]);
  t.deepEqual([...(await acceptingPorts('127.0.0.1', [closed])())], []);
  t.deepEqual([...(await acceptingPorts('127.0.0.1', [])())], []);
  await eventually(() => seen === 1, 'the server saw the one try', 5_000);
});

test('networks: forwarded ports are a map of the egress table (host port -> address . port), which the rules look up; a start changes the map alone', (t) => {
  t.deepEqual([...forwardsMap([{ hostPort: 30001, to: '10.9.0.2:8080' }, { hostPort: 30002, to: '10.9.0.3:30002' }, { hostPort: 30001, to: '10.9.0.9:1' }])], [
    [30001, '10.9.0.2 . 8080'],
    [30002, '10.9.0.3 . 30002'],
  ]);
  const forwards = [{ hostPort: 30001, to: '10.9.0.2:8080' }];
  const local = egressRules('t', 'br', '10.9.0.1', '10.9.0.0/24', { forward: [], input: [], dnat: [], ports: { address: '127.0.0.1', remote: false, forwards } });
  t.regex(local, /map forwards \{\n\s+type inet_service : ipv4_addr \. inet_service;\n\s+elements = \{ 30001 : 10\.9\.0\.2 \. 8080 \}/);
  t.regex(local, /chain output \{[^}]*ip daddr 127\.0\.0\.1 meta l4proto \{ tcp, udp \} dnat ip to th dport map @forwards/);
  t.notRegex(local, /iifname != "br"/, 'from elsewhere only when the host forwards');
  const remote = egressRules('t', 'br', '10.9.0.1', '10.9.0.0/24', { forward: [], input: [], dnat: [], ports: { address: '192.0.2.7', remote: true, forwards: [] } });
  t.regex(remote, /iifname != "br" ip daddr 192\.0\.2\.7 meta l4proto \{ tcp, udp \} dnat ip to th dport map @forwards/);
  t.notRegex(remote, /elements/, 'an empty map has no elements line (nft refuses an empty one)');
  // The instance's own table: its ports a set, which a namespace made ahead has empty.
  t.regex(instanceRules([], [8080, 8080, 9090], '10.9.0.1', '10.9.0.2'), /set ports \{\n\s+type inet_service;\n\s+elements = \{ 8080, 9090 \}/);
  t.regex(instanceRules([], [], '10.9.0.1', '10.9.0.2'), /iifname "eth0" ip daddr 10\.9\.0\.2 tcp dport @ports dnat ip to 127\.0\.0\.1/);
});
