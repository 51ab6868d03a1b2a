/** A controller with real agents, for the tests of running jobs. */
import type { ExecutionContext } from 'ava';
import type { Job } from '@platform/controller';
import { AgentProcess, bwrapWorks, type AgentOptions } from './agent-process.js';
import { ControllerProcess, type SpawnOptions } from './controller-process.js';
import type { ApiClient } from './http.js';
import { eventually } from './wait.js';

/** Heartbeats and loss detection fast enough for tests, slow enough for a busy 2-core machine. */
export const FAST_AGENT_TIMING = { PLATFORM_HEARTBEAT_INTERVAL_MS: '300', PLATFORM_AGENT_LOST_AFTER_MS: '4000' };

export interface TestCluster {
  controller: ControllerProcess;
  api: ApiClient;
  agents: AgentProcess[];
}

/**
 * The isolation the tests run instances with: bubblewrap when it works here, else the plain
 * process driver (with a notice; PLATFORM_REQUIRE_SYSTEM_TOOLS=1 makes a missing bwrap fatal).
 */
export function testIsolation(t: ExecutionContext): 'bwrap' | 'process' {
  if (bwrapWorks()) return 'bwrap';
  if (process.env['PLATFORM_REQUIRE_SYSTEM_TOOLS'] === '1') throw new Error('bubblewrap (bwrap) is required: apt-get install bubblewrap');
  t.log('bubblewrap is not installed: instances run with the process driver (apt-get install bubblewrap)');
  return 'process';
}

export async function startCluster(
  t: ExecutionContext,
  agents: AgentOptions[],
  options: SpawnOptions = {},
): Promise<TestCluster> {
  const controller = await ControllerProcess.start({ ...options, env: { ...FAST_AGENT_TIMING, ...options.env } });
  const cluster: TestCluster = { controller, api: await controller.admin(), agents: [] };
  t.teardown(async () => {
    await Promise.all(cluster.agents.map((a) => a.dispose()));
    await cluster.controller.dispose();
  });
  const isolation = testIsolation(t);
  // The agents send the drains: they take the controller's list unless given their own.
  const allowedDestinations = options.allowedDestinations ? { allowedDestinations: options.allowedDestinations } : {};
  for (const o of agents) cluster.agents.push(await AgentProcess.start(controller, cluster.api, { isolation, ...allowedDestinations, ...o }));
  return cluster;
}

export interface ApiInstance {
  uuid: string;
  state: string;
  host: string;
  instance_manager_uuid: string;
  job_version_id: number;
  exited: boolean;
  exit_code: number;
  failed: boolean;
  reason?: string;
  ports: Record<string, string>;
}

export async function instancesOf(api: ApiClient, job: string): Promise<ApiInstance[]> {
  const r = await api.get<ApiInstance[]>(`/jobs/${job}/instances`);
  if (r.status !== 200) throw new Error(`GET instances: ${r.status} ${r.text}`);
  return r.body;
}

/** Waits until exactly `count` instances of the job are RUNNING (and none other is live). */
export async function runningInstances(api: ApiClient, job: string, count: number, timeoutMs = 60_000): Promise<ApiInstance[]> {
  return eventually(
    async () => {
      const all = await instancesOf(api, job);
      const live = all.filter((i) => i.state !== 'REMOVED');
      const running = live.filter((i) => i.state === 'RUNNING');
      return running.length === count && live.length === count ? running : undefined;
    },
    { timeoutMs, what: `${count} running instances of job ${job}` },
  );
}

/** GET on an instance's first port, answering the parsed JSON. */
export async function callInstance<T>(instance: ApiInstance, path = '/'): Promise<T> {
  const address = Object.values(instance.ports)[0];
  if (!address) throw new Error(`instance ${instance.uuid} reports no port`);
  const res = await fetch(`http://${address}${path}`);
  return (await res.json()) as T;
}

/** Waits until the job is in `state` (the controller moves it there on its own: errored, finished). */
export async function jobInState(api: ApiClient, job: string, state: Job['state'], timeoutMs = 60_000): Promise<Job> {
  return eventually(
    async () => {
      const j = (await api.get<Job>(`/jobs/${job}`)).body;
      return j.state === state ? j : undefined;
    },
    { timeoutMs, what: `job ${job} ${state}` },
  );
}
