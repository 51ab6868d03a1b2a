/** `manifest deploy` (following the task's events) and `manifest expand`; `metrics`. */
import { readFile } from 'node:fs/promises';
import { CommandError, UsageError } from '../config.js';
import { readStdin } from '../prompt.js';
import type { Session } from '../session.js';
import type { TaskEvent } from '../client/types.js';
import { collect, envPairs, type CommandModule } from './registry.js';

const POLL_MS = 500;

/** The body of POST /manifests: the file's manifest, with --var values as its variables. */
async function manifestBody(s: Session, file: string, vars: string[] | undefined): Promise<Record<string, unknown>> {
  const text = file === '-' ? await readStdin(s.io) : await readFile(file, 'utf8');
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (err) {
    throw new UsageError(`${file} is not JSON: ${(err as Error).message}`);
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) throw new UsageError(`${file}: a manifest is a JSON object`);
  const doc = parsed as Record<string, unknown>;
  const wrapped = 'manifest' in doc ? doc : { manifest: doc };
  if (vars && vars.length > 0) wrapped['variables'] = { ...((wrapped['variables'] as Record<string, string> | undefined) ?? {}), ...envPairs(vars) };
  return wrapped;
}

function eventLine(e: TaskEvent): string {
  const progress = e.subtask.total > 0 ? `[${e.subtask.index + 1}/${e.subtask.total}] ` : '';
  const extra = Object.entries(e.payload ?? {}).map(([k, v]) => `${k}=${v}`).join(' ');
  return `${progress}${e.stage ? `${e.stage}: ` : ''}${e.subtask.name}${extra ? ` (${extra})` : ''}`;
}

export const manifestCommands: CommandModule = {
  names: ['manifest', 'metrics'],
  register(program, action) {
    const manifest = program.command('manifest').description('manifests: several jobs in one JSON document');
    manifest
      .command('deploy')
      .description('deploy a manifest (a file, or - for stdin) and follow its task until it ends')
      .argument('<file>')
      .option('--var <NAME=VALUE>', 'a variable for its ${NAME} placeholders (repeat)', collect)
      .action(
        action(async (s, file: string, o: { var?: string[] }) => {
          const client = await s.client();
          const { location } = await client.deployManifest(await manifestBody(s, file, o.var));
          const uuid = location.slice(location.lastIndexOf('/') + 1);
          s.out.note(`Task ${uuid}`);
          const events: TaskEvent[] = [];
          let after: number | undefined;
          for (;;) {
            const task = await client.getTask(uuid, after);
            for (const e of task.events) {
              if (after !== undefined && e.time <= after) continue;
              after = e.time;
              events.push(e);
              if (e.task_event_type === 'event') s.out.line(eventLine(e));
            }
            const last = events[events.length - 1];
            if (task.state !== 'running' || last?.task_event_type === 'eos' || last?.task_event_type === 'error') {
              const failed = task.errored === 'errored' || last?.task_event_type === 'error';
              if (failed) {
                const why = last?.payload?.['error'] ?? last?.payload?.['message'] ?? last?.subtask.name ?? 'the task failed';
                throw new CommandError(`the manifest's deploy failed: ${why}`, { task: uuid, events });
              }
              s.out.result({ task: uuid, state: task.state, events }, () => s.out.line('Manifest deployed.'));
              return;
            }
            await new Promise((r) => setTimeout(r, POLL_MS));
          }
        }),
      );
    manifest
      .command('expand')
      .description('show what a manifest would do (its jobs and warnings) without doing it')
      .argument('<file>')
      .option('--var <NAME=VALUE>', 'a variable (repeat)', collect)
      .action(
        action(async (s, file: string, o: { var?: string[] }) => {
          const expansion = await (await s.client()).expandManifest(await manifestBody(s, file, o.var));
          s.io.stdout.write(`${JSON.stringify(expansion, null, 2)}\n`);
        }),
      );

    program
      .command('metrics')
      .description('metric queries: <target>,<metric>[:<function>-<interval>][,<from>[,<until>]] (docs/api.md, Metrics)')
      .argument('<kind>', 'jobs, namespaces or instance-managers')
      .argument('<queries...>', 'such as job::/sandbox/me::web,cpu.mean:avg-1m,-1h,now')
      .action(
        action(async (s, kind: string, queries: string[]) => {
          const k = kind === 'instance-managers' ? 'instance_managers' : kind;
          if (k !== 'jobs' && k !== 'namespaces' && k !== 'instance_managers') throw new UsageError(`metrics ${kind}: jobs, namespaces or instance-managers`);
          const answer = await (await s.client()).metrics(k, queries);
          const rows = Object.entries(answer.metrics).flatMap(([query, series]) =>
            Object.entries(series).map(([entity, serie]) => ({ query, entity, points: serie.values.length, last: serie.values[serie.values.length - 1] })),
          );
          s.out.result(answer, () => {
            if (rows.length > 0) s.out.table(rows, [
              { header: 'query', value: (r) => r.query },
              { header: 'series', value: (r) => r.entity },
              { header: 'points', value: (r) => r.points },
              { header: 'last', value: (r) => r.last },
            ]);
            for (const [query, message] of Object.entries(answer.errors)) s.io.stderr.write(`error: ${query}: ${message}\n`);
          });
          if (Object.keys(answer.errors).length > 0 && rows.length === 0) throw new CommandError('no query could be answered', { errors: answer.errors });
        }),
      );
  },
};
