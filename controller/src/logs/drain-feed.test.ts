import test from 'ava';
import type { ControllerMessage } from '@platform/proto';
import { silentLogger } from '@platform/proto/common';
import type { InstanceRecord } from '../model/instance.js';
import type { Job } from '../model/job.js';
import { testJob } from '../scheduler/cluster.test-fixture.js';
import { InstanceTable } from '../scheduler/instance-table.js';
import { DrainFeed } from './drain-feed.js';

const record = (job: Job, uuid: string, agent: string, over: Partial<InstanceRecord> = {}): InstanceRecord => ({
  uuid, job_uuid: job.uuid, job_version_id: job.version_id, run_hash: 'h', agent_uuid: agent, host: 'h', state: 'RUNNING',
  exited: false, exit_code: 0, failed: false, reason: '', ports: {}, resources: { cpu: 0, memory: 0, disk: 0, network: 0, netmax: 0 },
  created_ms: 0, updated_ms: 0, ...over,
} as InstanceRecord);

function setup(find: (uuid: string) => Promise<Job | undefined> = async () => undefined) {
  const table = new InstanceTable();
  const sent: [string, ControllerMessage][] = [];
  const feed = new DrainFeed(table, { send: (agent, m) => (sent.push([agent, m]), true) }, find, silentLogger);
  return { table, sent, feed };
}

const drain = { url: 'syslog://127.0.0.1:514', conf: { priority: 13, protocol: 'tcp' } };

test('drain feed: a change of the drains goes to each agent holding a live instance, once; an unchanged list sends nothing', (t) => {
  const { table, sent, feed } = setup();
  const job = testJob({ drains: [drain] });
  table.put(record(job, 'i1', 'a1'));
  table.put(record(job, 'i2', 'a1'));
  table.put(record(job, 'i3', 'a2'));
  table.put(record(job, 'i4', 'a3', { state: 'REMOVED' }));
  feed.jobChanged(job);
  t.deepEqual(sent.map(([a]) => a).sort(), ['a1', 'a2'], 'first seen: the agents are told');
  sent.length = 0;
  feed.jobChanged({ ...job, version_id: job.version_id + 1 });
  t.deepEqual(sent, [], 'same drains');
  feed.jobChanged({ ...job, drains: [] });
  t.deepEqual(sent.map(([a, m]) => [a, m.jobDrains?.drains]).sort(), [['a1', []], ['a2', []]]);
});

test('drain feed: an instance that (re-)reports gets its job drains, looked up once when the job is not known', async (t) => {
  const job = testJob({ drains: [drain] });
  let lookups = 0;
  const { table, sent, feed } = setup(async () => (lookups++, job));
  const r = record(job, 'i1', 'a1');
  table.put(r);
  feed.instanceChanged(r);
  feed.instanceChanged(r);
  await new Promise((resolve) => setImmediate(resolve));
  t.is(lookups, 1);
  t.true(sent.length >= 1 && sent.every(([a, m]) => a === 'a1' && m.jobDrains?.drains?.[0]?.url === drain.url && m.jobDrains.jobFqn === job.fqn));
  sent.length = 0;
  feed.instanceChanged({ ...r, state: 'REMOVED' });
  feed.instanceChanged({ ...r, run: { id: 'x', package: 'p' } });
  t.deepEqual(sent, [], 'removed instances and one-off runs get nothing');
  feed.instanceChanged(r);
  t.is(sent.length, 1);
});
