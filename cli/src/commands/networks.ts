/** `network`: virtual networks, the jobs on them and their instances' addresses (docs/api.md "Virtual networks"). */
import type { PlatformClient } from '../client/client.js';
import type { Network } from '../client/types.js';
import { CommandError } from '../config.js';
import { isUuid } from '../names.js';
import type { Session } from '../session.js';
import { collect, type CommandModule } from './registry.js';

/** The network a user names (a name, an FQN or a uuid), among those the caller may read. */
async function network(s: Session, client: PlatformClient, name: string): Promise<Network> {
  if (isUuid(name)) return client.getNetwork(name.toLowerCase());
  const fqn = await s.fqn(name, 'network');
  const found = (await client.listNetworks(false)).find((n) => n.fqn === fqn);
  if (!found) throw new CommandError(`no network ${fqn}`, { fqn });
  return client.getNetwork(found.uuid);
}

function members(s: Session, n: Network): void {
  s.out.table(n.network_end_points, [
    { header: 'job', value: (e) => e.fqn },
    { header: 'name', value: (e) => (e.discovery_address ? `${e.discovery_address}.platform.local` : '') },
    { header: 'broadcast', value: (e) => (e.broadcast_enable ? 'yes' : 'no') },
    { header: 'multicast', value: (e) => e.multicast_addresses.join(',') },
    { header: 'addresses', value: (e) => (e.end_point_interface ?? []).map((i) => i.ipv4_addr).join(',') },
  ]);
}

export const networkCommands: CommandModule = {
  names: ['network'],
  register(program, action) {
    const net = program.command('network').description('virtual networks: list, show, create, delete; join and leave jobs');
    net
      .command('list')
      .description('the networks: FQN, subnet, member jobs')
      .action(
        action(async (s) => {
          const list = await (await s.client()).listNetworks(false);
          s.out.table(list, [
            { header: 'fqn', value: (n) => n.fqn },
            { header: 'subnet', value: (n) => n.subnet_info.Subnet },
            { header: 'jobs', value: (n) => n.network_end_points.length },
            { header: 'uuid', value: (n) => n.uuid },
          ]);
        }),
      );
    net
      .command('show')
      .description('a network: its subnet and gateway, and each member job with its name and its instances\' addresses')
      .argument('<network>', 'a name, an FQN or a uuid')
      .action(
        action(async (s, name: string) => {
          const n = await network(s, await s.client(), name);
          s.out.result(n, () => {
            s.out.line(`${n.fqn}  ${n.subnet_info.Subnet} (gateway ${n.gateway})  ${n.uuid}`);
            members(s, n);
          });
        }),
      );
    net
      .command('create')
      .description('make a network; its subnet comes from the cluster\'s pool unless --subnet gives one')
      .argument('<network>', 'a name (in the current namespace) or an FQN')
      .option('--subnet <cidr>', 'the IPv4 block, e.g. 10.99.0.0/24')
      .option('--description <text>')
      .action(
        action(async (s, name: string, o: { subnet?: string; description?: string }) => {
          const fqn = await s.fqn(name, 'network');
          const n = await (await s.client()).createNetwork({ fqn, ...(o.subnet ? { subnet: o.subnet } : {}), ...(o.description ? { description: o.description } : {}) });
          s.out.result(n, () => s.out.line(`${n.fqn} made: ${n.subnet_info.Subnet} (${n.uuid})`));
        }),
      );
    net
      .command('delete')
      .description('delete a network (refused while jobs are on it, unless --force)')
      .argument('<network>')
      .option('--force', 'take the member jobs off it first')
      .action(
        action(async (s, name: string, o: { force?: boolean }) => {
          const client = await s.client();
          const n = await network(s, client, name);
          await client.deleteNetwork(n.uuid, o.force === true);
          s.out.result({ deleted: n.fqn }, () => s.out.line(`${n.fqn} deleted`));
        }),
      );
    net
      .command('join')
      .description('put a job on a network (its instances are replaced onto it), or change its options there')
      .argument('<network>')
      .argument('<job>')
      .option('--discovery-address <name>', 'the job\'s instances are <name>.platform.local to the other members')
      .option('--no-broadcast', 'keep broadcast frames from the job\'s instances')
      .option('--multicast <cidr>', 'a multicast block routed through the network (repeat for several)', collect, [] as string[])
      .action(
        action(async (s, netName: string, jobName: string, o: { discoveryAddress?: string; broadcast: boolean; multicast: string[] }) => {
          const client = await s.client();
          const [n, job] = await Promise.all([network(s, client, netName), s.job(client, jobName)]);
          const updated = await client.joinNetwork(n.uuid, {
            job_fqn: job.fqn,
            broadcast_enable: o.broadcast,
            ...(o.discoveryAddress ? { discovery_address: o.discoveryAddress } : {}),
            ...(o.multicast.length > 0 ? { multicast_addresses: o.multicast } : {}),
          });
          s.out.result(updated, () => s.out.line(`${job.fqn} is on ${n.fqn}${o.discoveryAddress ? ` as ${o.discoveryAddress.toLowerCase()}.platform.local` : ''}`));
        }),
      );
    net
      .command('leave')
      .description('take a job off a network (its instances are replaced off it)')
      .argument('<network>')
      .argument('<job>')
      .action(
        action(async (s, netName: string, jobName: string) => {
          const client = await s.client();
          const [n, job] = await Promise.all([network(s, client, netName), s.job(client, jobName)]);
          const updated = await client.leaveNetwork(n.uuid, job.fqn);
          s.out.result(updated, () => s.out.line(`${job.fqn} left ${n.fqn}`));
        }),
      );
  },
};
