import test from 'ava';
import type { ControllerMessage } from '@platform/proto';
import { silentLogger } from '@platform/proto/common';
import type { InstanceRecord } from '../model/instance.js';
import type { Job } from '../model/job.js';
import { InstanceTable } from '../scheduler/instance-table.js';
import { LinkFeed } from './link-feed.js';

const none = { cpu: 0, memory: 0, disk: 0, network: 0, netmax: 0 };

function instance(uuid: string, job: string, agent: string, state: InstanceRecord['state'], port?: string): InstanceRecord {
  return {
    uuid, job_uuid: job, job_version_id: 1, run_hash: 'h', agent_uuid: agent, host: agent, state, exited: false, exit_code: 0,
    failed: false, reason: '', ports: port ? { '8080': port } : {}, resources: none, created_ms: 0, updated_ms: 0,
  };
}

/** A job as far as links go: its uuid and its bindings to `targets` (port 8080). */
function linking(uuid: string, targets: string[]): Job {
  const bindings = Object.fromEntries(targets.map((t, n) => [`b${n}`, { uuid: `binding-${uuid}-${n}`, target_job_uuid: t, target_job_port: '8080', env_var: ['T'] }]));
  return { uuid, bindings } as unknown as Job;
}

test('link feed: a target\'s RUNNING addresses go to the agents of the jobs that link to it, and only to them', (t) => {
  const table = new InstanceTable();
  const sent: { agent: string; message: ControllerMessage }[] = [];
  const feed = new LinkFeed(table, { send: (agent, message) => (sent.push({ agent, message }), true) }, () => Promise.resolve(undefined), silentLogger);
  table.watch((record) => feed.instanceChanged(record));

  feed.linksFor(linking('web', ['db']));
  feed.linksFor(linking('api', ['db', 'cache']));
  feed.linksFor(linking('batch', ['cache']));
  table.put(instance('w1', 'web', 'agent-w', 'RUNNING'));
  table.put(instance('a1', 'api', 'agent-a', 'RUNNING'));
  table.put(instance('b1', 'batch', 'agent-b', 'RUNNING'));
  sent.length = 0;

  table.put(instance('d1', 'db', 'agent-d', 'RUNNING', '10.0.0.1:5432'));
  const told = (target: string) => sent.filter((s) => s.message.linkTargets?.targetJobUuid === target).map((s) => `${s.agent} ${s.message.linkTargets?.addresses?.join(',')}`).sort();
  t.deepEqual(told('db'), ['agent-a 10.0.0.1:5432', 'agent-w 10.0.0.1:5432']);
  t.deepEqual(told('cache'), []);

  // The same list again is not sent again.
  sent.length = 0;
  table.put(instance('d1', 'db', 'agent-d', 'RUNNING', '10.0.0.1:5432'));
  t.deepEqual(sent, []);

  // web no longer links to db but to cache: db's changes reach api only, cache's reach all three.
  feed.linksFor(linking('web', ['cache']));
  table.put(instance('d2', 'db', 'agent-d', 'RUNNING', '10.0.0.2:5432'));
  t.deepEqual(told('db'), ['agent-a 10.0.0.1:5432,10.0.0.2:5432']);
  sent.length = 0;
  table.put(instance('c1', 'cache', 'agent-c', 'RUNNING', '10.0.0.3:6379'));
  t.deepEqual(told('cache'), ['agent-a 10.0.0.3:6379', 'agent-b 10.0.0.3:6379', 'agent-w 10.0.0.3:6379']);
});
