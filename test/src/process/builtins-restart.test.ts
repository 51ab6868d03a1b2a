import test from 'ava';
import type { Job, Package, StagingPipeline } from '@platform/controller';
import { ControllerProcess } from '../harness/controller-process.js';

test('built-ins: registered once; a restart finds them and duplicates nothing', async (t) => {
  const first = await ControllerProcess.start();
  t.teardown(() => first.dispose());
  const snapshot = async (c: ControllerProcess) => {
    const api = await c.admin();
    const packages = (await api.get<Package[]>('/packages?fqn=package::/platform&matchPartialFQN=true')).body;
    const jobs = (await api.get<Job[]>('/jobs?fqn=job::/platform/stagers&matchPartialFQN=true')).body;
    const pipelines = (await api.get<StagingPipeline[]>('/stagingpipelines')).body.filter((p) => p.fqn.startsWith('stagpipe::/platform::'));
    return {
      packages: packages.map((p) => `${p.fqn} ${p.uuid} v${p.version_id}`),
      jobs: jobs.map((j) => `${j.fqn} ${j.uuid} v${j.version_id}`),
      pipelines: pipelines.map((p) => `${p.fqn} ${p.uuid} v${p.version_id}`),
    };
  };
  const before = await snapshot(first);
  t.true(before.packages.length >= 3, before.packages.join('\n'));
  t.is(before.jobs.length, 9);
  t.is(before.pipelines.length, 9);
  await first.stop();
  const second = await first.restart();
  t.teardown(() => second.dispose());
  t.deepEqual(await snapshot(second), before);
});
