/** Changes to running jobs (rolling replacement) and agents that restart under their instances. */
import test from 'ava';
import type { Job } from '@platform/controller';
import { httpAppArchive, httpAppJob, uploadPackage } from '../harness/apps.js';
import { callInstance, instancesOf, runningInstances, startCluster } from '../harness/cluster.js';
import { unique } from '../harness/fixtures.js';
import { eventually } from '../harness/wait.js';

test('rollout: with rolling_mode a change replaces instances one at a time, never leaving none running', async (t) => {
  const { api } = await startCluster(t, [{}, {}]);
  const ns = `/roll/${unique()}`;
  const pkg = await uploadPackage(api, ns, httpAppArchive());
  const body = httpAppJob(`job::${ns}::rolling`, pkg.uuid, {
    num_instances: 2,
    state: 'started',
    rollout: { rolling_mode: true, force_stop_old_instances_after: 120 },
  });
  const job = (await api.post<Job>('/jobs', body)).body;
  const before = await runningInstances(api, job.uuid, 2);

  const current = (await api.get<Job>(`/jobs/${job.uuid}`)).body;
  const changed = { ...current, processes: { app: { ...current.processes['app'], environment: { GREETING: 'v2' } } } };
  const put = await api.put<Job>(`/jobs/${job.uuid}`, changed);
  t.is(put.status, 200, put.text);
  t.is(put.body.version_id, 2);

  let leastRunning = 2;
  const after = await eventually(
    async () => {
      const all = await instancesOf(api, job.uuid);
      const running = all.filter((i) => i.state === 'RUNNING');
      leastRunning = Math.min(leastRunning, running.length);
      const fresh = running.filter((i) => i.job_version_id === 2);
      return fresh.length === 2 && all.filter((i) => i.state !== 'REMOVED').length === 2 ? fresh : undefined;
    },
    { timeoutMs: 60_000, intervalMs: 25, what: 'both instances replaced' },
  );
  t.true(leastRunning >= 1, 'an instance kept serving during the rollout');
  t.false(after.some((i) => before.some((b) => b.uuid === i.uuid)));
});

test('agents: an agent restarted (kill -9, then SIGTERM) re-attaches to its running instances', async (t) => {
  // Slow loss detection: the agent comes back before it would be declared lost.
  // Its instances outlive its stop, as the agent's own default has it.
  const cluster = await startCluster(t, [{ keepInstancesOnExit: true }], { env: { PLATFORM_AGENT_LOST_AFTER_MS: '60000' } });
  const { api } = cluster;
  const ns = `/reattach/${unique()}`;
  const pkg = await uploadPackage(api, ns, httpAppArchive());
  const job = (await api.post<Job>('/jobs', httpAppJob(`job::${ns}::steady`, pkg.uuid, { state: 'started' }))).body;
  const [before] = await runningInstances(api, job.uuid, 1);
  const pid = (await callInstance<{ pid: number }>(before!)).pid;

  for (const how of ['kill9', 'sigterm'] as const) {
    const agent = cluster.agents[0]!;
    if (how === 'kill9') await agent.kill9();
    else await agent.stop();
    t.is((await callInstance<{ pid: number }>(before!)).pid, pid, `${how}: the instance runs on while its agent is down`);
    // The last one stops its instances when disposed of, so that what it leaves on the host is checked.
    cluster.agents[0] = await agent.restart(api, { keepInstancesOnExit: how !== 'sigterm' });
    t.is(cluster.agents[0].uuid, agent.uuid, 'the agent keeps its uuid');
    const [after] = await runningInstances(api, job.uuid, 1);
    t.is(after!.uuid, before!.uuid, `${how}: the same instance, re-attached`);
    t.is((await callInstance<{ pid: number }>(after!)).pid, pid);
  }
  // Re-attached instances are still managed: a stop reaches them.
  const current = (await api.get<Job>(`/jobs/${job.uuid}`)).body;
  await api.put(`/jobs/${job.uuid}`, { ...current, state: 'stopped' });
  await eventually(async () => (await instancesOf(api, job.uuid)).every((i) => i.state === 'REMOVED'), { timeoutMs: 30_000, what: 'stopped' });
});
