/**
 * `gateway`, `provider`, `service` and `binding`: service gateways, the providers and services
 * they make, and jobs bound to services or linked to other jobs (docs/api.md "Services,
 * gateways and bindings").
 */
import { InvalidArgumentError } from 'commander';
import type { PlatformClient } from '../client/client.js';
import type { Binding, Provider, Service } from '../client/types.js';
import { CommandError, UsageError } from '../config.js';
import { isUuid, localName } from '../names.js';
import type { Session } from '../session.js';
import { collect, envPairs, type CommandModule } from './registry.js';

const port = (raw: string): number => {
  if (!/^\d{1,5}$/.test(raw) || Number(raw) > 65535) throw new InvalidArgumentError(`"${raw}" is not a port (0 to 65535)`);
  return Number(raw);
};

/** The provider or service a user names (a name, an FQN or a uuid), from the list the caller may read. */
async function byName<T extends { uuid: string; fqn: string }>(s: Session, name: string, type: 'provider' | 'service', list: () => Promise<T[]>): Promise<T> {
  const all = await list();
  const fqn = isUuid(name) ? undefined : await s.fqn(name, type);
  const found = all.find((x) => (fqn ? x.fqn === fqn : x.uuid === name.toLowerCase()));
  if (!found) throw new CommandError(`no ${type} ${fqn ?? name}`, fqn ? { fqn } : { uuid: name });
  return found;
}

const provider = (s: Session, c: PlatformClient, name: string): Promise<Provider> => byName(s, name, 'provider', c.listProviders);
const service = (s: Session, c: PlatformClient, name: string): Promise<Service> => byName(s, name, 'service', c.listServices);

function bindingRows(job: { bindings?: Record<string, Binding> }): Binding[] {
  return Object.values(job.bindings ?? {});
}

export const serviceCommands: CommandModule = {
  names: ['gateway', 'provider', 'service', 'binding'],
  register(program, action) {
    // ---- gateways -----------------------------------------------------------------------------
    const gateway = program.command('gateway').description('service gateways: promote a job to serve a service type, list, demote');
    gateway
      .command('list')
      .description('the gateways: service type, tier, job, required parameters')
      .action(
        action(async (s) => {
          const list = await (await s.client()).listGateways();
          s.out.table(list, [
            { header: 'type', value: (g) => g.type },
            { header: 'tier', value: (g) => g.tier },
            { header: 'job', value: (g) => g.job_fqn },
            { header: 'parameters', value: (g) => Object.entries(g.parameters ?? {}).map(([c, p]) => `${c}: ${Object.keys(p).join(',')}`).join('; ') },
          ]);
        }),
      );
    gateway
      .command('promote')
      .description('make a job (with a RUNNING instance) the gateway of a service type; its public routes are removed')
      .argument('<job>', 'a name, an FQN or a uuid')
      .requiredOption('--type <type>', 'the service type it serves (postgres, redis...)')
      .action(
        action(async (s, name: string, o: { type: string }) => {
          const client = await s.client();
          const job = await s.job(client, name);
          const g = await client.promoteGateway(job.fqn, o.type);
          s.out.result(g, () => s.out.line(`${g.job_fqn} is the ${g.type} gateway (tier ${g.tier})`));
        }),
      );
    gateway
      .command('demote')
      .description('stop a job being the gateway of its type (refused while services of the type exist, unless --force)')
      .argument('<type>')
      .option('--force', 'even while services of the type exist')
      .action(
        action(async (s, type: string, o: { force?: boolean }) => {
          await (await s.client()).demoteGateway(type, o.force === true);
          s.out.result({ demoted: type }, () => s.out.line(`the ${type} gateway is demoted`));
        }),
      );

    // ---- providers ----------------------------------------------------------------------------
    const prov = program.command('provider').description('providers (database servers a three-tier gateway makes services on): list, show, create, delete');
    prov
      .command('list')
      .description('the providers the user may read')
      .action(
        action(async (s) => {
          const list = await (await s.client()).listProviders();
          s.out.table(list, [
            { header: 'fqn', value: (p) => p.fqn },
            { header: 'type', value: (p) => p.type },
            { header: 'url', value: (p) => p.parameters['url'] },
            { header: 'uuid', value: (p) => p.uuid },
          ]);
        }),
      );
    prov
      .command('show')
      .description('show a provider')
      .argument('<name>', 'a name, an FQN or a uuid')
      .action(
        action(async (s, name: string) => {
          const p = await provider(s, await s.client(), name);
          s.out.record(p as unknown as Record<string, unknown>, {
            fqn: p.fqn,
            uuid: p.uuid,
            type: p.type,
            description: p.description,
            parameters: p.parameters,
            backing: p.backing_job_fqn ? `${p.backing_job_fqn} port ${p.backing_job_port}` : '',
            created: `${p.created_at} by ${p.created_by}`,
          });
        }),
      );
    prov
      .command('create')
      .description('register a provider with the gateway of its type')
      .argument('<name>', 'a name or an FQN')
      .requiredOption('--type <type>', 'its service type')
      .requiredOption('--url <url>', 'the administrative connection url (postgres://admin:secret@host:5432/postgres)')
      .option('-p, --param <KEY=VALUE>', 'another parameter for the gateway (repeat)', collect, [])
      .option('--description <text>', 'what it is')
      .option('--backing-job <job>', 'the job that runs the server')
      .option('--backing-port <port>', 'the port of the backing job')
      .action(
        action(async (s, name: string, o: { type: string; url: string; param: string[]; description?: string; backingJob?: string; backingPort?: string }) => {
          const client = await s.client();
          const fqn = await s.fqn(name, 'provider');
          const p = await client.createProvider({
            fqn,
            type: o.type,
            parameters: { ...envPairs(o.param), url: o.url },
            ...(o.description ? { description: o.description } : {}),
            ...(o.backingJob ? { backing_job_fqn: (await s.job(client, o.backingJob)).fqn } : {}),
            ...(o.backingPort ? { backing_job_port: o.backingPort } : {}),
          });
          s.out.result(p, () => s.out.line(`provider ${p.fqn} created (${p.type}, ${p.uuid})`));
        }),
      );
    prov
      .command('delete')
      .description('delete a provider (refused while services use it, unless --force: they stay, orphaned)')
      .argument('<name>')
      .option('--force', 'even while services use it')
      .action(
        action(async (s, name: string, o: { force?: boolean }) => {
          const client = await s.client();
          const p = await provider(s, client, name);
          await client.deleteProvider(p.uuid, o.force === true);
          s.out.result({ deleted: p.fqn, uuid: p.uuid }, () => s.out.line(`provider ${p.fqn} deleted`));
        }),
      );

    // ---- services -----------------------------------------------------------------------------
    const svc = program.command('service').description('services (a database, a cache) that jobs are bound to: list, show, create, delete');
    svc
      .command('list')
      .description('the services the user may read')
      .action(
        action(async (s) => {
          const list = await (await s.client()).listServices();
          s.out.table(list, [
            { header: 'fqn', value: (x) => x.fqn },
            { header: 'type', value: (x) => x.type },
            { header: 'provider', value: (x) => x.provider_fqn },
            { header: 'name', value: (x) => x.name },
            { header: 'uuid', value: (x) => x.uuid },
          ]);
        }),
      );
    svc
      .command('show')
      .description('show a service')
      .argument('<name>', 'a name, an FQN or a uuid')
      .action(
        action(async (s, name: string) => {
          const x = await service(s, await s.client(), name);
          s.out.record(x as unknown as Record<string, unknown>, {
            fqn: x.fqn,
            uuid: x.uuid,
            type: x.type,
            name: x.name,
            provider: x.provider_fqn,
            description: x.description,
            parameters: x.parameters,
            created: `${x.created_at} by ${x.created_by}`,
          });
        }),
      );
    svc
      .command('create')
      .description('create a service: on a provider (--provider), or of a two-tier gateway\'s type (--type)')
      .argument('<name>', 'a name or an FQN')
      .option('--provider <provider>', 'the provider to make it on (its type is the service\'s)')
      .option('--type <type>', 'the service type, without a provider')
      .option('-p, --param <KEY=VALUE>', 'a parameter for the gateway (repeat), such as database=orders', collect, [])
      .option('--gateway-name <name>', 'the name passed to the gateway (the PostgreSQL gateway names the database after it)')
      .option('--description <text>', 'what it is')
      .action(
        action(async (s, name: string, o: { provider?: string; type?: string; param: string[]; gatewayName?: string; description?: string }) => {
          if (!o.provider && !o.type) throw new UsageError('a service needs --provider or --type');
          const client = await s.client();
          const x = await client.createService({
            fqn: await s.fqn(name, 'service'),
            ...(o.provider ? { provider_fqn: (await provider(s, client, o.provider)).fqn } : {}),
            ...(o.type ? { type: o.type } : {}),
            ...(o.gatewayName ? { name: o.gatewayName } : {}),
            ...(o.description ? { description: o.description } : {}),
            ...(o.param.length ? { parameters: envPairs(o.param) } : {}),
          });
          s.out.result(x, () => s.out.line(`service ${x.fqn} created (${x.type}, ${x.uuid})`));
        }),
      );
    svc
      .command('delete')
      .description('delete a service (refused while jobs are bound to it, unless --force: their bindings are taken off)')
      .argument('<name>')
      .option('--force', 'even while jobs are bound to it, or its provider is gone')
      .action(
        action(async (s, name: string, o: { force?: boolean }) => {
          const client = await s.client();
          const x = await service(s, client, name);
          await client.deleteService(x.uuid, o.force === true);
          s.out.result({ deleted: x.fqn, uuid: x.uuid }, () => s.out.line(`service ${x.fqn} deleted`));
        }),
      );

    // ---- bindings and links -------------------------------------------------------------------
    const binding = program.command('binding').description('a job\'s bindings to services and links to other jobs: list, bind, unbind, link, unlink');
    binding
      .command('list')
      .description('a job\'s bindings and links, with the variables they give its instances')
      .argument('<job>')
      .action(
        action(async (s, name: string) => {
          const job = await s.job(await s.client(), name);
          s.out.table(bindingRows(job), [
            { header: 'name', value: (b) => b.name },
            { header: 'to', value: (b) => b.service_fqn ?? (b.target_job_uuid ? `job ${b.target_job_uuid} port ${String(b.target_job_port ?? 0)}` : '') },
            { header: 'variables', value: (b) => (b.env_var ?? []).join(' ') },
            { header: 'fqn', value: (b) => b.fqn },
          ]);
        }),
      );
    binding
      .command('bind')
      .description('bind a job to a service: its instances get <NAME>_URI (they are replaced following its rollout)')
      .argument('<job>')
      .argument('<service>')
      .option('--name <name>', 'the base of the variable <NAME>_URI (default: the service\'s local name)')
      .option('-p, --param <KEY=VALUE>', 'a binding parameter for the gateway (repeat)', collect, [])
      .action(
        action(async (s, jobName: string, serviceName: string, o: { name?: string; param: string[] }) => {
          const client = await s.client();
          const job = await s.job(client, jobName);
          const x = await service(s, client, serviceName);
          const b = await client.bind({
            job_fqn: job.fqn,
            service_fqn: x.fqn,
            ...(o.name ? { name: o.name } : {}),
            ...(o.param.length ? { parameters: envPairs(o.param) } : {}),
          });
          s.out.result(b, () => s.out.line(`${localName(job.fqn)} is bound to ${x.fqn}: ${(b.env_var ?? []).join(', ')}`));
        }),
      );
    binding
      .command('unbind')
      .description('remove a job\'s binding to a service (the gateway deletes its credentials)')
      .argument('<job>')
      .argument('<service>')
      .option('--force', 'carry on when the gateway fails or is gone')
      .action(
        action(async (s, jobName: string, serviceName: string, o: { force?: boolean }) => {
          const client = await s.client();
          const job = await s.job(client, jobName);
          // The service may be gone already (a forced delete): its FQN is enough for the API.
          const serviceFqn = isUuid(serviceName) ? (await client.getService(serviceName.toLowerCase())).fqn : await s.fqn(serviceName, 'service');
          await client.unbind({ job: job.fqn, service: serviceFqn, ...(o.force ? { force: true } : {}) });
          s.out.result({ unbound: job.fqn, service: serviceFqn }, () => s.out.line(`${localName(job.fqn)} is no longer bound to ${serviceFqn}`));
        }),
      );
    binding
      .command('link')
      .description('link a job to another job: its instances get <NAME>_URI = tcp://ip:port reaching the target\'s instances')
      .argument('<job>')
      .argument('<target>', 'the job to reach')
      .option('--port <port>', 'the target\'s port (default 0, its $PORT)', port)
      .option('--name <name>', 'the base of the variable (default: the target\'s local name)')
      .option('--bound-ip <ip>', 'where the agent listens for the link (with --bound-port)')
      .option('--bound-port <port>', 'the port it listens on (with --bound-ip)', port)
      .action(
        action(async (s, jobName: string, targetName: string, o: { port?: number; name?: string; boundIp?: string; boundPort?: number }) => {
          if ((o.boundIp === undefined) !== (o.boundPort === undefined)) throw new UsageError('--bound-ip and --bound-port go together');
          const client = await s.client();
          const job = await s.job(client, jobName);
          const target = await s.job(client, targetName);
          const b = await client.bind({
            job_fqn: job.fqn,
            target_job_fqn: target.fqn,
            ...(o.port === undefined ? {} : { target_job_port: String(o.port) }),
            ...(o.name ? { name: o.name } : {}),
            ...(o.boundIp ? { target_job_bound_ip: o.boundIp, target_job_bound_port: String(o.boundPort) } : {}),
          });
          s.out.result(b, () => s.out.line(`${localName(job.fqn)} is linked to ${target.fqn}: ${(b.env_var ?? []).join(', ')}`));
        }),
      );
    binding
      .command('unlink')
      .description('remove a job\'s links to another job (on one port with --port)')
      .argument('<job>')
      .argument('<target>')
      .option('--port <port>', 'only the link to this port', port)
      .action(
        action(async (s, jobName: string, targetName: string, o: { port?: number }) => {
          const client = await s.client();
          const job = await s.job(client, jobName);
          const target = await s.job(client, targetName);
          await client.unlink({ from_job: job.fqn, to_job: target.fqn, ...(o.port === undefined ? {} : { port: o.port }) });
          s.out.result({ unlinked: job.fqn, target: target.fqn }, () => s.out.line(`${localName(job.fqn)} is no longer linked to ${target.fqn}`));
        }),
      );
  },
};
