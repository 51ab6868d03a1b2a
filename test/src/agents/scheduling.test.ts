/**
 * Jobs running on real agents: placement over several agents, scaling, stopping, the restart
 * policy, graceful stops, and what happens when an agent or the controller goes away.
 */
import test from 'ava';
import type { Job } from '@platform/controller';
import { commandJob, httpAppArchive, httpAppJob, tarGz, uploadPackage } from '../harness/apps.js';
import { callInstance, instancesOf, jobInState, runningInstances, startCluster } from '../harness/cluster.js';
import { unique } from '../harness/fixtures.js';
import { eventually } from '../harness/wait.js';

interface Health {
  score: number;
  flapping: boolean;
  instance_state_count: Record<string, number>;
  message?: string;
}

test('scheduling: a started job runs on the agents, spread, answers on its port, scales up and down and stops', async (t) => {
  const { api, agents } = await startCluster(t, [{ tags: ['zone-a'] }, { tags: ['zone-b'] }]);
  const ns = `/sched/${unique()}`;
  const pkg = await uploadPackage(api, ns, httpAppArchive());
  const job = (await api.post<Job>('/jobs', httpAppJob(`job::${ns}::web`, pkg.uuid, { num_instances: 2, state: 'started' }))).body;
  t.is(job.state, 'started');

  const two = await runningInstances(api, job.uuid, 2);
  t.deepEqual(two.map((i) => i.instance_manager_uuid).sort(), agents.map((a) => a.uuid).sort(), 'spread over both agents');
  for (const i of two) {
    const answer = await callInstance<{ instance: string; job: string }>(i);
    t.is(answer.instance, i.uuid);
    t.is(answer.job, job.uuid);
  }
  const health = (await api.get<Health[]>(`/jobs/health?ids=${job.uuid}`)).body[0]!;
  t.is(health.score, 1);
  t.is(health.instance_state_count['RUNNING'], 2);

  const current = (await api.get<Job>(`/jobs/${job.uuid}`)).body;
  t.is((await api.put(`/jobs/${job.uuid}`, { ...current, num_instances: 3 })).status, 200);
  const three = await runningInstances(api, job.uuid, 3);
  t.true(two.every((i) => three.some((x) => x.uuid === i.uuid)), 'scaling up keeps the running instances');

  const again = (await api.get<Job>(`/jobs/${job.uuid}`)).body;
  t.is((await api.put(`/jobs/${job.uuid}`, { ...again, num_instances: 1 })).status, 200);
  await runningInstances(api, job.uuid, 1);

  const managers = (await api.get<{ uuid: string; num_instances: number; ResourcesProvisioned: { memory: number } }[]>('/instance_managers')).body;
  t.is(managers.filter((m) => agents.some((a) => a.uuid === m.uuid)).reduce((n, m) => n + m.num_instances, 0), 1);

  const last = (await api.get<Job>(`/jobs/${job.uuid}`)).body;
  t.is((await api.put(`/jobs/${job.uuid}`, { ...last, state: 'stopped' })).status, 200);
  await eventually(async () => (await instancesOf(api, job.uuid)).every((i) => i.state === 'REMOVED'), { timeoutMs: 30_000, what: 'all instances removed' });
  const logs = await api.get(`/jobs/${job.uuid}/logs?lines=1000`, { headers: { accept: 'text/plain' } });
  t.is(logs.status, 200);
  t.regex(logs.text, /listening on \d+/);
  t.regex(logs.text, /graceful stop/, 'stopped with SIGTERM first: the app said goodbye');
});

test('scheduling: hard tags choose the agent; when none fits the job waits and says why', async (t) => {
  const { api, agents } = await startCluster(t, [{ tags: ['ssd'] }, { tags: ['hdd'] }]);
  const ns = `/tags/${unique()}`;
  const pkg = await uploadPackage(api, ns, httpAppArchive());
  const pinned = (await api.post<Job>('/jobs', httpAppJob(`job::${ns}::pinned`, pkg.uuid, { num_instances: 2, state: 'started', scheduling_tags: [{ hard: ['ssd'] }] }))).body;
  const running = await runningInstances(api, pinned.uuid, 2);
  t.true(running.every((i) => i.instance_manager_uuid === agents[0]!.uuid));

  const nowhere = (await api.post<Job>('/jobs', httpAppJob(`job::${ns}::nowhere`, pkg.uuid, { state: 'started', scheduling_tags: [{ hard: ['gpu'] }] }))).body;
  const health = await eventually(async () => (await api.get<Health[]>(`/jobs/health?ids=${nowhere.uuid}`)).body[0]?.message);
  t.regex(health, /hard scheduling tags gpu/);

  const huge = (await api.post<Job>('/jobs', httpAppJob(`job::${ns}::huge`, pkg.uuid, { state: 'started', resources: { memory: 1024 ** 5 } }))).body;
  const why = await eventually(async () => (await api.get<Health[]>(`/jobs/health?ids=${huge.uuid}`)).body[0]?.message);
  t.regex(why, /no instance manager has room .*memory/);
});

test('scheduling: a crash loop ends in errored with flapping, and the failures are visible', async (t) => {
  const { api } = await startCluster(t, [{}]);
  const ns = `/crash/${unique()}`;
  const pkg = await uploadPackage(api, ns, tarGz({ 'app/crash.sh': 'echo about to fail\nexit 3\n' }));
  const job = (
    await api.post<Job>(
      '/jobs',
      commandJob(`job::${ns}::crasher`, pkg.uuid, 'sh /app/crash.sh', {
        restart: { restart_mode: 'always' },
        rollout: { flapping_minimum_restarts: 3, flapping_percent: 0.5, flapping_window: 300 },
        state: 'started',
      }),
    )
  ).body;
  await jobInState(api, job.uuid, 'errored');
  const health = (await api.get<Health[]>(`/jobs/health?ids=${job.uuid}`)).body[0]!;
  t.true(health.flapping);
  t.regex(health.message ?? '', /flapping: 3 restarts/);
  const instances = await instancesOf(api, job.uuid);
  t.true(instances.length >= 3);
  t.true(instances.every((i) => i.state === 'REMOVED'));
  t.true(instances.some((i) => i.exited && i.exit_code === 3 && i.failed));
  t.true(instances.length <= 4, 'the crash loop stopped at the flapping limit');
  const audit = (await api.get<{ event_type: string; audit_payload: { reason?: string } }[]>(`/audit?event_type=job.update&fqn=${encodeURIComponent(job.fqn)}`)).body;
  t.true(audit.some((a) => /flapping/.test(a.audit_payload.reason ?? '')));
});

test('scheduling: restart "no" leaves an exited instance alone and the job finishes', async (t) => {
  const { api } = await startCluster(t, [{}]);
  const ns = `/once/${unique()}`;
  const pkg = await uploadPackage(api, ns, tarGz({ 'app/once.sh': 'echo done once\nexit 0\n' }));
  const job = (
    await api.post<Job>('/jobs', commandJob(`job::${ns}::once`, pkg.uuid, 'sh /app/once.sh', { restart: { restart_mode: 'no' }, state: 'started' }))
  ).body;
  await jobInState(api, job.uuid, 'finished', 30_000).catch(async (err: Error) => {
    t.log(JSON.stringify(await instancesOf(api, job.uuid)), JSON.stringify((await api.get(`/jobs/${job.uuid}`)).body));
    throw err;
  });
  const instances = await instancesOf(api, job.uuid);
  t.is(instances.length, 1);
  t.like(instances[0], { state: 'REMOVED', exited: true, exit_code: 0, failed: false });
});

test('scheduling: an agent killed with kill -9 is lost and its instances run again on another agent', async (t) => {
  const { api, agents } = await startCluster(t, [{ tags: ['first'] }, { tags: ['second'] }]);
  const ns = `/lost/${unique()}`;
  const pkg = await uploadPackage(api, ns, httpAppArchive());
  const job = (await api.post<Job>('/jobs', httpAppJob(`job::${ns}::mover`, pkg.uuid, { state: 'started', scheduling_tags: [{ soft: ['first'] }] }))).body;
  const [before] = await runningInstances(api, job.uuid, 1);
  t.is(before!.instance_manager_uuid, agents[0]!.uuid, 'the soft tag prefers the first agent');
  await agents[0]!.kill9();

  const moved = await eventually(async () => {
    const live = (await instancesOf(api, job.uuid)).filter((i) => i.state === 'RUNNING');
    return live.length === 1 && live[0]!.instance_manager_uuid === agents[1]!.uuid ? live[0] : undefined;
  }, { timeoutMs: 60_000, what: 'instance running on the second agent' });
  t.not(moved.uuid, before!.uuid);
  const old = (await instancesOf(api, job.uuid)).find((i) => i.uuid === before!.uuid)!;
  t.like(old, { state: 'REMOVED', failed: true });
  t.regex(old.reason ?? '', /lost/);
  const managers = (await api.get<{ uuid: string; status: string }[]>('/instance_managers')).body;
  t.is(managers.find((m) => m.uuid === agents[0]!.uuid)?.status, 'lost');
  t.is((await callInstance<{ instance: string }>(moved)).instance, moved.uuid);
});

test('scheduling: a controller restart leaves running instances running; nothing is started twice', async (t) => {
  const cluster = await startCluster(t, [{}]);
  const { api } = cluster;
  const ns = `/restart/${unique()}`;
  const pkg = await uploadPackage(api, ns, httpAppArchive());
  const job = (await api.post<Job>('/jobs', httpAppJob(`job::${ns}::steady`, pkg.uuid, { num_instances: 2, state: 'started' }))).body;
  const before = await runningInstances(api, job.uuid, 2);
  const pids = await Promise.all(before.map((i) => callInstance<{ pid: number }>(i).then((a) => a.pid)));

  await cluster.controller.kill9();
  cluster.controller = await cluster.controller.restart();
  const api2 = await cluster.controller.admin();
  await eventually(async () => (await api2.get<{ status: string }[]>('/instance_managers')).body.some((m) => m.status === 'connected'), {
    timeoutMs: 30_000,
    what: 'agent reconnected',
  });
  const after = await runningInstances(api2, job.uuid, 2);
  t.deepEqual(after.map((i) => i.uuid).sort(), before.map((i) => i.uuid).sort());
  const pidsAfter = await Promise.all(after.map((i) => callInstance<{ pid: number }>(i).then((a) => a.pid)));
  t.deepEqual([...pidsAfter].sort(), [...pids].sort(), 'the same processes answer');
  t.is((await instancesOf(api2, job.uuid)).length, 2, 'no instance was added');
});

test('scheduling: DELETE of an instance stops it and the restart policy replaces it', async (t) => {
  const { api } = await startCluster(t, [{}]);
  const ns = `/replace/${unique()}`;
  const pkg = await uploadPackage(api, ns, httpAppArchive());
  const job = (await api.post<Job>('/jobs', httpAppJob(`job::${ns}::app`, pkg.uuid, { state: 'started' }))).body;
  const [first] = await runningInstances(api, job.uuid, 1);
  t.is((await api.delete(`/jobs/${job.uuid}/instances/${first!.uuid}`)).status, 200);
  const [second] = await eventually(async () => {
    const running = (await instancesOf(api, job.uuid)).filter((i) => i.state === 'RUNNING' && i.uuid !== first!.uuid);
    return running.length === 1 ? running : undefined;
  }, { timeoutMs: 30_000, what: 'a replacement instance' });
  t.truthy(second);
  t.is((await api.delete(`/jobs/${job.uuid}/instances/${first!.uuid}`)).status, 404);
  t.is((await api.delete(`/jobs/${job.uuid}/instances/not-a-uuid`)).status, 400);
  const audit = (await api.get<{ event_type: string }[]>(`/audit?event_type=job.instancestop`)).body;
  t.is(audit.length, 1);
});
