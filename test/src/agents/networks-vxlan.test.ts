/**
 * Virtual networks across agent hosts: two real agents, each in a network namespace of its own
 * that the test makes (a veth to a test bridge on the host, private addresses from 198.18.0.0/15,
 * the benchmarking range), stand for two hosts. Members placed on different agents talk through
 * the VXLAN devices the agents put on the network's bridges, by address and by name; with the
 * last member gone from an agent, its bridge and VXLAN device go too.
 */
import { randomBytes, randomInt } from 'node:crypto';
import test from 'ava';
import type { Job } from '@platform/controller';
import { AgentProcess } from '../harness/agent-process.js';
import { httpAppJob, uploadPackage } from '../harness/apps.js';
import { FAST_AGENT_TIMING, type ApiInstance } from '../harness/cluster.js';
import { ControllerProcess } from '../harness/controller-process.js';
import { unique } from '../harness/fixtures.js';
import { freePort } from '../harness/net.js';
import { ipIn, namesOf, networkAppArchive, networksAvailable, sh, sweepLeftovers, type AppAnswer, type FetchAnswer } from '../harness/networks.js';
import { eventually } from '../harness/wait.js';

interface Network {
  uuid: string;
  subnet_info: { Subnet: string };
}

async function get<T>(address: string, path: string): Promise<T> {
  const res = await fetch(`http://${address}${path}`, { signal: AbortSignal.timeout(10_000) });
  return (await res.json()) as T;
}

test('networks: members on two agent hosts reach each other through VXLAN, by address and by name', async (t) => {
  if (!networksAvailable(t)) return t.pass();
  sweepLeftovers();
  // The two "hosts": namespaces on a test bridge (every name starts with plt: sweepLeftovers knows them).
  const tag = randomBytes(3).toString('hex');
  const lan = `198.18.${randomInt(0, 256)}`;
  const bridge = `plt${tag}b`;
  const hosts = [1, 2].map((i) => ({ ns: `plt${tag}n${i}`, outer: `plt${tag}h${i}`, inner: `plt${tag}i${i}`, address: `${lan}.${10 + i}` }));
  t.teardown(() => {
    for (const h of hosts) {
      try {
        sh(['ip', 'netns', 'delete', h.ns]);
      } catch {
        // not made
      }
    }
    try {
      sh(['ip', 'link', 'delete', bridge]);
    } catch {
      // not made
    }
    sweepLeftovers();
  });
  // The namespaces first: a sweep beside this test leaves a test bridge alone while they exist.
  for (const h of hosts) sh(['ip', 'netns', 'add', h.ns]);
  sh(['ip', 'link', 'add', bridge, 'type', 'bridge']);
  sh(['ip', 'addr', 'add', `${lan}.1/24`, 'dev', bridge]);
  sh(['ip', 'link', 'set', bridge, 'up']);
  for (const h of hosts) {
    sh(['ip', 'link', 'add', h.outer, 'type', 'veth', 'peer', 'name', h.inner, 'netns', h.ns]);
    sh(['ip', 'link', 'set', h.outer, 'master', bridge, 'up']);
    sh(['ip', '-n', h.ns, 'addr', 'add', `${h.address}/24`, 'dev', h.inner]);
    sh(['ip', '-n', h.ns, 'link', 'set', h.inner, 'up']);
    sh(['ip', '-n', h.ns, 'link', 'set', 'lo', 'up']);
  }

  const controller = await ControllerProcess.start({ env: FAST_AGENT_TIMING, args: ['--grpc-listen', `${lan}.1:${await freePort()}`] });
  const agents: AgentProcess[] = [];
  t.teardown(async () => {
    await Promise.all(agents.map((a) => a.dispose()));
    await controller.dispose();
  });
  const api = await controller.admin();
  for (const [i, h] of hosts.entries()) {
    agents.push(
      await AgentProcess.start(controller, api, {
        isolation: 'bwrap',
        tags: [`vx${i + 1}`],
        prefix: ['nsenter', `--net=/run/netns/${h.ns}`, '--'],
        args: ['--address', h.address, '--stop-instances-on-exit'],
      }),
    );
  }

  const ns = `/netvx/${unique()}`;
  const pkg = await uploadPackage(api, ns, networkAppArchive());
  const net = (await api.post<Network>('/networks', { fqn: `network::${ns}::wide` })).body;
  const prefix = net.subnet_info.Subnet.replace(/0\/\d+$/, '');
  const jobs: Job[] = [];
  for (const [i, name] of ['one', 'two'].entries()) {
    const body = httpAppJob(`job::${ns}::${name}`, pkg.uuid, {
      processes: { app: { start_command: 'node /app/net.js', start_command_timeout: 30, stop_timeout: 5 } },
      hard_scheduling_tags: { [`vx${i + 1}`]: true },
    });
    const job = (await api.post<Job>('/jobs', body)).body;
    t.is((await api.post(`/networks/${net.uuid}/join`, { job_fqn: job.fqn, discovery_address: name })).status, 200);
    const current = (await api.get<Job>(`/jobs/${job.uuid}`)).body;
    t.is((await api.put(`/jobs/${job.uuid}`, { ...current, state: 'started' })).status, 200);
    jobs.push(job);
  }
  const members = await Promise.all(
    jobs.map((job) =>
      eventually(
        async () => {
          const live = (await api.get<ApiInstance[]>(`/jobs/${job.uuid}/instances`)).body.filter((i) => i.state === 'RUNNING');
          if (live.length !== 1) return undefined;
          const at = Object.values(live[0]!.ports)[0]!;
          const answer = await get<AppAnswer>(at, '/').catch(() => undefined);
          const address = answer?.addresses.find((a) => a.startsWith(prefix));
          return answer && address ? { instance: live[0]!, at, address, port: answer.port } : undefined;
        },
        { timeoutMs: 90_000, what: `the instance of ${job.fqn}` },
      ),
    ),
  );
  const [one, two] = members as [(typeof members)[0], (typeof members)[0]];
  // On different agents, each reached at its agent's address.
  t.not(one.instance.instance_manager_uuid, two.instance.instance_manager_uuid);
  t.true(one.at.startsWith(`${hosts[0]!.address}:`) && two.at.startsWith(`${hosts[1]!.address}:`));
  const n1 = namesOf(one.instance.instance_manager_uuid, one.instance.uuid, net.uuid);
  await eventually(async () => (ipIn(hosts[0]!.ns, ['-o', 'link', 'show', 'master', n1.bridge]).includes(n1.vxlan) ? true : undefined), {
    timeoutMs: 20_000,
    what: 'the VXLAN device on the bridge of the first agent',
  });
  t.regex(sh(['bridge', '-n', hosts[0]!.ns, 'fdb', 'show', 'dev', n1.vxlan]), new RegExp(`00:00:00:00:00:00 dst ${hosts[1]!.address.replace(/\./g, '\\.')}`));

  for (const [from, to, name] of [[one, two, 'two'], [two, one, 'one']] as const) {
    const byAddress = await eventually(
      async () => {
        const r = await get<FetchAnswer>(from.at, `/fetch?url=${encodeURIComponent(`http://${to.address}:${to.port}/`)}`);
        return r.ok ? r : undefined;
      },
      { timeoutMs: 20_000, what: `${from.address} to reach ${to.address} across agents` },
    );
    t.is((JSON.parse(byAddress.body) as AppAnswer).instance, to.instance.uuid);
    const byName = await get<FetchAnswer>(from.at, `/fetch?url=${encodeURIComponent(`http://${name}.platform.local:${to.port}/`)}`);
    t.true(byName.ok, JSON.stringify(byName));
  }

  // The last member leaves the first agent: its bridge and VXLAN device go.
  t.is((await api.post(`/networks/${net.uuid}/leave`, { job_fqn: jobs[0]!.fqn })).status, 200);
  await eventually(async () => (ipIn(hosts[0]!.ns, ['-o', 'link', 'show']).includes(n1.bridge) ? undefined : true), {
    timeoutMs: 30_000,
    what: 'the first agent to remove the bridge and its VXLAN device',
  });
  t.false(ipIn(hosts[0]!.ns, ['-o', 'link', 'show']).includes(n1.vxlan));
});
