/**
 * Job instances as the controller keeps them. A JobActor owns the instances of its job:
 * it creates them when it places them on an agent and applies every report the agent sends.
 *
 * Life of an instance record (states are the agent's, reported over the stream):
 *
 *   placed ─▶ NEW ─▶ SETUP ─▶ STARTING ─▶ FIRST_RUNNING ─▶ RUNNING ─┐
 *              │        │          │                               │ stop requested, exit,
 *              └────────┴──────────┴───────────────────────────────┤ failed start, agent lost
 *                                                                  ▼
 *                                         STOPPING ─▶ TEARDOWN ─▶ REMOVED (kept a while for
 *                                                                  its exit code, then dropped)
 *
 * Records are stored under `inst/<job>/<instance>` so that a restarted controller knows which
 * instance runs where before its agents reconnect (and does not start them twice).
 */
import type { InstanceStateName } from '@platform/proto';
import type { Resource } from './job.js';

export interface InstanceRecord {
  uuid: string;
  job_uuid: string;
  job_version_id: number;
  /** Hash of the job fields that shape a running instance; a change means replacement. */
  run_hash: string;
  agent_uuid: string;
  host: string;
  state: InstanceStateName;
  exited: boolean;
  exit_code: number;
  failed: boolean;
  reason: string;
  /** Job port number (as a string) -> "host:port" where it is reachable. */
  ports: Record<string, string>;
  /** Resources reserved on the agent while the instance is not REMOVED. */
  resources: Resource;
  created_ms: number;
  updated_ms: number;
  /** When the instance first reached RUNNING. */
  running_since_ms?: number;
  /** Why the controller asked the agent to stop it: a stop ends it for good unless `user`. */
  stop?: 'user' | 'scale' | 'replace' | 'job' | 'errored' | 'reconcile';
  /** The agent went away with the instance on it. */
  lost?: boolean;
  /**
   * A one-off run of the job (a stager run staging a package), outside num_instances and the
   * restart policy: it ends when its process ends.
   */
  run?: { id: string; package: string };
  /**
   * The instance's address on its job's virtual network (networks/), given when it was placed;
   * free again once the record is REMOVED.
   */
  network?: { uuid: string; address: string };
}

export const RUNNING_STATES: ReadonlySet<InstanceStateName> = new Set(['FIRST_RUNNING', 'RUNNING']);

/** Instance of the REST API (cluster-api.md, Instances), plus `ports`. */
export function renderInstance(i: InstanceRecord, announced = false): Record<string, unknown> {
  return {
    uuid: i.uuid,
    created_time: Math.floor(i.created_ms / 1000),
    failed: i.failed,
    exited: i.exited,
    exit_code: i.exit_code,
    host: i.host,
    instance_manager_uuid: i.agent_uuid,
    job_version_id: i.job_version_id,
    state: i.state,
    announced_routes: announced,
    ports: i.ports,
    ...(i.reason ? { reason: i.reason } : {}),
    // Since when its processes run (UNIX seconds): what an instance's uptime is counted from.
    ...(i.running_since_ms !== undefined && RUNNING_STATES.has(i.state) ? { running_since: Math.floor(i.running_since_ms / 1000) } : {}),
  };
}
