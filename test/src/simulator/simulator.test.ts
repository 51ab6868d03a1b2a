/**
 * The agent simulator against a real controller process: simulated agents register with the
 * join secret, take a job's instances and report them RUNNING, and the controller reacts to what
 * they do (an agent lost, a disconnect and reconnect, an instance that exits, a job stopped).
 */
import test, { type ExecutionContext } from 'ava';
import type { Job } from '@platform/controller';
import { FAST_AGENT_TIMING, instancesOf, type ApiInstance } from '../harness/cluster.js';
import { ControllerProcess, TEST_JOIN_TOKEN } from '../harness/controller-process.js';
import { httpAppArchive, httpAppJob, uploadPackage } from '../harness/apps.js';
import { unique } from '../harness/fixtures.js';
import type { ApiClient } from '../harness/http.js';
import { eventually } from '../harness/wait.js';
import { AgentSimulator } from './simulator.js';

const MiB = 1024 * 1024;

interface Manager {
  uuid: string;
  hostname: string;
  status: string;
  num_instances: number;
  isolation: string;
}

async function setup(t: ExecutionContext, joinToken = TEST_JOIN_TOKEN): Promise<{ controller: ControllerProcess; api: ApiClient; sim: AgentSimulator }> {
  const controller = await ControllerProcess.start({ env: { ...FAST_AGENT_TIMING, PLATFORM_BUILTINS: 'false' } });
  const sim = new AgentSimulator({ grpcAddress: controller.grpcAddress, joinToken });
  t.teardown(async () => {
    await sim.close();
    await controller.dispose();
  });
  return { controller, api: await controller.admin(), sim };
}

/** The job's live instances once exactly `count` are RUNNING, none of them `but`, and no other is live. */
async function running(api: ApiClient, job: string, count: number, but: (i: ApiInstance) => boolean = () => false, timeoutMs = 60_000): Promise<ApiInstance[]> {
  return eventually(
    async () => {
      const live = (await instancesOf(api, job)).filter((i) => i.state !== 'REMOVED');
      return live.length === count && live.every((i) => i.state === 'RUNNING' && !but(i)) ? live : undefined;
    },
    { timeoutMs, what: `${count} RUNNING instances of job ${job}` },
  );
}

/** A started job of `instances` of the HTTP app (which no simulated agent runs: it only needs a package). */
async function startedJob(api: ApiClient, instances: number, extra: Record<string, unknown> = {}): Promise<Job> {
  const ns = `/sim/${unique()}`;
  const pkg = await uploadPackage(api, ns, httpAppArchive());
  const r = await api.post<Job>('/jobs', httpAppJob(`job::${ns}::app`, pkg.uuid, { num_instances: instances, state: 'started', ...extra }));
  if (r.status !== 200 && r.status !== 201) throw new Error(`POST /jobs: ${r.status} ${r.text}`);
  return r.body;
}

test('simulator: 50 agents register, a job of 200 instances runs on them, a lost agent\'s instances run elsewhere', async (t) => {
  const { api, sim } = await setup(t);
  const agents = await sim.start(50, { total: { cpu: 8000, memory: 16 * 1024 * MiB, disk: 0 }, tags: ['sim'] });

  const managers = (await api.get<Manager[]>('/instance_managers')).body;
  t.is(managers.length, 50);
  t.true(managers.every((m) => m.status === 'connected' && m.isolation === 'process'));
  t.deepEqual(managers.map((m) => m.uuid).sort(), agents.map((a) => a.uuid).sort());

  const job = await startedJob(api, 200, { hard_scheduling_tags: { sim: true } });
  const placed = await running(api, job.uuid, 200);
  t.is(sim.count('RUNNING', job.uuid), 200, 'the agents hold what the controller says runs');
  t.is(new Set(placed.map((i) => i.instance_manager_uuid)).size, 50, 'spread over every agent');

  // The host of agent 7 goes away: the controller declares it lost and places its instances elsewhere.
  const victim = agents[7]!;
  const lostInstances = new Set(victim.live.map((i) => i.uuid));
  t.is(lostInstances.size, 4);
  sim.kill(7);
  // Waits until none of the lost instances is live and none is on the lost agent.
  await running(api, job.uuid, 200, (i) => lostInstances.has(i.uuid) || i.instance_manager_uuid === victim.uuid);
  t.is(sim.count('RUNNING', job.uuid), 200);
  const lost = (await api.get<Manager>(`/instance_managers/${victim.uuid}`)).body;
  t.is(lost.status, 'lost');
  const removed = (await instancesOf(api, job.uuid)).filter((i) => lostInstances.has(i.uuid));
  t.true(removed.length > 0 && removed.every((i) => i.state === 'REMOVED' && i.failed), 'the lost instances are REMOVED and failed');

  // The host comes back, empty: it registers again and takes instances once more.
  sim.agent(7).revive();
  await eventually(async () => (await api.get<Manager>(`/instance_managers/${victim.uuid}`)).body.status === 'connected', { what: 'agent 7 back' });
});

test('simulator: an agent that loses its stream and reconnects keeps its instances (adopted, not replaced)', async (t) => {
  const { api, sim } = await setup(t);
  await sim.start(3);
  const job = await startedJob(api, 6);
  const before = await running(api, job.uuid, 6);
  const agent = sim.agent(0);
  const held = agent.live.map((i) => i.uuid).sort();
  t.is(held.length, 2);
  const welcomes = agent.welcomes;
  sim.disconnect(0, 100);
  await sim.waitFor(() => agent.welcomes > welcomes, { what: 'agent 0 welcomed again' });
  t.deepEqual(agent.live.map((i) => i.uuid).sort(), held, 'the agent still runs its instances');
  const after = await running(api, job.uuid, 6);
  t.deepEqual(after.map((i) => i.uuid).sort(), before.map((i) => i.uuid).sort(), 'the same instances, none replaced');
});

test('simulator: an instance that exits with an error is replaced; a stopped job leaves no instance on the agents', async (t) => {
  const { api, sim } = await setup(t);
  await sim.start(2);
  const job = await startedJob(api, 2);
  const [first] = await running(api, job.uuid, 2);
  t.true(sim.exit(first!.uuid, 3));
  const failed = await eventually(
    async () => (await instancesOf(api, job.uuid)).find((i) => i.uuid === first!.uuid && i.state === 'REMOVED'),
    { what: 'the exited instance REMOVED' },
  );
  t.true(failed.failed);
  t.true(failed.exited);
  t.is(failed.exit_code, 3);
  t.regex(failed.reason ?? '', /exited with code 3/);
  const replaced = await running(api, job.uuid, 2);
  t.false(replaced.some((i) => i.uuid === first!.uuid));

  const current = (await api.get<Job>(`/jobs/${job.uuid}`)).body;
  t.is((await api.put(`/jobs/${job.uuid}`, { ...current, state: 'stopped' })).status, 200);
  await sim.waitFor(() => sim.instances(job.uuid).length === 0, { what: 'no instance left on the simulated agents' });
  await eventually(async () => (await instancesOf(api, job.uuid)).every((i) => i.state === 'REMOVED'), { what: 'every instance REMOVED' });
});

test('simulator: usage samples reach the controller\'s metrics; a wrong join secret registers nothing', async (t) => {
  const { api, sim, controller } = await setup(t);
  await sim.start(1);
  const job = await startedJob(api, 1);
  await running(api, job.uuid, 1);
  t.is(sim.reportUsage(), 1);
  const query = `${sim.agent(0).o.hostname},mem_used,-5min`;
  await eventually(
    async () => {
      const r = await api.get<{ metrics: Record<string, Record<string, { times: number[]; values: number[] }>> }>(`/metrics/instance_managers?metric=${encodeURIComponent(query)}`);
      return r.status === 200 && (r.body.metrics[query]?.[sim.agent(0).o.hostname]?.values ?? []).includes(32 * MiB) ? r : undefined;
    },
    { what: 'the host\'s memory sample in /metrics/instance_managers' },
  );

  const intruder = new AgentSimulator({ grpcAddress: controller.grpcAddress, joinToken: 'not-the-secret' });
  t.teardown(() => intruder.close());
  await t.throwsAsync(intruder.start(1, {}, 1500));
  t.is((await api.get<Manager[]>('/instance_managers')).body.length, 1, 'only the agent with the secret');
});
