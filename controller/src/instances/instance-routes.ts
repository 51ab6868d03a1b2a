/**
 * REST endpoints of instances and instance managers (cluster-api.md: the instance, files,
 * logs and instance manager rows of the endpoint table).
 */
import { changeContext, queryValue, sendEmpty, sendJson, v1, type ApiContext, type Endpoint } from '../api/endpoint.js';
import { InvalidRequestError, NotFoundError, UnavailableError } from '../errors.js';
import type { Job } from '../model/job.js';
import type { JobService } from '../jobs/job-service.js';
import { serveLogs } from '../logs/log-routes.js';
import type { LogStore } from '../logs/log-store.js';
import { requireUuid } from '../model/validate.js';
import type { Clock } from '../util/clock.js';
import type { AgentDirectory, AgentView } from '../agents/agent-directory.js';
import { authorize, authorizeFound } from '../policy/access.js';
import { RUNNING_STATES, renderInstance, type InstanceRecord } from '../model/instance.js';
import type { AgentReports } from './agent-reports.js';

const NS_PER_MS = 1_000_000;

/** Longest path of a file listing, and longest name in it (Linux's PATH_MAX and NAME_MAX). */
const MAX_PATH_BYTES = 4096;
const MAX_NAME_BYTES = 255;

/**
 * The path of GET /jobs/{uuid}/files/{path}, checked here at the edge: a path no
 * instance root can hold (a control character such as NUL, a `..` segment, a name
 * or path longer than the file system allows) answers 400 before an agent is asked.
 */
export function instanceFilePath(path: string): string {
  if (Buffer.byteLength(path) > MAX_PATH_BYTES) throw new InvalidRequestError(`path: at most ${MAX_PATH_BYTES} bytes`);
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(path)) throw new InvalidRequestError('path: control characters (NUL included) are not allowed');
  for (const segment of path.split('/')) {
    if (segment === '..') throw new InvalidRequestError('path: ".." is not allowed');
    if (Buffer.byteLength(segment) > MAX_NAME_BYTES) throw new InvalidRequestError(`path: a name is at most ${MAX_NAME_BYTES} bytes`);
  }
  return path;
}

export function instanceEndpoints(
  jobs: JobService,
  instances: AgentReports,
  agents: AgentDirectory,
  logs: LogStore,
  clock: Clock,
  /** True once the instance is in the route table (`announced_routes`). */
  announced: (instance: string) => boolean = () => false,
): Endpoint[] {
  /** The job of the path, once the caller holds `permission` on it (404 when it may not even read it). */
  const jobOf = async (ctx: ApiContext, permission: 'read' | 'stop'): Promise<Job> => {
    const uuid = requireUuid(ctx.params['uuid'] ?? '', 'job uuid');
    const job = await jobs.find(uuid);
    if (!job) throw new NotFoundError(`job ${uuid} not found`);
    await authorizeFound(ctx, job.fqn, permission, `job ${uuid} not found`);
    return job;
  };
  /** Instance managers are the cluster's: reading them needs `permit read` on cluster::/. */
  const cluster = (ctx: ApiContext) => authorize(ctx, 'cluster::/', 'read');
  const liveOn = (agent: string) => instances.table.ofAgent(agent).filter((i) => i.state !== 'REMOVED');
  /** The instance manager of the path, once the caller may read the cluster's managers. */
  const managerOf = async (ctx: ApiContext): Promise<AgentView> => {
    await cluster(ctx);
    const uuid = requireUuid(ctx.params['uuid'] ?? '', 'instance manager uuid');
    const agent = agents.get(uuid);
    if (!agent) throw new NotFoundError(`instance manager ${uuid} not found`);
    return agent;
  };
  const managerStatus = ({ record, status }: AgentView) => ({
    uuid: record.uuid,
    hostname: record.hostname,
    datacenter: record.datacenter,
    num_instances: liveOn(record.uuid).length,
    start_time: new Date(record.started_at_ms).toISOString(),
    uptime: Math.max(0, clock.nowMs() - record.started_at_ms) * NS_PER_MS,
    tags: record.tags,
    system_tags: record.system_tags,
    ResourcesTotal: record.total,
    ResourcesProvisioned: instances.table.provisioned(record.uuid),
    status,
    address: record.address,
    isolation: record.isolation,
    cgroups: record.cgroups,
    version: record.version,
  });
  const files = async (ctx: ApiContext) => {
    const job = await jobOf(ctx, 'read');
    // A wildcard parameter arrives as its segments or as one string, depending on the router.
    const raw = (ctx.params as Record<string, string | string[] | undefined>)['path'];
    const path = instanceFilePath(Array.isArray(raw) ? raw.join('/') : (raw ?? ''));
    const wanted = queryValue(ctx, 'instance');
    const all = instances.table.ofJob(job.uuid).filter((i) => i.state !== 'REMOVED');
    let instance: InstanceRecord | undefined;
    if (wanted) {
      instance = all.find((i) => i.uuid === requireUuid(wanted, 'query instance:'));
      if (!instance) throw new NotFoundError(`job ${job.uuid} has no instance ${wanted}`);
    } else {
      instance = all.find((i) => RUNNING_STATES.has(i.state));
      if (!instance) throw new NotFoundError(`job ${job.uuid} has no running instance`);
    }
    const reply = await agents.listFiles(instance.agent_uuid, instance.uuid, path);
    if (reply.error) {
      if (reply.errorKind === 'not_found') throw new NotFoundError(`${path || '/'}: ${reply.error}`);
      if (reply.errorKind === 'invalid') throw new InvalidRequestError(`path ${path}: ${reply.error}`);
      // The agent's words are codes (agent/src/files/list.ts), never its host paths.
      throw new UnavailableError(`listing ${path || '/'} failed on the instance manager (${reply.error}); try again`, 1000);
    }
    const entries = (reply.entries ?? []).map((e) => ({ name: e.name ?? '', size: (e.size ?? -1) < 0 ? '-' : e.size }));
    sendJson(ctx, v1('filelisting'), entries);
  };

  return [
    {
      method: 'GET',
      path: '/instance_managers',
      doc: { summary: 'The agents (instance managers) and their state' },
      media: v1('imstatus'),
      handler: async (ctx) => {
        await cluster(ctx);
        const list = agents.list().map(managerStatus);
        list.sort((a, b) => (a.hostname < b.hostname ? -1 : a.hostname > b.hostname ? 1 : a.uuid < b.uuid ? -1 : 1));
        sendJson(ctx, v1('imstatus'), list);
      },
    },
    {
      method: 'GET',
      path: '/instance_managers/:uuid',
      media: v1('imstatus'),
      handler: async (ctx) => {
        sendJson(ctx, v1('imstatus'), managerStatus(await managerOf(ctx)));
      },
    },
    {
      method: 'GET',
      path: '/instance_managers/:uuid/instances',
      media: v1('instancestatus'),
      handler: async (ctx) => {
        const live = liveOn((await managerOf(ctx)).record.uuid);
        const found = await Promise.all([...new Set(live.map((i) => i.job_uuid))].map((j) => jobs.find(j)));
        const fqnOf = new Map(found.filter((j) => j !== undefined).map((j) => [j.uuid, j.fqn]));
        const now = clock.nowMs();
        sendJson(
          ctx,
          v1('instancestatus'),
          live.map((i) => ({
            uuid: i.uuid,
            job_uuid: i.job_uuid,
            job_fqn: fqnOf.get(i.job_uuid) ?? '',
            resources: i.resources,
            start_time: new Date(i.created_ms).toISOString(),
            state: i.state,
            uptime: Math.max(0, now - i.created_ms) * NS_PER_MS,
          })),
        );
      },
    },
    {
      method: 'GET',
      path: '/jobs/:uuid/instances',
      doc: { summary: 'The instances of a job' },
      media: v1('instance'),
      handler: async (ctx) => {
        const job = await jobOf(ctx, 'read');
        const list = instances.table.ofJob(job.uuid).sort((a, b) => a.created_ms - b.created_ms || (a.uuid < b.uuid ? -1 : 1));
        sendJson(ctx, v1('instance'), list.map((i) => renderInstance(i, announced(i.uuid))));
      },
    },
    {
      method: 'DELETE',
      path: '/jobs/:uuid/instances/:instance',
      doc: { summary: 'Stops one instance (the job starts another)' },
      handler: async (ctx) => {
        const job = await jobOf(ctx, 'stop');
        const instance = requireUuid(ctx.params['instance'] ?? '', 'instance uuid');
        await jobs.stopInstance(job.uuid, instance, changeContext(ctx));
        sendEmpty(ctx);
      },
    },
    { method: 'GET', path: '/jobs/:uuid/files', handler: files, doc: { summary: 'The files at the root of a running instance', query: { instance: 'an instance uuid' } } },
    { method: 'GET', path: '/jobs/:uuid/files/*path', handler: files, doc: { summary: 'The files of a directory in a running instance', query: { instance: 'an instance uuid' } } },
    {
      method: 'GET',
      path: '/jobs/:uuid/logs',
      doc: { summary: 'A job\'s log', responseMedia: ['text/plain; charset=utf-8', 'application/octet-stream', 'text/event-stream'], query: { lines: 'how many of the last lines (default 100)', tail: 'presence flag: a live stream of Server-Sent Events', instance: 'one instance: uuid or short id', lastEventId: 'resume after this event id' } },
      handler: async (ctx) => {
        const job = await jobOf(ctx, 'read');
        await serveLogs(ctx, logs, job.uuid);
      },
    },
  ];
}
