/**
 * Virtual networks end to end on one host: a real controller and a real agent (bubblewrap, root)
 * that puts member instances in network namespaces of their own on the network's bridge. Members
 * reach each other by address and by `<discovery_address>.platform.local`, a job off the network
 * cannot reach them, their ports stay reachable where the agent reports them, options change
 * live, and leaving takes away the namespace, the veth and (with the last member) the bridge,
 * as `ip` shows. A manifest with a `networks` section runs end to end.
 */
import test, { type ExecutionContext } from 'ava';
import type { Job } from '@platform/controller';
import { httpAppJob, uploadPackage } from '../harness/apps.js';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { AgentProcess, killProcessesUnder } from '../harness/agent-process.js';
import { FAST_AGENT_TIMING, type ApiInstance, type TestCluster } from '../harness/cluster.js';
import { ControllerProcess } from '../harness/controller-process.js';
import { unique } from '../harness/fixtures.js';
import type { ApiClient } from '../harness/http.js';
import {
  ipIn,
  linkNames,
  namesOf,
  netnsList,
  networkAppArchive,
  networksAvailable,
  nftTables,
  sh,
  sweepLeftovers,
  type AppAnswer,
  type FetchAnswer,
} from '../harness/networks.js';
import { agentLeftovers } from '../harness/leftovers.js';
import { taskEnd } from '../harness/tasks.js';
import { eventually } from '../harness/wait.js';

interface Network {
  uuid: string;
  fqn: string;
  subnet_info: { Subnet: string };
  gateway: string;
  network_end_points: { fqn: string; end_point_interface?: { uuid: string; hardware_addr: string; ipv4_addr: string }[] }[];
}

async function get<T>(address: string, path: string): Promise<T> {
  const res = await fetch(`http://${address}${path}`, { signal: AbortSignal.timeout(10_000) });
  return (await res.json()) as T;
}

/** The one live instance of `job` that runs on network `subnet` (an address in it), and its answer. */
async function onNetwork(api: ApiClient, job: string, prefix: string): Promise<{ instance: ApiInstance; answer: AppAnswer; address: string; port: number }> {
  return eventually(
    async () => {
      const live = (await api.get<ApiInstance[]>(`/jobs/${job}/instances`)).body.filter((i) => i.state !== 'REMOVED');
      if (live.length !== 1 || live[0]!.state !== 'RUNNING') return undefined;
      const reported = Object.values(live[0]!.ports)[0]!;
      const answer = await get<AppAnswer>(reported, '/').catch(() => undefined);
      // In its own namespace an instance has its loopback and its address on the network, nothing else.
      const address = answer?.addresses.find((a) => a.startsWith(prefix));
      return answer && address && answer.addresses.length === 2 ? { instance: live[0]!, answer, address, port: answer.port } : undefined;
    },
    { timeoutMs: 90_000, what: `the instance of ${job} on the network` },
  );
}

/** The one live RUNNING instance of `job` on the host's network (no address in `prefix`). */
async function offNetwork(api: ApiClient, job: string, prefix: string): Promise<ApiInstance> {
  return eventually(
    async () => {
      const live = (await api.get<ApiInstance[]>(`/jobs/${job}/instances`)).body.filter((i) => i.state !== 'REMOVED');
      if (live.length !== 1 || live[0]!.state !== 'RUNNING') return undefined;
      const answer = await get<AppAnswer>(Object.values(live[0]!.ports)[0]!, '/').catch(() => undefined);
      // On the host's network: the host's interfaces (a bridge's gateway address among them, maybe).
      return answer && !(answer.addresses.length === 2 && answer.addresses.some((a) => a.startsWith(prefix))) ? live[0] : undefined;
    },
    { timeoutMs: 90_000, what: `the instance of ${job} off the network` },
  );
}

async function stopJob(api: ApiClient, uuid: string): Promise<void> {
  const current = (await api.get<Job>(`/jobs/${uuid}`)).body;
  await api.put(`/jobs/${uuid}`, { ...current, state: 'stopped' });
}

const fetchFrom = (instance: ApiInstance, url: string) => get<FetchAnswer>(Object.values(instance.ports)[0]!, `/fetch?url=${encodeURIComponent(url)}`);

let cluster: TestCluster | undefined;
let available = true;

test.before(async (t) => {
  available = networksAvailable(t as unknown as ExecutionContext);
  if (!available) return;
  sweepLeftovers();
});

test.after.always(async () => {
  if (!cluster) return;
  await Promise.all(cluster.agents.map((a) => a.dispose()));
  await cluster.controller.dispose();
  sweepLeftovers();
});

/** One controller and one agent for the serial tests of this file (torn down in test.after). */
async function theCluster(): Promise<TestCluster> {
  if (cluster) return cluster;
  // An agent killed and started again must not be declared lost meanwhile (its restart took more
  // than the 4 s of FAST_AGENT_TIMING once, on a busy machine, and its members were replaced).
  const controller = await ControllerProcess.start({ env: { ...FAST_AGENT_TIMING, PLATFORM_AGENT_LOST_AFTER_MS: '60000' } });
  cluster = { controller, api: await controller.admin(), agents: [] };
  cluster.agents.push(await AgentProcess.start(controller, cluster.api, { isolation: 'bwrap', args: ['--stop-instances-on-exit', '--usage-interval-ms', '1000'] }));
  return cluster;
}

function appJob(fqn: string, pkg: string): Record<string, unknown> {
  return httpAppJob(fqn, pkg, { processes: { app: { start_command: 'node /app/net.js', start_command_timeout: 30, stop_timeout: 5 } }, state: 'started' });
}

test.serial('networks: members reach each other by address and by name, a job off the network cannot, ports stay reachable; leaving removes namespace, veth and bridge', async (t) => {
  if (!available) return t.pass();
  const { api } = await theCluster();
  const ns = `/netrun/${unique()}`;
  const pkg = await uploadPackage(api, ns, networkAppArchive());
  const net = (await api.post<Network>('/networks', { fqn: `network::${ns}::net` })).body;
  const prefix = net.subnet_info.Subnet.replace(/0\/\d+$/, '');
  const jobs: Record<string, Job> = {};
  for (const name of ['a', 'b', 'c']) {
    const r = await api.post<Job>('/jobs', appJob(`job::${ns}::${name}`, pkg.uuid));
    t.is(r.status, 200, r.text);
    jobs[name] = r.body;
  }
  // Started on the host's network; joining replaces a and b onto the network.
  t.is((await api.post(`/networks/${net.uuid}/join`, { job_fqn: jobs['a']!.fqn, discovery_address: 'alpha' })).status, 200);
  t.is((await api.post(`/networks/${net.uuid}/join`, { job_fqn: jobs['b']!.fqn, discovery_address: 'Beta', broadcast_enable: false, multicast_addresses: ['239.7.0.0/16'] })).status, 200);
  const a = await onNetwork(api, jobs['a']!.uuid, prefix);
  const b = await onNetwork(api, jobs['b']!.uuid, prefix);
  const c = await offNetwork(api, jobs['c']!.uuid, prefix);
  t.not(a.address, b.address);

  // What the API shows: each endpoint's instance, address and hardware address.
  const shown = (await api.get<Network>(`/networks/${net.uuid}`)).body;
  const ifA = shown.network_end_points.find((e) => e.fqn === jobs['a']!.fqn)!.end_point_interface!;
  t.deepEqual(ifA.map((i) => [i.uuid, i.ipv4_addr]), [[a.instance.uuid, a.address]]);

  // What the agent made, as `ip` and `nft` show it.
  const na = namesOf(a.instance.instance_manager_uuid, a.instance.uuid, net.uuid);
  const nb = namesOf(b.instance.instance_manager_uuid, b.instance.uuid, net.uuid);
  t.true(netnsList().includes(na.netns) && netnsList().includes(nb.netns));
  t.regex(ipIn(na.netns, ['-o', 'addr', 'show', 'dev', 'eth0']), new RegExp(`inet ${a.address.replace(/\./g, '\\.')}/24`));
  t.true(ipIn(na.netns, ['link', 'show', 'eth0']).includes(ifA[0]!.hardware_addr));
  t.regex(ipIn(na.netns, ['link', 'show', 'lo']), /UP/);
  t.regex(ipIn(na.netns, ['route']), new RegExp(`default via ${net.gateway.replace(/\./g, '\\.')}`));
  t.regex(ipIn(nb.netns, ['route']), /239\.7\.0\.0\/16 dev eth0/);
  t.regex(sh(['ip', '-o', 'link', 'show', 'master', na.bridge]), new RegExp(`${na.veth}.*${nb.veth}|${nb.veth}.*${na.veth}`, 's'));
  t.regex(sh(['ip', '-o', 'addr', 'show', 'dev', na.bridge]), new RegExp(`inet ${net.gateway.replace(/\./g, '\\.')}/24`));
  t.true(nftTables().includes(`table bridge ${nb.table}`), 'b does not take broadcast frames');
  t.false(nftTables().includes(`table bridge ${na.table}`));

  // Still reachable at the reported host:port (the agent forwards it).
  t.is(a.answer.instance, a.instance.uuid);
  t.true(Object.values(a.instance.ports)[0]!.startsWith('127.0.0.1:'));

  // By address and by name, both ways.
  const byAddress = await fetchFrom(a.instance, `http://${b.address}:${b.port}/`);
  t.true(byAddress.ok, JSON.stringify(byAddress));
  t.is((JSON.parse((byAddress as { body: string }).body) as AppAnswer).instance, b.instance.uuid);
  const byName = await fetchFrom(a.instance, `http://beta.platform.local:${b.port}/`);
  t.true(byName.ok, JSON.stringify(byName));
  t.is((JSON.parse((byName as { body: string }).body) as AppAnswer).instance, b.instance.uuid);
  const back = await fetchFrom(b.instance, `http://alpha.platform.local:${a.port}/`);
  t.true(back.ok, JSON.stringify(back));
  // A job off the network cannot reach a member.
  const outsider = await fetchFrom(c, `http://${b.address}:${b.port}/`);
  t.false(outsider.ok, JSON.stringify(outsider));

  // Options change live: a's new name resolves in b without a restart.
  t.is((await api.post(`/networks/${net.uuid}/join`, { job_fqn: jobs['a']!.fqn, discovery_address: 'alpha2' })).status, 200);
  await eventually(
    async () => {
      const r = await get<{ ok: boolean; addresses?: string[] }>(Object.values(b.instance.ports)[0]!, '/resolve?name=alpha2.platform.local');
      return r.ok && r.addresses?.includes(a.address) ? true : undefined;
    },
    { timeoutMs: 20_000, what: 'alpha2.platform.local to resolve in b' },
  );
  t.is((await onNetwork(api, jobs['a']!.uuid, prefix)).instance.uuid, a.instance.uuid, 'not restarted');

  // An instance with an interface of its own has its traffic measured (its veth's counters).
  const rx = `${jobs['a']!.fqn},network_rx.sum,-5min`;
  await eventually(
    async () => {
      await fetchFrom(b.instance, `http://${a.address}:${a.port}/`);
      const series = (await api.get<{ metrics: Record<string, Record<string, { values: number[] }>> }>(`/metrics/jobs?metric=${encodeURIComponent(rx)}`)).body.metrics[rx]?.[jobs['a']!.fqn];
      return series && series.values.some((v) => v > 0) ? true : undefined;
    },
    { timeoutMs: 60_000, intervalMs: 500, what: 'network_rx of a member job above 0' },
  );

  // Leaving: the instances go back to the host's network; namespaces, veths, bridge go.
  for (const j of ['a', 'b']) t.is((await api.post(`/networks/${net.uuid}/leave`, { job_fqn: jobs[j]!.fqn })).status, 200);
  await offNetwork(api, jobs['a']!.uuid, prefix);
  await offNetwork(api, jobs['b']!.uuid, prefix);
  await eventually(
    async () => {
      const nss = netnsList();
      const links = linkNames();
      return !nss.includes(na.netns) && !nss.includes(nb.netns) && !links.includes(na.veth) && !links.includes(nb.veth) && !links.includes(na.bridge) && !nftTables().includes(`table bridge ${nb.table}`)
        ? true
        : undefined;
    },
    { timeoutMs: 30_000, what: 'the namespaces, veths, broadcast table and bridge to go' },
  );
  t.deepEqual((await api.get<Network>(`/networks/${net.uuid}`)).body.network_end_points, []);
  for (const j of Object.values(jobs)) await stopJob(api, j.uuid);
});

test.serial('networks: a manifest with a networks section deploys jobs that reach each other by name', async (t) => {
  if (!available) return t.pass();
  const { api } = await theCluster();
  const ns = `/netrun/${unique()}`;
  const pkg = await uploadPackage(api, ns, networkAppArchive());
  const app = { packages: [{ fqn: pkg.fqn }], start: { cmd: 'node /app/net.js', timeout: 30 }, exposed_ports: [0], resources: { memory: '64MiB', disk_space: '64MiB' }, state: 'started' };
  const manifest = {
    jobs: { [`job::${ns}::front`]: app, [`job::${ns}::back`]: app },
    networks: {
      [`network::${ns}::mesh`]: {
        jobs: [
          { fqn: `job::${ns}::front`, discovery_address: 'front' },
          { fqn: `job::${ns}::back`, discovery_address: 'back.svc' },
        ],
      },
    },
  };
  const r = await api.post<{ location: string }>('/manifests', manifest);
  t.is(r.status, 200, r.text);
  const task = await taskEnd<{ state: string }>(api, r.body.location);
  t.is(task.state, 'complete', JSON.stringify(task));
  const net = (await api.get<Network[]>('/networks')).body.find((n) => n.fqn === `network::${ns}::mesh`)!;
  const prefix = net.subnet_info.Subnet.replace(/0\/\d+$/, '');
  const job = async (name: string) => (await api.get<Job[]>(`/jobs?fqn=${encodeURIComponent(`job::${ns}::${name}`)}`)).body[0]!;
  const front = await onNetwork(api, (await job('front')).uuid, prefix);
  const back = await onNetwork(api, (await job('back')).uuid, prefix);
  const reached = await fetchFrom(front.instance, `http://back.svc.platform.local:${back.port}/`);
  t.true(reached.ok, JSON.stringify(reached));
  t.is((JSON.parse((reached as { body: string }).body) as AppAnswer).instance, back.instance.uuid);
  for (const name of ['front', 'back']) {
    const j = await job(name);
    await api.post(`/networks/${net.uuid}/leave`, { job_fqn: j.fqn });
    await stopJob(api, j.uuid);
  }
});

test.serial('networks: an agent killed and started again takes its members back: ports forwarded again, names still followed, teardown still complete', async (t) => {
  if (!available) return t.pass();
  const c = await theCluster();
  const { api } = c;
  const ns = `/netrun/${unique()}`;
  const pkg = await uploadPackage(api, ns, networkAppArchive());
  const net = (await api.post<Network>('/networks', { fqn: `network::${ns}::net` })).body;
  const prefix = net.subnet_info.Subnet.replace(/0\/\d+$/, '');
  const jobs: Job[] = [];
  for (const name of ['x', 'y']) {
    const job = (await api.post<Job>('/jobs', appJob(`job::${ns}::${name}`, pkg.uuid))).body;
    t.is((await api.post(`/networks/${net.uuid}/join`, { job_fqn: job.fqn, discovery_address: name })).status, 200);
    jobs.push(job);
  }
  const x = await onNetwork(api, jobs[0]!.uuid, prefix);
  const y = await onNetwork(api, jobs[1]!.uuid, prefix);
  // kill -9: the agent takes nothing down; its instances (and their namespaces) stay.
  const old = c.agents[0]!;
  await old.kill9();
  c.agents[0] = await old.restart(api);
  const again = await onNetwork(api, jobs[0]!.uuid, prefix);
  t.is(again.instance.uuid, x.instance.uuid, 're-attached, not replaced');
  const reached = await eventually(
    async () => {
      const r = await fetchFrom(again.instance, `http://y.platform.local:${y.port}/`).catch(() => undefined);
      return r?.ok ? r : undefined;
    },
    { timeoutMs: 20_000, what: 'x to reach y by name after the agent restart' },
  );
  t.is((JSON.parse(reached.body) as AppAnswer).instance, y.instance.uuid);
  // The re-attached instances still go all the way: namespaces, veths and bridge.
  const nx = namesOf(x.instance.instance_manager_uuid, x.instance.uuid, net.uuid);
  const ny = namesOf(y.instance.instance_manager_uuid, y.instance.uuid, net.uuid);
  for (const j of jobs) await stopJob(api, j.uuid);
  await eventually(
    async () => {
      const nss = netnsList();
      const links = linkNames();
      return !nss.includes(nx.netns) && !nss.includes(ny.netns) && !links.includes(nx.bridge) ? true : undefined;
    },
    { timeoutMs: 30_000, what: 'the namespaces and the bridge to go after the stop' },
  );
  // The agent tears the namespace down before it reports the instance REMOVED, which frees the address.
  await eventually(
    async () => ((await api.get<Network>(`/networks/${net.uuid}`)).body.network_end_points.flatMap((e) => e.end_point_interface ?? []).length === 0 ? true : undefined),
    { timeoutMs: 30_000, what: 'the addresses freed once the instances are REMOVED' },
  );
});

test.serial('networks: an agent killed with -9 whose member it cannot take back removes the member\'s namespace, veth, bridge and tables at its next start', async (t) => {
  if (!available) return t.pass();
  const c = await theCluster();
  const { api } = c;
  const ns = `/netrun/${unique()}`;
  const pkg = await uploadPackage(api, ns, networkAppArchive());
  const net = (await api.post<Network>('/networks', { fqn: `network::${ns}::net` })).body;
  const prefix = net.subnet_info.Subnet.replace(/0\/\d+$/, '');
  const job = (await api.post<Job>('/jobs', appJob(`job::${ns}::lost`, pkg.uuid))).body;
  t.is((await api.post(`/networks/${net.uuid}/join`, { job_fqn: job.fqn, discovery_address: 'lost', broadcast_enable: false })).status, 200);
  const member = await onNetwork(api, job.uuid, prefix);
  const old = c.agents[0]!;
  const names = namesOf(old.uuid, member.instance.uuid, net.uuid);
  t.true(netnsList().includes(names.netns) && linkNames().includes(names.veth) && linkNames().includes(names.bridge));
  t.true(nftTables().includes(`table bridge ${names.table}`));
  t.true(agentLeftovers(old.uuid).tables.some((tb) => tb.startsWith('inet platform_netuid_')), 'the uid table is there while a member runs');
  // The agent is killed, the instance's processes die with the host's trouble, and its record is
  // lost (unreadable): the next start cannot take the member back, and must not leave what it held.
  await old.kill9();
  const dir = join(old.dataDir, 'instances', member.instance.uuid);
  await killProcessesUnder(dir);
  writeFileSync(join(dir, 'instance.json'), '{ torn');
  c.agents[0] = await old.restart(api);
  const left = agentLeftovers(old.uuid);
  // Only what the replacement member (if already placed) holds may be there; none of the lost one's.
  t.false(netnsList().includes(names.netns), JSON.stringify(left));
  t.false(linkNames().includes(names.veth), JSON.stringify(left));
  t.false(left.mounts.some((m) => m.endsWith(names.netns)), JSON.stringify(left));
  t.false(nftTables().includes(`table bridge ${names.table}`), JSON.stringify(left));
  await stopJob(api, job.uuid);
  await api.post(`/networks/${net.uuid}/leave`, { job_fqn: job.fqn });
  await eventually(
    async () => {
      const l = agentLeftovers(c.agents[0]!.uuid);
      return l.netns.length === 0 && l.links.length === 0 && l.tables.every((tb) => tb.startsWith('inet platform_netuid_')) ? true : undefined;
    },
    { timeoutMs: 30_000, what: 'every namespace, link and broadcast table of the agent to go once its job stopped' },
  );
});
