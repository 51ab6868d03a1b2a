/**
 * POST /packages/container (CreateContainerPackageRequest, version 2) and POST /jobs/container
 * (CreateContainerJobRequest): both answer `{"location": "<base>/v1/tasks/<uuid>"}` at once
 * and pull in the task (container-service.ts).
 *
 * Refused before anything starts (400): a malformed body or image_url, a registry whose
 * address the rule of pulls refuses (--allowed-registries: loopback, link-local, the
 * controller's own...; ContainerService.checkRegistry), `volumes` or `volume_provider_fqn`
 * (volumes are not provided yet), `unlock_root_account` (no SSH into instances yet). Refused in
 * the task (errored, nothing made): an image that defines volumes unless `ignore_volumes` is
 * true, a bad or unreachable image, a redirect or token service at a refused address.
 *
 * Policy: `permit create` on the package (or job) FQN, and `permit start` on the job when it
 * is to be started; a job's package is created on the same namespace (its create is checked
 * too). Audit: `pkg.create`, `job.create` as they are made.
 */
import { z } from 'zod';
import { changeContext, type ApiContext, type Endpoint } from '../api/endpoint.js';
import { readJsonObject } from '../api/body.js';
import { DuplicateError, InvalidRequestError } from '../errors.js';
import { parseFqn } from '../model/fqn.js';
import { OUTBOUND_SERVICE_FQN } from '../model/outbound.js';
import type { ChangeContext } from '../context.js';
import type { ReferenceCheck } from '../policy/references.js';
import { bool, int, parseInput, str, stringMap } from '../model/validate.js';
import type { JobService } from '../jobs/job-service.js';
import type { PackageService } from '../packages/package-service.js';
import { authorize, canAccess, references } from '../policy/access.js';
import type { TaskService } from '../tasks/task-service.js';
import { sendTaskRef } from '../tasks/task-routes.js';
import { packageFqnOfJob, type ContainerService } from './container-service.js';
import { ImageError } from './flatten.js';
import { parseImageRef, type ImageRef } from './image-ref.js';
import type { ImagePlan } from './image-config.js';

const packageRequestSchema = z.object({
  image_url: str(2048),
  package_fqn: str(512),
  pull: bool().optional(),
});

const argv = z.array(str(65536)).min(1, { error: 'must name the binary' }).max(1024);

const jobRequestSchema = z.object({
  image_url: str(2048),
  job_fqn: str(512),
  allow_egress: bool().optional(),
  env: stringMap().optional(),
  exposed_ports: z.array(int(0, 65535)).max(256).optional(),
  group: str(256).optional(),
  user: str(256).optional(),
  hard_scheduling_tags: z.record(str(256), bool()).optional(),
  soft_scheduling_tags: z.record(str(256), bool()).optional(),
  ignore_volumes: bool().optional(),
  volumes: z.array(str(1024)).max(256).optional(),
  volume_provider_fqn: str(512).optional(),
  interactive: bool().optional(),
  unlock_root_account: bool().optional(),
  pull: bool().optional(),
  resources: z.record(str(64), z.unknown()).optional(),
  restart: z.record(str(64), z.unknown()).optional(),
  routes: z.record(str(1024), int(0, 65535)).optional(),
  start: bool().optional(),
  start_command: argv.optional(),
  stop_command: argv.optional(),
  state: z.enum(['started', 'stopped', ''], { error: 'expected "started" or "stopped"' }).optional(),
  num_instances: int(0, 10_000).optional(),
});
type JobRequest = z.output<typeof jobRequestSchema>;

const CONTAINER_PACKAGE_MEDIA = { type: 'createcontainerpackageresponse', versions: [2] };

function imageRefOf(text: string): ImageRef {
  return parseImageRef(text, 'image_url');
}

/** `{ "<type>://<endpoint>": port }` as the job's port routes. */
function portRoutes(routes: Record<string, number>): Map<number, { type: 'http' | 'tcp' | 'udp'; endpoint: string }[]> {
  const byPort = new Map<number, { type: 'http' | 'tcp' | 'udp'; endpoint: string }[]>();
  for (const [route, port] of Object.entries(routes)) {
    const m = /^(https?|tcp|udp):\/\/(.+)$/.exec(route);
    if (!m) throw new InvalidRequestError(`routes: "${route}" is not <http|tcp|udp>://<endpoint>`);
    const type = m[1] === 'https' ? 'http' : (m[1] as 'http' | 'tcp' | 'udp');
    // A TCP endpoint keeps its scheme (tcp://auto, tcp://<ip>:<port>), as jobs write it.
    byPort.set(port, [...(byPort.get(port) ?? []), { type, endpoint: type === 'tcp' ? route : m[2]! }]);
  }
  return byPort;
}

/** The job body of a container job: the request, the image's plan, its package. */
export function containerJobBody(req: JobRequest, ref: ImageRef, plan: ImagePlan, packageUuid: string): Record<string, unknown> {
  if (plan.volumes.length > 0 && req.ignore_volumes !== true) {
    throw new ImageError(
      `the image defines volumes (${plan.volumes.join(', ')}); this cluster provides no volumes yet: set ignore_volumes to true to run it without them`,
    );
  }
  const routes = portRoutes(req.routes ?? {});
  const ports = req.exposed_ports ?? plan.exposedPorts;
  for (const port of routes.keys()) if (!ports.includes(port)) throw new InvalidRequestError(`routes: port ${port} is not among the exposed ports (${ports.join(', ') || 'none'})`);
  const start = req.start_command ?? (plan.startCommand.length > 0 ? plan.startCommand : undefined);
  const environment: Record<string, string> = { ...(req.env ?? {}) };
  if (req.interactive) {
    environment['DOCKER_START_COMMAND'] = (start ?? []).join(' ');
  } else if (!start) {
    throw new ImageError('the image has no Entrypoint or Cmd: give start_command, or interactive: true');
  }
  const keepAlive = ['/bin/sh', '-c', 'exec tail -f /dev/null'];
  // The image's `User` is `user`, `user:group`, `uid` or `uid:gid` (names from the image's own
  // /etc/passwd and /etc/group, read by the agent); the request's user/group win.
  const [imageUser = '', imageGroup = ''] = plan.user.split(':', 2);
  const user = req.user ?? imageUser;
  const group = req.group ?? (req.user === undefined ? imageGroup : '');
  const startState = req.start === true || req.state === 'started';
  return {
    fqn: req.job_fqn,
    num_instances: req.num_instances ?? 1,
    packages: [{ uuid: packageUuid }],
    processes: {
      app: {
        // Interactive: no start command of its own (DOCKER_START_COMMAND holds it); the instance idles.
        start_command_raw: req.interactive ? keepAlive : start,
        ...(req.stop_command ? { stop_command_raw: req.stop_command } : {}),
        environment,
        ...(user ? { user } : {}),
        ...(group ? { group } : {}),
      },
    },
    ports: ports.map((number) => ({ number, optional: false, routes: (routes.get(number) ?? []).map((r) => ({ ...r, weight: 100 })) })),
    ...(plan.udpPorts.length > 0 ? { udp_ports: plan.udpPorts.map((number) => ({ number, optional: false })) } : {}),
    ...(req.resources ? { resources: req.resources } : {}),
    ...(req.restart ? { restart: req.restart } : {}),
    ...(req.hard_scheduling_tags ? { hard_scheduling_tags: req.hard_scheduling_tags } : {}),
    ...(req.soft_scheduling_tags ? { soft_scheduling_tags: req.soft_scheduling_tags } : {}),
    docker_origin: { RegistryUrl: ref.publicRegistry ? '' : `${ref.scheme}://${ref.registry}`, ImageName: ref.name, ImageTag: ref.digest ?? ref.tag, Volumes: plan.volumes },
    ...(startState ? { state: 'started' } : {}),
  };
}

/**
 * `allow_egress`: the job is bound to the outbound network service for everything
 * (`ipnet` 0.0.0.0/0, all ports and protocols), by the caller (model/outbound.ts).
 */
export type AllowEgress = (jobFqn: string, change: ChangeContext, refs: ReferenceCheck) => Promise<void>;

export function containerEndpoints(containers: ContainerService, packages: PackageService, jobs: JobService, tasks: TaskService, maxBodyBytes: number, allowEgress?: AllowEgress): Endpoint[] {
  const readable = (ctx: ApiContext) => (fqn: string) => canAccess(ctx, fqn, 'read');
  return [
    {
      method: 'POST',
      path: '/packages/container',
      media: CONTAINER_PACKAGE_MEDIA,
      doc: { body: packageRequestSchema },
      handler: async (ctx) => {
        const body = parseInput(packageRequestSchema, await readJsonObject(ctx.req, maxBodyBytes), 'container package request');
        const ref = imageRefOf(body.image_url);
        const fqn = parseFqn(body.package_fqn, { type: 'package', field: 'package_fqn' });
        if (fqn.localName === undefined) throw new InvalidRequestError(`package_fqn: "${body.package_fqn}" names no package (package::<namespace>::<name>)`);
        await authorize(ctx, body.package_fqn, 'create');
        if (await packages.fqnTaken(body.package_fqn)) throw new DuplicateError(`package ${body.package_fqn} exists already`);
        await containers.checkRegistry(ref, 'image_url');
        const change = changeContext(ctx);
        const task = await tasks.start('container', { fqn: body.package_fqn, principal: change.principal }, async (reporter) => {
          const made = await containers.packageOf(ref, body.package_fqn, reporter, change, { pull: true, readable: () => false, renameIfTaken: false });
          ctx.state.log.info('container package made', { package: made.package.uuid, origin: made.package.docker_origin, task: reporter.uuid });
        });
        sendTaskRef(ctx, task, CONTAINER_PACKAGE_MEDIA);
      },
    },
    {
      method: 'POST',
      path: '/jobs/container',
      media: { type: 'taskref', versions: [1] },
      doc: { body: jobRequestSchema },
      handler: async (ctx) => {
        const req = parseInput(jobRequestSchema, await readJsonObject(ctx.req, maxBodyBytes), 'container job request');
        const ref = imageRefOf(req.image_url);
        const fqn = parseFqn(req.job_fqn, { type: 'job', field: 'job_fqn' });
        if (fqn.localName === undefined) throw new InvalidRequestError(`job_fqn: "${req.job_fqn}" names no job (job::<namespace>::<name>)`);
        if ((req.volumes?.length ?? 0) > 0 || req.volume_provider_fqn) {
          throw new InvalidRequestError('volumes, volume_provider_fqn: this cluster provides no volumes yet; leave them out (and set ignore_volumes to true for an image that defines volumes)');
        }
        if (req.unlock_root_account) throw new InvalidRequestError('unlock_root_account: SSH into instances is not provided yet, so there is no root account to unlock for it');
        if (req.routes) portRoutes(req.routes); // refused now rather than in the task
        const pkgFqn = packageFqnOfJob(req.job_fqn);
        await authorize(ctx, req.job_fqn, 'create');
        if (req.start === true || req.state === 'started') await authorize(ctx, req.job_fqn, 'start');
        await authorize(ctx, pkgFqn, 'create');
        if (req.allow_egress === true) {
          if (!allowEgress) throw new InvalidRequestError('allow_egress: this controller has no outbound network service');
          await authorize(ctx, req.job_fqn, 'bind');
          await authorize(ctx, OUTBOUND_SERVICE_FQN, 'bind');
        }
        if ((await jobs.findByFqn(req.job_fqn)) !== undefined) throw new DuplicateError(`job ${req.job_fqn} exists already`);
        await containers.checkRegistry(ref, 'image_url');
        const change = changeContext(ctx);
        const refs = references(ctx);
        const mayMap = (realm: string) => authorize(ctx, realm, 'map');
        const task = await tasks.start('container', { fqn: req.job_fqn, principal: change.principal }, async (reporter) => {
          const made = await containers.packageOf(ref, pkgFqn, reporter, change, { pull: req.pull !== false, readable: readable(ctx), renameIfTaken: true });
          const jobBody = containerJobBody(req, ref, made.plan, made.package.uuid);
          await reporter.event({ stage: 'Deploy', name: `creating ${req.job_fqn}` });
          const job = await jobs.create(jobBody, change, refs, mayMap);
          await reporter.event({ stage: 'Deploy', name: `created ${job.fqn}`, payload: { job_uuid: job.uuid, job_fqn: job.fqn, package_uuid: made.package.uuid } });
          if (req.allow_egress === true && allowEgress) {
            await allowEgress(job.fqn, change, refs);
            await reporter.event({ stage: 'Deploy', name: `bound ${job.fqn} to ${OUTBOUND_SERVICE_FQN} (allow_egress)` });
          }
        });
        sendTaskRef(ctx, task);
      },
    },
  ];
}
