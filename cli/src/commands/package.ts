/** `package`, `pipeline` and `stager` commands. */
import { createReadStream, createWriteStream } from 'node:fs';
import { basename, resolve } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline as streamPipeline } from 'node:stream/promises';
import { CommandError, UsageError } from '../config.js';
import { packDirectory } from '../deploy/pack.js';
import { followStaging } from '../deploy/deploy.js';
import { isUuid, localName } from '../names.js';
import { ProgressBar, formatBytes } from '../output.js';
import type { PlatformClient } from '../client/client.js';
import type { PackageInput } from '../client/types.js';
import type { Session } from '../session.js';
import { collect, type CommandModule } from './registry.js';

type DependencyType = NonNullable<PackageInput['dependencies']>[number]['type'];
const DEPENDENCY_TYPES: readonly DependencyType[] = ['package', 'file', 'runtime', 'os'];
const isDependencyType = (t: string): t is DependencyType => (DEPENDENCY_TYPES as readonly string[]).includes(t);

async function pipelineOf(s: Session, client: PlatformClient, name: string) {
  if (isUuid(name)) return client.getPipeline(name.toLowerCase());
  const fqn = await s.fqn(name, 'stagpipe');
  const found = (await client.listPipelines(fqn))[0];
  if (!found) throw new CommandError(`no staging pipeline ${fqn}`);
  return found;
}

export const packageCommands: CommandModule = {
  names: ['package', 'pipeline', 'stager'],
  register(program, action) {
    const pkg = program.command('package').description('packages: list, show, logs, download, delete');
    pkg
      .command('list')
      .description('list packages')
      .option('--all-namespaces', 'every namespace the user may read')
      .action(
        action(async (s, o: { allNamespaces?: boolean }) => {
          const client = await s.client();
          const list = await client.listPackages(o.allNamespaces ? {} : { fqn: `package::${await s.namespace()}`, matchPartialFQN: true });
          s.out.table(list, [
            { header: 'name', value: (p) => (o.allNamespaces ? p.fqn : p.name) },
            { header: 'state', value: (p) => p.state },
            { header: 'size', value: (p) => formatBytes(p.resources.reduce((n, r) => n + r.length, 0)) },
            { header: 'uuid', value: (p) => p.uuid },
          ]);
        }),
      );
    pkg
      .command('show')
      .description('show a package')
      .argument('<name>', 'a name, an FQN or a uuid')
      .action(
        action(async (s, name: string) => {
          const p = await s.package(await s.client(), name);
          s.out.record(p, {
            fqn: p.fqn,
            uuid: p.uuid,
            state: p.state,
            version: p.version_id,
            resources: p.resources.map((r) => `${r.uuid} ${formatBytes(r.length)} ${r.digest}`).join(', '),
            pipeline: p.staging_pipeline_fqn ?? '',
            environment: Object.entries(p.environment ?? {}).map(([k, v]) => `${k}=${v}`).join(' '),
            ...(p.error_message ? { error: p.error_message } : {}),
          });
        }),
      );
    pkg
      .command('logs')
      .description('the staging log of a package')
      .argument('<name>')
      .action(
        action(async (s, name: string) => {
          const client = await s.client();
          const text = await client.packageLogs((await s.package(client, name)).uuid, { lines: 10_000 });
          if (s.out.json) s.out.result(text.split('\n').filter((l) => l !== ''), () => undefined);
          else s.io.stdout.write(text);
        }),
      );
    pkg
      .command('download')
      .description('download a package\'s archive')
      .argument('<name>')
      .option('-o, --output <file>', 'where to write it (default: <name>.tar.gz)')
      .action(
        action(async (s, name: string, o: { output?: string }) => {
          const client = await s.client();
          const p = await s.package(client, name);
          const resource = p.resources[0];
          if (!resource) throw new CommandError(`package ${p.fqn} has no archive`);
          const file = resolve(o.output ?? `${p.name}.tar.gz`);
          const res = await client.downloadResource(p.uuid, resource.uuid);
          const bar = new ProgressBar(s.out, 'Downloading', resource.length);
          const body = Readable.fromWeb(res.body as never);
          body.on('data', (c: Buffer) => bar.advance(c.length));
          await streamPipeline(body, createWriteStream(file));
          bar.finish();
          s.out.result({ file, length: resource.length, digest: resource.digest }, () => s.out.line(`${file} (${formatBytes(resource.length)})`));
        }),
      );
    pkg
      .command('delete')
      .description('delete a package')
      .argument('<name>')
      .action(
        action(async (s, name: string) => {
          const client = await s.client();
          const p = await s.package(client, name);
          await client.deletePackage(p.uuid);
          s.out.result({ deleted: p.uuid, fqn: p.fqn }, () => s.out.line(`${p.fqn} deleted`));
        }),
      );

    const pipe = program.command('pipeline').description('staging pipelines: list, show, create, append');
    pipe
      .command('list')
      .description('list staging pipelines')
      .action(
        action(async (s) => {
          const list = await (await s.client()).listPipelines();
          s.out.table(list, [
            { header: 'fqn', value: (p) => p.fqn },
            { header: 'stagers', value: (p) => p.stagers.map((x) => x.fqn ?? x.uuid).join(', ') },
            { header: 'uuid', value: (p) => p.uuid },
          ]);
        }),
      );
    pipe
      .command('show')
      .description('show a staging pipeline')
      .argument('<name>', 'a name, an FQN or a uuid')
      .action(
        action(async (s, name: string) => {
          const p = await pipelineOf(s, await s.client(), name);
          s.out.record(p, { fqn: p.fqn, uuid: p.uuid, stagers: p.stagers.map((x) => x.fqn ?? x.uuid).join(', ') });
        }),
      );
    pipe
      .command('create')
      .description('create a staging pipeline of stager jobs, in order')
      .argument('<name>')
      .requiredOption('-s, --stager <job>', 'a stager job (repeat, in order)', collect)
      .action(
        action(async (s, name: string, o: { stager: string[] }) => {
          const client = await s.client();
          const stagers = await Promise.all(o.stager.map(async (j) => ({ uuid: (await s.job(client, j)).uuid })));
          const p = await client.createPipeline({ fqn: await s.fqn(name, 'stagpipe'), stagers });
          s.out.result(p, () => s.out.line(`${p.fqn} created (${p.uuid})`));
        }),
      );
    pipe
      .command('append')
      .description('add a stager job at the end of a pipeline')
      .argument('<name>')
      .argument('<stager>', 'the stager job')
      .action(
        action(async (s, name: string, stager: string) => {
          const client = await s.client();
          const p = await pipelineOf(s, client, name);
          const job = await s.job(client, stager);
          const stagers = [...p.stagers.map((x) => ({ uuid: x.uuid! })), { uuid: job.uuid }];
          const updated = await client.putPipeline(p.uuid, { fqn: p.fqn, stagers });
          s.out.result(updated, () => s.out.line(`${updated.fqn}: ${updated.stagers.length} stagers`));
        }),
      );
    pipe
      .command('delete')
      .description('delete a staging pipeline')
      .argument('<name>')
      .action(
        action(async (s, name: string) => {
          const client = await s.client();
          const p = await pipelineOf(s, client, name);
          await client.deletePipeline(p.uuid);
          s.out.result({ deleted: p.uuid, fqn: p.fqn }, () => s.out.line(`${p.fqn} deleted`));
        }),
      );

    program
      .command('stager')
      .description('stager jobs')
      .command('create')
      .description('create a stager job from the built code in [dir] (packed under /app, unstaged), optionally with a pipeline of it')
      .argument('<name>')
      .argument('[dir]', 'the stager\'s directory', '.')
      .requiredOption('-c, --start-command <command>', 'how to start it, such as "node /app/dist/main.js"')
      .option('--depends <type:name>', 'a dependency of the package (repeat; default runtime:node)', collect)
      .option('--pipeline <name>', 'also create a staging pipeline of this one stager')
      .action(
        action(async (s, name: string, dir: string, o: { startCommand: string; depends?: string[]; pipeline?: string }) => {
          const client = await s.client();
          const jobFqn = await s.fqn(name, 'job');
          const dependencies = (o.depends ?? ['runtime:node']).map((d) => {
            const [type, dep] = d.split(':');
            if (!type || !dep) throw new UsageError(`--depends ${d}: expected type:name, such as runtime:node`);
            if (!isDependencyType(type)) throw new UsageError(`--depends ${d}: the type is one of ${DEPENDENCY_TYPES.join(', ')}`);
            return { type, name: dep };
          });
          const archive = await packDirectory(resolve(dir), 'app');
          let created;
          try {
            const p = await client.createPackage({
              fqn: await s.fqn(`${localName(jobFqn)}-${archive.digest.slice(7, 19)}`, 'package'),
              resources: [{ length: archive.length, digest: archive.digest }],
              dependencies,
            });
            await client.uploadResource(p.uuid, p.resources[0]!.uuid, Readable.toWeb(createReadStream(archive.path)) as ReadableStream<Uint8Array>, archive.length);
            const ready = await followStaging(client, s.out, await client.getPackage(p.uuid));
            created = await client.createJob({ fqn: jobFqn, packages: [{ uuid: ready.uuid }], processes: { app: { start_command: o.startCommand } }, tags: { stager: '' } });
          } finally {
            await archive.dispose();
          }
          const pipeline = o.pipeline ? await client.createPipeline({ fqn: await s.fqn(o.pipeline, 'stagpipe'), stagers: [{ uuid: created.uuid }] }) : undefined;
          s.out.result({ job: created, pipeline: pipeline ?? null }, () =>
            s.out.line(`stager ${created.fqn} created from ${basename(resolve(dir))}${pipeline ? `, pipeline ${pipeline.fqn}` : ''}`),
          );
        }),
      );
  },
};
