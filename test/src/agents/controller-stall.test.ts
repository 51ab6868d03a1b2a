/**
 * A controller that does not run for longer than the agents' loss delay (stopped with SIGSTOP, as
 * a long disk stall in a commit, a garbage collection or a suspended host would hold it) keeps
 * its agents and their instances: the heartbeats sent meanwhile wait in the sockets, and the
 * sweep that comes first when it runs again is put off until they are read.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import test from 'ava';
import type { Job } from '@platform/controller';
import { httpAppArchive, httpAppJob, uploadPackage } from '../harness/apps.js';
import { FAST_AGENT_TIMING, instancesOf, runningInstances, startCluster } from '../harness/cluster.js';
import { unique } from '../harness/fixtures.js';
import { eventually } from '../harness/wait.js';

test('agents: a controller stopped for longer than the loss delay keeps its agents and their instances when it runs again', async (t) => {
  const { api, agents, controller } = await startCluster(t, [{}]);
  const ns = `/stall/${unique()}`;
  const pkg = await uploadPackage(api, ns, httpAppArchive());
  const job = (await api.post<Job>('/jobs', httpAppJob(`job::${ns}::steady`, pkg.uuid, { state: 'started' }))).body;
  const [before] = await runningInstances(api, job.uuid, 1);

  const pid = controller.child.pid!;
  process.kill(pid, 'SIGSTOP');
  try {
    // The stall is the scenario: longer than PLATFORM_AGENT_LOST_AFTER_MS, while the agent keeps
    // sending heartbeats every PLATFORM_HEARTBEAT_INTERVAL_MS.
    await sleep(Number(FAST_AGENT_TIMING.PLATFORM_AGENT_LOST_AFTER_MS) + 1_500);
  } finally {
    process.kill(pid, 'SIGCONT');
  }

  await eventually(() => controller.lines.some((l) => String(l['msg']).startsWith('agent sweep put off')), {
    timeoutMs: 15_000,
    what: 'the controller to log that it put off the sweep after the stall',
  });
  // The sweeps after it (one a second) judge the agent by the heartbeats read meanwhile: two of them.
  await sleep(2_500);
  const managers = (await api.get<{ uuid: string; status: string }[]>('/instance_managers')).body;
  t.is(managers.find((m) => m.uuid === agents[0]!.uuid)?.status, 'connected');
  const after = await instancesOf(api, job.uuid);
  t.deepEqual(
    after.map((i) => [i.uuid, i.state]),
    [[before!.uuid, 'RUNNING']],
    'the same instance runs; none was replaced',
  );
  t.false(
    controller.lines.some((l) => l['msg'] === 'instance manager lost'),
    'no agent was declared lost',
  );
});
