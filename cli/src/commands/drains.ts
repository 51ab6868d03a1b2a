/** `drain`: a job's log drains, the syslog collectors its log lines are sent to (docs/api.md "Log drains"). */
import { InvalidArgumentError } from 'commander';
import { CommandError } from '../config.js';
import { isUuid } from '../names.js';
import { intOption, type CommandModule } from './registry.js';

export const drainCommands: CommandModule = {
  names: ['drain'],
  register(program, action) {
    const drain = program.command('drain').description('log drains of a job: list, add, remove');
    drain
      .command('list')
      .description('a job\'s drains: url, protocol, priority, max size, uuid')
      .argument('<job>')
      .action(
        action(async (s, name: string) => {
          const client = await s.client();
          const list = await client.listDrains((await s.job(client, name)).uuid);
          s.out.table(list, [
            { header: 'url', value: (d) => d.url },
            { header: 'protocol', value: (d) => d.conf.protocol },
            { header: 'priority', value: (d) => d.conf.priority },
            { header: 'max size', value: (d) => d.max_size },
            { header: 'uuid', value: (d) => d.uuid },
          ]);
        }),
      );
    drain
      .command('add')
      .description('send the job\'s log lines to a syslog collector (a change of the job)')
      .argument('<job>')
      .argument('<url>', 'syslog://<host>:<port>')
      .option('--protocol <protocol>', 'tcp (default) or udp', (raw: string) => {
        if (raw !== 'tcp' && raw !== 'udp') throw new InvalidArgumentError('tcp or udp');
        return raw;
      })
      .option('--priority <n>', 'the syslog PRI of its messages (0-191, default 14)', intOption('--priority'))
      .option('--max-size <bytes>', 'the longest message (64-65536, default 2048)', intOption('--max-size', 64))
      .action(
        action(async (s, name: string, url: string, o: { protocol?: 'tcp' | 'udp'; priority?: number; maxSize?: number }) => {
          const client = await s.client();
          const job = await s.job(client, name);
          const conf = { ...(o.protocol ? { protocol: o.protocol } : {}), ...(o.priority === undefined ? {} : { priority: o.priority }) };
          const d = await client.addDrain(job.uuid, { url, ...(Object.keys(conf).length ? { conf } : {}), ...(o.maxSize === undefined ? {} : { max_size: o.maxSize }) });
          s.out.result(d, () => s.out.line(`${job.fqn} drains to ${d.url} (${d.conf.protocol}, ${d.uuid})`));
        }),
      );
    drain
      .command('remove')
      .description('stop sending to a drain, named by its uuid or url')
      .argument('<job>')
      .argument('<drain>', 'the drain\'s uuid or url')
      .action(
        action(async (s, name: string, which: string) => {
          const client = await s.client();
          const job = await s.job(client, name);
          const found = (await client.listDrains(job.uuid)).find((d) => (isUuid(which) ? d.uuid === which.toLowerCase() : d.url === which));
          if (!found) throw new CommandError(`${job.fqn} has no drain ${which}`, { job: job.fqn });
          const updated = await client.removeDrain(job.uuid, found.uuid);
          s.out.result(updated, () => s.out.line(`${job.fqn} no longer drains to ${found.url} (version ${updated.version_id})`));
        }),
      );
  },
};
