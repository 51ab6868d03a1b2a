/** `route`, `instance-manager`, `audit`, `info`: the cluster around the jobs. */
import { CommandError, UsageError } from '../config.js';
import type { Job, Route } from '../client/types.js';
import type { PlatformClient } from '../client/client.js';
import { intOption, type CommandModule } from './registry.js';

function routesOf(job: Job): Route[] {
  return (job.ports ?? []).flatMap((p) => p.routes ?? []);
}

/** Replaces the routes of the job's first routed port (or its first port). */
async function setRoutes(client: PlatformClient, job: Job, change: (routes: Route[]) => Route[]): Promise<Job> {
  const ports = job.ports ?? [];
  if (ports.length === 0) throw new CommandError(`job ${job.fqn} has no port to route to`);
  const index = Math.max(0, ports.findIndex((p) => (p.routes ?? []).length > 0));
  const next = ports.map((p, i) => (i === index ? { ...p, routes: change(p.routes ?? []) } : p));
  return client.patchJob(job.uuid, { ports: next }, job.version_id);
}

export const clusterCommands: CommandModule = {
  names: ['route', 'instance-manager', 'audit', 'info'],
  register(program, action) {
    const route = program.command('route').description('HTTP routes of jobs: list, add, remove');
    route
      .command('list')
      .description('every routed endpoint and the jobs routed at it')
      .action(
        action(async (s) => {
          const table = await (await s.client()).routes();
          s.out.table(Object.entries(table), [
            { header: 'endpoint', value: ([e]) => e },
            { header: 'jobs', value: ([, jobs]) => jobs.join(' ') },
          ], table);
        }),
      );
    route
      .command('add')
      .description('route an HTTP host name (host[/path]) to a job')
      .argument('<job>')
      .argument('<endpoint>', 'such as www.example.com or hello.localhost')
      .option('--weight <percent>', 'its share of the endpoint\'s requests beside other jobs', intOption('weight'))
      .action(
        action(async (s, name: string, endpoint: string, o: { weight?: number }) => {
          const client = await s.client();
          const job = await s.job(client, name);
          if (routesOf(job).some((r) => r.endpoint === endpoint)) throw new CommandError(`job ${job.fqn} is routed at ${endpoint} already`);
          const updated = await setRoutes(client, job, (routes) => [...routes, { type: 'http', endpoint, ...(o.weight === undefined ? {} : { weight: o.weight }) }]);
          s.out.result(updated, () => s.out.line(`${endpoint} -> ${updated.fqn}`));
        }),
      );
    route
      .command('remove')
      .description('remove a job\'s route')
      .argument('<job>')
      .argument('<endpoint>')
      .action(
        action(async (s, name: string, endpoint: string) => {
          const client = await s.client();
          const job = await s.job(client, name);
          if (!routesOf(job).some((r) => r.endpoint === endpoint)) throw new CommandError(`job ${job.fqn} has no route ${endpoint}`);
          const updated = await setRoutes(client, job, (routes) => routes.filter((r) => r.endpoint !== endpoint));
          s.out.result(updated, () => s.out.line(`${endpoint} no longer routes to ${updated.fqn}`));
        }),
      );

    program
      .command('instance-manager')
      .description('the agents (instance managers) of the cluster')
      .command('list')
      .description('list the instance managers')
      .action(
        action(async (s) => {
          const list = await (await s.client()).instanceManagers();
          s.out.table(list, [
            { header: 'hostname', value: (m) => m.hostname },
            { header: 'status', value: (m) => m.status },
            { header: 'instances', value: (m) => m.num_instances },
            { header: 'datacenter', value: (m) => m['datacenter'] },
            { header: 'isolation', value: (m) => m['isolation'] },
            { header: 'uuid', value: (m) => m.uuid },
          ]);
        }),
      );

    program
      .command('audit')
      .description('the audit log: who changed what')
      .option('--event <type>', 'one event type (platform audit --events lists them)')
      .option('--fqn <fqn>', 'changes of one resource')
      .option('--since <time>', 'from this time (ISO time or UNIX seconds)')
      .option('--limit <n>', 'how many entries', intOption('limit', 1), 50)
      .option('--reverse', 'newest first')
      .option('--events', 'list the event types instead')
      .action(
        action(async (s, o: { event?: string; fqn?: string; since?: string; limit: number; reverse?: boolean; events?: boolean }) => {
          const client = await s.client();
          if (o.events) {
            const events = await client.auditEvents();
            return s.out.result(events, () => events.forEach((e) => s.out.line(e)));
          }
          let since: number | undefined;
          if (o.since !== undefined) {
            since = /^\d+$/.test(o.since) ? Number(o.since) : Math.floor(Date.parse(o.since) / 1000);
            if (!Number.isFinite(since)) throw new UsageError(`--since ${o.since}: not a time`);
          }
          const entries = await client.audit({ event_type: o.event, fqn: o.fqn, start_time: since, limit: o.limit, reverse: o.reverse });
          s.out.table(entries, [
            { header: 'time', value: (e) => new Date(e.timestamp * 1000).toISOString() },
            { header: 'event', value: (e) => e.event_type },
            { header: 'principal', value: (e) => e.principal_name },
            { header: 'fqn', value: (e) => e.fqn },
          ]);
        }),
      );

    program
      .command('info')
      .description('the cluster: its name, domain, version and the CLI downloads')
      .action(
        action(async (s) => {
          const client = await s.anonymousClient();
          const authed = await s.client().catch(() => client);
          const [info, version] = await Promise.all([authed.info(), authed.version()]);
          s.out.record({ ...info, version }, { name: info.name, url: info.url, domain: info.cluster_domain, version: version.version, downloads: Object.keys(version.download_urls).join(' ') });
        }),
      );
  },
};
