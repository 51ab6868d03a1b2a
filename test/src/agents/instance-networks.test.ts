/**
 * Every instance on a network of its own, end to end on one host: a real controller and a real
 * agent (bubblewrap, root, --instance-networks) that puts each instance not on a virtual network
 * in a namespace of its own on the agent's bridge, with an address from the subnet the
 * controller gave the agent. Its ports are reached where the agent reports them; nothing outside
 * its namespace is (the test's servers on the host, another instance), but the agent's
 * resolver; two jobs listen on one port.
 */
import { createServer, type Server } from 'node:net';
import test, { type ExecutionContext } from 'ava';
import type { Job } from '@platform/controller';
import { httpAppJob, uploadPackage } from '../harness/apps.js';
import { AgentProcess } from '../harness/agent-process.js';
import { FAST_AGENT_TIMING, type ApiInstance, type TestCluster } from '../harness/cluster.js';
import { ControllerProcess } from '../harness/controller-process.js';
import { unique } from '../harness/fixtures.js';
import type { ApiClient } from '../harness/http.js';
import { agentLeftovers, agentPrefixes } from '../harness/leftovers.js';
import { ipIn, linkNames, networkAppArchive, networksAvailable, nftTables, sh, sweepLeftovers, type AppAnswer, type FetchAnswer } from '../harness/networks.js';
import { eventually } from '../harness/wait.js';

async function get<T>(address: string, path: string): Promise<T> {
  const res = await fetch(`http://${address}${path}`, { signal: AbortSignal.timeout(10_000) });
  return (await res.json()) as T;
}

let cluster: TestCluster | undefined;
let available = true;

test.before(async (t) => {
  available = networksAvailable(t as unknown as ExecutionContext);
  if (available) sweepLeftovers();
});

test.after.always(async () => {
  if (!cluster) return;
  await Promise.all(cluster.agents.map((a) => a.dispose()));
  await cluster.controller.dispose();
});

async function theCluster(): Promise<TestCluster> {
  if (cluster) return cluster;
  const controller = await ControllerProcess.start({ env: FAST_AGENT_TIMING });
  cluster = { controller, api: await controller.admin(), agents: [] };
  cluster.agents.push(await AgentProcess.start(controller, cluster.api, { isolation: 'bwrap', args: ['--instance-networks', '--stop-instances-on-exit', '--usage-interval-ms', '1000'] }));
  return cluster;
}

/** The one RUNNING instance of `job` answering at its reported address, and what it says of itself. */
async function running(api: ApiClient, job: string, port?: string): Promise<{ instance: ApiInstance; at: string; answer: AppAnswer }> {
  return eventually(
    async () => {
      const live = (await api.get<ApiInstance[]>(`/jobs/${job}/instances`)).body.filter((i) => i.state !== 'REMOVED');
      if (live.length !== 1 || live[0]!.state !== 'RUNNING') return undefined;
      const at = port ? live[0]!.ports[port]! : Object.values(live[0]!.ports)[0]!;
      const answer = await get<AppAnswer>(at, '/').catch(() => undefined);
      return answer ? { instance: live[0]!, at, answer } : undefined;
    },
    { timeoutMs: 90_000, what: `the instance of ${job} answering` },
  );
}

async function stopJob(api: ApiClient, uuid: string): Promise<void> {
  const current = (await api.get<Job>(`/jobs/${uuid}`)).body;
  await api.put(`/jobs/${uuid}`, { ...current, state: 'stopped' });
}

function listen(host: string): Promise<Server> {
  const server = createServer((s) => s.end('HTTP/1.0 200 OK\r\ncontent-length: 4\r\n\r\nhost'));
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, host, () => resolve(server));
  });
}

const portOf = (s: Server) => (s.address() as { port: number }).port;

test.serial('instance networks: an instance has its own namespace and address; it cannot reach the host (loopback or not) nor another instance, but resolves names; two jobs listen on one port', async (t) => {
  if (!available) return t.pass();
  const { api, agents } = await theCluster();
  const agent = agents[0]!;
  const loopback = await listen('127.0.0.1');
  const anywhere = await listen('0.0.0.0');
  t.teardown(() => {
    loopback.close();
    anywhere.close();
  });
  const ns = `/instnet/${unique()}`;
  const pkg = await uploadPackage(api, ns, networkAppArchive());
  const processes = { app: { start_command: 'node /app/net.js', start_command_timeout: 30, stop_timeout: 5 } };
  const jobs: Job[] = [];
  for (const name of ['a', 'b']) {
    // The same fixed port for both: each listens at 8080 in its namespace.
    const r = await api.post<Job>('/jobs', httpAppJob(`job::${ns}::${name}`, pkg.uuid, { processes, ports: [{ number: 8080, optional: false }], state: 'started' }));
    t.is(r.status, 200, r.text);
    jobs.push(r.body);
  }
  const a = await running(api, jobs[0]!.uuid, '8080');
  const b = await running(api, jobs[1]!.uuid, '8080');
  t.is(a.answer.port, 8080);
  t.is(b.answer.port, 8080);
  t.is(a.answer.instance, a.instance.uuid);
  t.is(b.answer.instance, b.instance.uuid);
  t.not(a.at, b.at, 'reached at host ports of their own');

  // Its own namespace: its loopback and one address, from the agent's subnet, on the agent's bridge.
  const p = agentPrefixes(agent.uuid);
  const address = a.answer.addresses.find((x) => x !== '127.0.0.1')!;
  t.is(a.answer.addresses.length, 2, JSON.stringify(a.answer.addresses));
  t.regex(address, /^10\.(19[2-9]|20[0-7])\./, 'from the default instance subnet pool');
  const netns = `${p.netns}${a.instance.uuid}`;
  t.regex(ipIn(netns, ['-o', 'addr', 'show', 'dev', 'eth0']), new RegExp(`inet ${address.replace(/\./g, '\\.')}/24`));
  t.true(linkNames().includes(`${p.bridge}own`));
  t.true(nftTables().includes(`table inet ${p.egressTable}`));
  const gateway = /default via (\S+)/.exec(ipIn(netns, ['route']))![1]!;

  // Refused: the host's loopback (its own is another), the host through the gateway, another instance.
  const bAddress = b.answer.addresses.find((x) => x !== '127.0.0.1')!;
  for (const url of [`http://127.0.0.1:${portOf(loopback)}/`, `http://${gateway}:${portOf(anywhere)}/`, `http://${bAddress}:8080/`]) {
    const r = await get<FetchAnswer>(a.at, `/fetch?url=${encodeURIComponent(url)}`);
    t.false(r.ok, `${url}: ${JSON.stringify(r)}`);
  }
  // Its own loopback works (it reaches itself).
  const self = await get<FetchAnswer>(a.at, `/fetch?url=${encodeURIComponent('http://127.0.0.1:8080/')}`);
  t.true(self.ok, JSON.stringify(self));
  // The agent's resolver answers (localhost is in its hosts file; a name the host's resolver
  // knows: the instance's resolv.conf names the gateway, where the agent passes queries on).
  t.regex(sh(['ip', 'netns', 'exec', netns, 'cat', '/proc/self/net/route']), /eth0/);
  const hostsName = await get<{ ok: boolean; addresses?: string[] }>(a.at, '/resolve?name=localhost');
  t.true(hostsName.ok, JSON.stringify(hostsName));

  for (const j of jobs) await stopJob(api, j.uuid);
  await eventually(async () => (agentLeftovers(agent.uuid).netns.length === 0 ? true : undefined), { timeoutMs: 30_000, what: 'the instances\' namespaces to go' });
});

test.serial('instance networks: netmax caps what an instance sends (within 20%), and its usage shows the bytes it sent', async (t) => {
  if (!available) return t.pass();
  const { api, agents } = await theCluster();
  const ns = `/instnet/${unique()}`;
  const pkg = await uploadPackage(api, ns, networkAppArchive());
  const netmax = 8_000_000; // bits per second: 1 MB/s
  const processes = { app: { start_command: 'node /app/net.js', start_command_timeout: 30, stop_timeout: 5 } };
  const r = await api.post<Job>('/jobs', httpAppJob(`job::${ns}::capped`, pkg.uuid, { processes, resources: { memory: 64 * 1024 * 1024, disk: 64 * 1024 * 1024, network: 0, netmax }, state: 'started' }));
  t.is(r.status, 200, r.text);
  const job = r.body;
  const { instance, at } = await running(api, job.uuid);
  const netns = `${agentPrefixes(agents[0]!.uuid).netns}${instance.uuid}`;
  t.regex(ipIn(netns, ['-o', 'link', 'show', 'eth0']), /UP/);
  t.regex(sh(['tc', '-n', netns, 'qdisc', 'show', 'dev', 'eth0']), /tbf/);
  // 3 MB at 1 MB/s: about 3 s (the bucket's first 20 ms aside).
  const bytes = 3_000_000;
  const started = performance.now();
  const res = await fetch(`http://${at}/bytes?n=${bytes}`, { signal: AbortSignal.timeout(30_000) });
  const body = await res.arrayBuffer();
  const seconds = (performance.now() - started) / 1000;
  t.is(body.byteLength, bytes);
  const rate = (bytes * 8) / seconds;
  t.log(`measured ${(rate / 1e6).toFixed(2)} Mbit/s against a cap of ${netmax / 1e6} Mbit/s`);
  t.true(rate <= netmax * 1.2 && rate >= netmax * 0.8, `measured ${rate} bit/s, cap ${netmax}`);

  // Its veth's counters: what it sent is in network_tx.
  const tx = `${job.fqn},network_tx.sum,-5min`;
  await eventually(
    async () => {
      const series = (await api.get<{ metrics: Record<string, Record<string, { values: number[] }>> }>(`/metrics/jobs?metric=${encodeURIComponent(tx)}`)).body.metrics[tx]?.[job.fqn];
      return series && series.values.some((v) => v > 100_000) ? true : undefined;
    },
    { timeoutMs: 60_000, intervalMs: 500, what: 'network_tx of the capped job above 100 kB/s' },
  );
  await stopJob(api, job.uuid);
});
