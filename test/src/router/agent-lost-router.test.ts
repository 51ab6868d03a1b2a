/**
 * The route table follows agents too: when an agent is lost (killed with kill -9), its instances
 * leave the table (announced_routes false) and the router sends their traffic to the instances
 * of the other agent, whatever became of the lost agent's processes.
 */
import test from 'ava';
import type { Job } from '@platform/controller';
import { uploadPackage } from '../harness/apps.js';
import { instancesOf, runningInstances, startCluster } from '../harness/cluster.js';
import { unique } from '../harness/fixtures.js';
import { routerAppArchive, viaRouter } from '../harness/router-app.js';
import { eventually } from '../harness/wait.js';

test('router: the instances of a lost agent leave the route table and its traffic goes to the others', async (t) => {
  const cluster = await startCluster(t, [{}, {}], { args: ['--domain', 'apps.test'] });
  const { api, agents } = cluster;
  const pkg = await uploadPackage(api, '/sandbox/admin', routerAppArchive());
  const host = `${unique('lost')}.apps.test`;
  const created = await api.post<Job>('/jobs', {
    fqn: `job::/sandbox/admin::${unique('lost')}`,
    num_instances: 2,
    packages: [{ uuid: pkg.uuid }],
    processes: { app: { start_command: 'node /app/server.js' } },
    ports: [{ number: 0, routes: [{ type: 'http', endpoint: host }] }],
    resources: { memory: 64 * 1024 * 1024, disk: 64 * 1024 * 1024 },
    tags: { app: '' },
    state: 'started',
  });
  t.is(created.status, 200, created.text);
  const two = await runningInstances(api, created.body.uuid, 2, 90_000);
  t.is(new Set(two.map((i) => i.instance_manager_uuid)).size, 2, 'one instance on each agent');
  const router = cluster.controller.routerAddress;
  const servedBy = async (n: number) => new Set((await Promise.all(Array.from({ length: n }, () => viaRouter(router, host)))).map((r) => r.instance));
  await eventually(async () => ((await servedBy(8)).size === 2 ? true : undefined), { what: 'both instances served' });

  const doomed = agents[0]!;
  const lost = two.find((i) => i.instance_manager_uuid === doomed.uuid)!;
  const announced = async () =>
    ((await instancesOf(api, created.body.uuid)).find((i) => i.uuid === lost.uuid) as { announced_routes?: boolean } | undefined)?.announced_routes;
  t.is(await announced(), true);
  await doomed.kill9();
  // Lost after PLATFORM_AGENT_LOST_AFTER_MS (4 s in tests): out of the table, not served any more.
  await eventually(
    async () => ((await announced()) === false ? true : undefined),
    { timeoutMs: 30_000, what: 'the lost instance out of the route table' },
  );
  const after = await eventually(
    async () => {
      const served = await servedBy(10);
      return served.has(lost.uuid) ? undefined : served;
    },
    { timeoutMs: 5_000, what: 'requests no longer sent to the lost instance' },
  );
  t.false(after.has(lost.uuid));
  t.true([...after].every((i) => typeof i === 'string' && i !== lost.uuid));
});
