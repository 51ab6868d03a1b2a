/** `platform app ...`: deploy (and create) apps from directories, and manage them. */
import type { Command } from 'commander';
import { deploy, type DeployOptions } from '../deploy/deploy.js';
import { localName } from '../names.js';
import { parseMemory } from '../output.js';
import { registerJobCommands } from './jobs.js';
import { collect, envPairs, intOption, type Action, type CommandModule } from './registry.js';
import type { Session } from '../session.js';

interface DeployFlags {
  name?: string;
  runtime?: string;
  instances?: number;
  memory?: string;
  env?: string[];
  startCommand?: string;
  route?: string[] | false;
  rolling?: boolean;
  start: boolean;
  wait: boolean;
  timeout: number;
}

function deployCommand(parent: Command, name: 'deploy' | 'create', action: Action): void {
  parent
    .command(name)
    .description(
      name === 'deploy'
        ? 'deploy the app in [dir] (default: .): stage it, create or update its job, start it, wait until it runs, print its URL'
        : 'create a new app from [dir] like deploy; refuses when the app exists',
    )
    .argument('[dir]', 'the app\'s directory', '.')
    .option('--name <name>', 'the app\'s name (default: the directory\'s name)')
    .option('--runtime <runtime>', 'the runtime (default: detected from the files, GET /runtimes)')
    .option('-i, --instances <n>', 'how many instances', intOption('instances'))
    .option('-m, --memory <size>', 'memory per instance: 256M, 1G (a number alone is MiB)')
    .option('-e, --env <KEY=VALUE>', 'an environment variable (repeat the option)', collect)
    .option('-c, --start-command <command>', 'the command that starts the app (default: what staging found)')
    .option('-r, --route <host>', 'an HTTP route (repeat; default: <name>-<6 chars>.<domain>)', collect)
    .option('--no-route', 'no route (a worker)')
    .option('--rolling', 'replace instances one at a time on an update (rollout rolling_mode)')
    .option('--no-start', 'create or update the job, stopped')
    .option('--no-wait', 'do not wait for the instances')
    .option('--timeout <seconds>', 'how long to wait for the instances', intOption('timeout', 1), 180)
    .action(
      action(async (s: Session, dir: string, f: DeployFlags) => {
        const o: DeployOptions = {
          ...(f.name ? { name: f.name } : {}),
          ...(f.runtime ? { runtime: f.runtime } : {}),
          ...(f.instances !== undefined ? { instances: f.instances } : {}),
          ...(f.memory ? { memory: parseMemory(f.memory) } : {}),
          ...(f.env ? { env: envPairs(f.env) } : {}),
          ...(f.startCommand ? { startCommand: f.startCommand } : {}),
          ...(f.route === false ? { route: false } : f.route ? { routes: f.route } : {}),
          ...(f.rolling ? { rolling: true } : {}),
          start: f.start,
          wait: f.wait,
          timeoutSeconds: f.timeout,
          create: name === 'create',
        };
        const r = await deploy(s, dir, o);
        s.out.result(
          { job: r.job, package: r.package, created: r.created, urls: r.urls, instances: r.instances },
          () => {
            if (!f.wait || !f.start) s.out.line(`${localName(r.job.fqn)} ${r.created ? 'created' : 'updated'} (${r.job.state})`);
          },
        );
      }),
    );
}

export const appCommands: CommandModule = {
  names: ['app'],
  register(program, action) {
    const app = program.command('app').description('apps: deploy from a directory, list, show, scale, logs...');
    deployCommand(app, 'deploy', action);
    deployCommand(app, 'create', action);
    registerJobCommands(app, 'app', action);
  },
};

export const jobCommands: CommandModule = {
  names: ['job'],
  register(program, action) {
    registerJobCommands(program.command('job').description('jobs of any kind (apps, stagers, others)'), 'job', action);
  },
};
