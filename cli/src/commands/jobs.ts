/**
 * Commands on jobs, registered twice: under `app` (jobs tagged `app`, the ones `app deploy`
 * makes; `app delete` also removes the app's own packages) and under `job` (any job).
 */
import type { Command } from 'commander';
import type { PlatformClient } from '../client/client.js';
import type { Job } from '../client/types.js';
import { CommandError, UsageError } from '../config.js';
import { routeUrls, waitRunning } from '../deploy/deploy.js';
import { localName } from '../names.js';
import type { Session } from '../session.js';
import { envPairs, intOption, type Action } from './registry.js';

type Kind = 'app' | 'job';

function processName(job: Job, wanted?: string): string {
  const names = Object.keys(job.processes ?? {});
  if (wanted) {
    if (!names.includes(wanted)) throw new UsageError(`job ${job.fqn} has no process "${wanted}" (it has ${names.join(', ') || 'none'})`);
    return wanted;
  }
  if (names.length === 1) return names[0]!;
  if (names.includes('app')) return 'app';
  throw new UsageError(`job ${job.fqn} has several processes (${names.join(', ')}): choose one with --process`);
}

async function setState(s: Session, client: PlatformClient, job: Job, state: 'started' | 'stopped', wait: boolean): Promise<Job> {
  const next = await client.patchJob(job.uuid, { state });
  if (state === 'started' && wait) await waitRunning(client, s.out, next, 180_000);
  return next;
}

export function registerJobCommands(parent: Command, kind: Kind, action: Action): void {
  const what = kind === 'app' ? 'app' : 'job';
  const a = kind === 'app' ? 'an app' : 'a job';
  parent
    .command('list')
    .description(`list ${what}s${kind === 'app' ? ' (jobs tagged app)' : ''}`)
    .option('--all-namespaces', 'every namespace the user may read, not only the default one')
    .action(
      action(async (s, o: { allNamespaces?: boolean }) => {
        const client = await s.client();
        const ns = await s.namespace();
        const query = { ...(kind === 'app' ? { tag: ['app'] } : {}), ...(o.allNamespaces ? {} : { fqn: `job::${ns}`, matchPartialFQN: true }) };
        const jobs = await client.listJobs(query);
        const router = await s.router();
        const live = jobs.filter((j) => j.state === 'started' || j.state === 'errored').map((j) => j.uuid);
        const health = live.length > 0 ? await client.jobHealth(live) : [];
        const running = new Map(
          health.map((h) => {
            const counts = (h['instance_state_count'] ?? {}) as Record<string, number>;
            return [String(h['uuid']), (counts['RUNNING'] ?? 0) + (counts['FIRST_RUNNING'] ?? 0)];
          }),
        );
        s.out.table(jobs, [
          { header: 'name', value: (j) => (o.allNamespaces ? j.fqn : localName(j.fqn)) },
          { header: 'state', value: (j) => j.state },
          { header: 'instances', value: (j) => `${running.get(j.uuid) ?? 0}/${j.num_instances}` },
          { header: 'version', value: (j) => j.version_id },
          { header: 'url', value: (j) => routeUrls(j, router).join(' ') },
        ]);
      }),
    );

  parent
    .command('show')
    .description(`show ${a}: its settings, instances and URLs`)
    .argument('<name>', 'a name, an FQN or a uuid')
    .action(
      action(async (s, name: string) => {
        const client = await s.client();
        const job = await s.job(client, name);
        const instances = await client.instances(job.uuid);
        const urls = routeUrls(job, await s.router());
        const health = job.state === 'started' || job.state === 'errored' ? (await client.jobHealth([job.uuid]))[0] : undefined;
        const proc = job.processes?.[Object.keys(job.processes ?? {})[0] ?? ''];
        s.out.record(
          { job, instances, health: health ?? null, urls },
          {
            fqn: job.fqn,
            uuid: job.uuid,
            state: job.state,
            version: job.version_id,
            instances: `${instances.filter((i) => i.state === 'RUNNING').length} running of ${job.num_instances}`,
            memory: job.resources?.memory !== undefined ? `${Math.round(job.resources.memory / 1024 / 1024)} MiB` : '',
            'start command': proc?.start_command ?? '(the package\'s)',
            environment: Object.entries(proc?.environment ?? {}).map(([k, v]) => `${k}=${v}`).join(' '),
            packages: (job.packages ?? []).map((p) => p.uuid).join(' '),
            urls: urls.join(' '),
            ...(health?.['message'] ? { waiting: health['message'] } : {}),
          },
        );
        if (!s.out.json && instances.length > 0) {
          s.out.line();
          s.out.table(instances, [
            { header: 'instance', value: (i) => i.uuid },
            { header: 'state', value: (i) => i.state },
            { header: 'host', value: (i) => i.host },
            { header: 'version', value: (i) => i.job_version_id },
          ]);
        }
      }),
    );

  for (const state of ['start', 'stop'] as const) {
    parent
      .command(state)
      .description(`${state} ${a}${state === 'start' ? ' and wait until its instances run' : ''}`)
      .argument('<name>')
      .option('--no-wait', 'do not wait for the instances')
      .action(
        action(async (s, name: string, o: { wait: boolean }) => {
          const client = await s.client();
          const job = await setState(s, client, await s.job(client, name), state === 'start' ? 'started' : 'stopped', o.wait);
          s.out.result(job, () => s.out.line(`${localName(job.fqn)} ${job.state}`));
        }),
      );
  }

  parent
    .command('restart')
    .description(`stop ${a}, then start it again and wait until it runs`)
    .argument('<name>')
    .action(
      action(async (s, name: string) => {
        const client = await s.client();
        const job = await s.job(client, name);
        if (job.state === 'started') await client.patchJob(job.uuid, { state: 'stopped' });
        const started = await setState(s, client, await client.getJob(job.uuid), 'started', true);
        s.out.result(started, () => s.out.line(`${localName(started.fqn)} restarted`));
      }),
    );

  parent
    .command('scale')
    .description(`set how many instances ${a} runs`)
    .argument('<name>')
    .argument('<instances>', 'the number of instances', intOption('instances'))
    .option('--no-wait', 'do not wait for the instances')
    .action(
      action(async (s, name: string, count: number, o: { wait: boolean }) => {
        const client = await s.client();
        const job = await client.patchJob((await s.job(client, name)).uuid, { num_instances: count });
        if (o.wait && job.state === 'started' && count > 0) await waitRunning(client, s.out, { ...job, version_id: 0 }, 180_000);
        s.out.result(job, () => s.out.line(`${localName(job.fqn)} scaled to ${count} instance${count === 1 ? '' : 's'}`));
      }),
    );

  parent
    .command('delete')
    .description(kind === 'app' ? 'delete an app: its job and its own packages' : 'delete a job')
    .argument('<name>')
    .action(
      action(async (s, name: string) => {
        const client = await s.client();
        const job = await s.job(client, name);
        await client.deleteJob(job.uuid);
        const deleted: string[] = [];
        if (kind === 'app') {
          for (const p of job.packages ?? []) {
            if (p.source === 'system') continue;
            // Another job may run the same package: it stays then (the controller refuses).
            await client.deletePackage(p.uuid).then(
              () => deleted.push(p.uuid),
              () => undefined,
            );
          }
        }
        s.out.result({ deleted: job.uuid, fqn: job.fqn, packages_deleted: deleted }, () => s.out.line(`${job.fqn} deleted`));
      }),
    );

  parent
    .command('logs')
    .description(`the last lines of ${a}'s log, or (--tail) follow it`)
    .argument('<name>')
    .option('-f, --tail', 'follow the log until Ctrl-C')
    .option('--lines <n>', 'how many of the last lines', intOption('lines'), 100)
    .option('--instance <id>', 'one instance only (uuid or short id)')
    .action(
      action(async (s, name: string, o: { tail?: boolean; lines: number; instance?: string }) => {
        const client = await s.client();
        const job = await s.job(client, name);
        if (!o.tail) {
          const text = await client.jobLogs(job.uuid, o.lines, o.instance);
          if (s.out.json) s.out.result(text.split('\n').filter((l) => l !== ''), () => undefined);
          else s.io.stdout.write(text);
          return;
        }
        const abort = new AbortController();
        const stop = () => abort.abort();
        process.once('SIGINT', stop);
        process.once('SIGTERM', stop);
        try {
          for await (const ev of client.tailJobLogs(job.uuid, { lines: o.lines, ...(o.instance ? { instance: o.instance } : {}), signal: abort.signal })) {
            s.io.stdout.write(s.out.json ? `${JSON.stringify(ev)}\n` : `[${ev.instance_uuid.slice(0, 8)}] ${ev.line}\n`);
          }
        } finally {
          process.removeListener('SIGINT', stop);
          process.removeListener('SIGTERM', stop);
        }
      }),
    );

  parent
    .command('instances')
    .description(`the instances of ${a}`)
    .argument('<name>')
    .action(
      action(async (s, name: string) => {
        const client = await s.client();
        const instances = await client.instances((await s.job(client, name)).uuid);
        s.out.table(instances, [
          { header: 'instance', value: (i) => i.uuid },
          { header: 'state', value: (i) => i.state },
          { header: 'host', value: (i) => i.host },
          { header: 'version', value: (i) => i.job_version_id },
          { header: 'ports', value: (i) => Object.values(i.ports ?? {}).join(' ') },
          { header: 'exit', value: (i) => (i.exited ? i.exit_code : '') },
        ]);
      }),
    );

  parent
    .command('files')
    .description(`list the files of a running instance of ${a}`)
    .argument('<name>')
    .argument('[path]', 'a directory in the instance', '/')
    .option('--instance <uuid>', 'which instance (default: a running one)')
    .action(
      action(async (s, name: string, path: string, o: { instance?: string }) => {
        const client = await s.client();
        const entries = await client.files((await s.job(client, name)).uuid, path, o.instance);
        s.out.table(entries, [
          { header: 'name', value: (e) => e.name },
          { header: 'size', value: (e) => e.size },
        ]);
      }),
    );

  const env = parent.command('env').description(`${a}'s environment variables`);
  env
    .command('set')
    .description('set variables (KEY=VALUE ...); the instances restart with them')
    .argument('<name>')
    .argument('<pairs...>', 'KEY=VALUE')
    .option('--process <name>', 'which process (default: the only one, or app)')
    .action(
      action(async (s, name: string, pairs: string[], o: { process?: string }) => {
        const client = await s.client();
        const job = await s.job(client, name);
        const updated = await client.patchJob(job.uuid, { processes: { [processName(job, o.process)]: { environment: envPairs(pairs) } } });
        s.out.result(updated, () => s.out.line(`${localName(updated.fqn)}: ${pairs.length} variable${pairs.length === 1 ? '' : 's'} set (version ${updated.version_id})`));
      }),
    );
  env
    .command('unset')
    .description('remove variables')
    .argument('<name>')
    .argument('<keys...>')
    .option('--process <name>', 'which process (default: the only one, or app)')
    .action(
      action(async (s, name: string, keys: string[], o: { process?: string }) => {
        const client = await s.client();
        const job = await s.job(client, name);
        const proc = processName(job, o.process);
        const missing = keys.filter((k) => !(k in (job.processes?.[proc]?.environment ?? {})));
        if (missing.length > 0) throw new CommandError(`${job.fqn} has no variable ${missing.join(', ')}`);
        // A JSON Merge Patch removes a key given as null.
        const updated = await client.patchJob(job.uuid, { processes: { [proc]: { environment: Object.fromEntries(keys.map((k) => [k, null])) } } });
        s.out.result(updated, () => s.out.line(`${localName(updated.fqn)}: ${keys.join(', ')} removed (version ${updated.version_id})`));
      }),
    );
  env
    .command('list')
    .description('show the variables')
    .argument('<name>')
    .option('--process <name>', 'which process (default: the only one, or app)')
    .action(
      action(async (s, name: string, o: { process?: string }) => {
        const client = await s.client();
        const job = await s.job(client, name);
        const vars = job.processes?.[processName(job, o.process)]?.environment ?? {};
        s.out.table(Object.entries(vars), [
          { header: 'name', value: ([k]) => k },
          { header: 'value', value: ([, v]) => v },
        ], vars);
      }),
    );
}


