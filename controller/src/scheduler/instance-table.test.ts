import test from 'ava';
import type { InstanceRecord } from '../model/instance.js';
import type { Resource } from '../model/job.js';
import { InstanceTable } from './instance-table.js';

const STATES: InstanceRecord['state'][] = ['NEW', 'SETUP', 'STARTING', 'RUNNING', 'STOPPING', 'TEARDOWN', 'REMOVED'];

/** A small deterministic generator (the test replays the same sequence every run). */
function random(seed: number): () => number {
  let x = seed;
  return () => {
    x = (x * 1103515245 + 12345) % 2 ** 31;
    return x / 2 ** 31;
  };
}

function record(uuid: string, job: string, agent: string, state: InstanceRecord['state'], resources: Resource): InstanceRecord {
  return {
    uuid, job_uuid: job, job_version_id: 1, run_hash: 'h', agent_uuid: agent, host: agent, state, exited: false, exit_code: 0,
    failed: false, reason: '', ports: {}, resources, created_ms: 0, updated_ms: 0,
  };
}

/** What the table answers, recomputed from its records. */
function recomputed(table: InstanceTable, agent: string): Resource {
  const sum: Resource = { cpu: 0, memory: 0, disk: 0, network: 0, netmax: 0 };
  for (const i of table.ofAgent(agent)) {
    if (i.state === 'REMOVED') continue;
    for (const k of Object.keys(sum) as (keyof Resource)[]) sum[k] += i.resources[k];
  }
  return sum;
}

test('instance table: the running sums per agent and per job and agent equal a recount after every put and delete', (t) => {
  const next = random(7);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(next() * xs.length)]!;
  const agents = ['a1', 'a2', 'a3', 'a4'];
  const jobs = ['j1', 'j2', 'j3'];
  const table = new InstanceTable();
  const uuids: string[] = [];
  for (let step = 0; step < 3000; step++) {
    const roll = next();
    if (roll < 0.4 || uuids.length === 0) {
      const uuid = `i${step}`;
      uuids.push(uuid);
      const resources = { cpu: Math.floor(next() * 500), memory: Math.floor(next() * 2 ** 30), disk: Math.floor(next() * 2 ** 32), network: 1000, netmax: 0 };
      table.put(record(uuid, pick(jobs), pick(agents), 'NEW', resources));
    } else if (roll < 0.85) {
      // A new record for an existing instance: another state, sometimes another agent.
      const old = table.get(pick(uuids));
      if (old) table.put({ ...old, state: pick(STATES), ...(next() < 0.1 ? { agent_uuid: pick(agents) } : {}) });
    } else {
      table.delete(pick(uuids));
    }
    for (const agent of agents) {
      t.deepEqual(table.provisioned(agent), recomputed(table, agent), `provisioned on ${agent} after step ${step}`);
      for (const job of jobs) {
        const live = table.ofJob(job).filter((i) => i.agent_uuid === agent && i.state !== 'REMOVED').length;
        if (table.liveOfJobOn(job, agent) !== live) t.fail(`live instances of ${job} on ${agent} after step ${step}`);
      }
    }
  }
  t.deepEqual(table.provisioned('nowhere'), { cpu: 0, memory: 0, disk: 0, network: 0, netmax: 0 });
});
