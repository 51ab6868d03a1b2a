import test from 'ava';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { instanceStateName } from '@platform/proto';
import { Agent } from './agent.js';
import { JsonLogger, MemorySink } from '@platform/proto/common';
import { FakeController } from './test-support/fake-controller.js';
import { eventually } from './test-support/wait.js';
import { tempDir } from './test-support/temp.js';

test('agent (embedded): Welcome.stop stops a listed instance; stop({ stopInstances }) stops the rest and reports them', async (t) => {
  const ctl = new FakeController();
  await ctl.start();
  t.teardown(() => ctl.stop());
  const dataDir = tempDir(t, 'agent-embedded-');
  const sink = new MemorySink();
  const agent = await Agent.start({
    controller: ctl.address, dataDir, joinToken: ctl.secret, isolation: 'process', log: new JsonLogger(sink, 'debug'), pollMs: 50,
  });
  t.teardown(() => agent.stop({ stopInstances: true }));
  await eventually(() => agent.session.state === 'welcomed', 'welcomed');
  const a = randomUUID();
  const b = randomUUID();
  for (const uuid of [a, b]) ctl.send({ start: { spec: { instanceUuid: uuid, jobUuid: 'j', process: { startCommand: 'exec sleep 60' } } } });
  for (const uuid of [a, b]) await eventually(() => ctl.reports(uuid).some((r) => instanceStateName(r.state) === 'RUNNING'), `${uuid} RUNNING`);
  const metrics = await (await fetch(agent.metricsUrl)).text();
  t.regex(metrics, /platform_agent_instances\{state="RUNNING"\} 2/);
  t.regex(metrics, /platform_agent_instance_starts_total 2/);

  // A reconnect whose Welcome tells the agent to stop `a`.
  ctl.welcome = (h) => ({ heartbeatIntervalMs: 200, stop: [a], adopt: (h.instances ?? []).map((i) => i.instanceUuid ?? '').filter((u) => u !== a) });
  const port = ctl.port;
  await ctl.stop();
  await ctl.start(port);
  await eventually(() => ctl.reports(a).some((r) => instanceStateName(r.state) === 'REMOVED'), 'a REMOVED', 60_000);
  t.is(instanceStateName(ctl.hellos.at(-1)?.instances?.find((i) => i.instanceUuid === b)?.state), 'RUNNING');

  await agent.stop({ stopInstances: true });
  // Written before the stream was ended: it arrives.
  const rb = await eventually(() => ctl.reports(b).find((r) => instanceStateName(r.state) === 'REMOVED'), 'b REMOVED');
  t.true(rb.stopRequested);
  t.deepEqual(readdirSync(join(dataDir, 'instances')), []);
  t.truthy(sink.lines.find((l) => l['msg'] === 'agent stopped' && l['instances_left_running'] === 0));
});
