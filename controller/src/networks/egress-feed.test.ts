import test from 'ava';
import type { ControllerMessage, JobEgress } from '@platform/proto';
import type { LogFields, Logger } from '@platform/proto/common';
import type { InstanceRecord } from '../model/instance.js';
import type { Job } from '../model/job.js';
import { InstanceTable } from '../scheduler/instance-table.js';
import { EgressFeed } from './egress-feed.js';

const none = { cpu: 0, memory: 0, disk: 0, network: 0, netmax: 0 };

function instance(uuid: string, job: string, agent: string): InstanceRecord {
  return {
    uuid, job_uuid: job, job_version_id: 1, run_hash: 'h', agent_uuid: agent, host: agent, state: 'RUNNING', exited: false, exit_code: 0,
    failed: false, reason: '', ports: {}, resources: none, created_ms: 0, updated_ms: 0,
  };
}

test('egress feed: reach() tells every agent holding a live instance of the job what it reaches now, and resolves once each said it is in place; a silent agent is waited for no longer than the bound and logged', async (t) => {
  const table = new InstanceTable();
  let endpoints = ['127.0.0.1:5432'];
  const applied: { agent: string; message: JobEgress }[] = [];
  const sent: { agent: string; message: ControllerMessage }[] = [];
  // agent-b never answers (an older agent): the feed gives up on it after its bound.
  const answers: Record<string, boolean> = { 'agent-a': true, 'agent-b': false };
  const warned: { msg: string; fields: LogFields | undefined }[] = [];
  const log: Logger = {
    debug: () => {}, info: () => {}, error: () => {}, flush: () => {}, isLevelEnabled: () => true, child: () => log,
    warn: (msg, fields) => void warned.push({ msg, fields }),
  };
  const feed = new EgressFeed(
    table,
    {
      send: (agent, message) => (sent.push({ agent, message }), true),
      applyEgress: async (agent, message) => (applied.push({ agent, message }), answers[agent] ?? false),
    },
    async (uuid) => ({ uuid, bindings: {} }) as unknown as Job,
    log,
    (job) => (job === 'gw' ? endpoints : []),
  );
  table.put(instance('g1', 'gw', 'agent-a'));
  table.put(instance('g2', 'gw', 'agent-b'));
  table.put(instance('o1', 'other', 'agent-c'));

  await feed.reach('gw');
  t.deepEqual(applied.map((a) => a.agent).sort(), ['agent-a', 'agent-b'], 'the agents of the job, not the others');
  t.deepEqual(applied[0]!.message.endpoints, ['127.0.0.1:5432']);
  t.deepEqual(warned.map((w) => w.fields?.['agents']), [['agent-b']]);

  // A re-reported instance (its agent restarted) gets the job's openings again.
  endpoints = ['127.0.0.1:5432', '127.0.0.1:6379'];
  await feed.reach('gw');
  sent.length = 0;
  feed.instanceChanged(table.get('g1'));
  t.deepEqual(sent.map((s) => [s.agent, s.message.jobEgress?.endpoints]), [['agent-a', ['127.0.0.1:5432', '127.0.0.1:6379']]]);
  // A job that opens nothing: its agent is told once (it may know an older list), then nothing.
  sent.length = 0;
  feed.instanceChanged(table.get('o1'));
  await new Promise((r) => setImmediate(r));
  t.deepEqual(sent.map((s) => [s.agent, s.message.jobEgress?.rules, s.message.jobEgress?.endpoints]), [['agent-c', [], []]]);
  sent.length = 0;
  feed.instanceChanged(table.get('o1'));
  await new Promise((r) => setImmediate(r));
  t.deepEqual(sent, []);
});
