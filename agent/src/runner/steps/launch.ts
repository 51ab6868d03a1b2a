/**
 * Step `launch`: what the isolation driver starts, recorded (a re-attached instance is stopped
 * with it): the start command (start_command_raw, start_command, else the packages'
 * START_COMMAND), its working directory (START_PATH) and the host paths the packages bind; a
 * package made from a container image makes the root its own (no host system directories), which
 * only the bwrap driver does: any other driver refuses the instance here, before it runs. An
 * instance on a virtual network runs in its namespace, with its hosts file (steps/network.ts).
 */
import { startArgv } from '@platform/proto/common';
import { HostNetworks } from '../../network/host-networks.js';
import { SetupError, type InstanceStep } from '../context.js';

export const launchStep: InstanceStep = {
  name: 'launch',
  prepare(ctx) {
    const { spec, env } = ctx;
    const argv = startArgv(spec.process, env);
    if (!argv) throw new SetupError('no start command: the process has none and no package sets START_COMMAND');
    const workdir = '/' + (env['START_PATH'] ?? '/').split('/').filter((s) => s && s !== '.').join('/');
    if (workdir.split('/').includes('..')) throw new SetupError(`START_PATH ${env['START_PATH']} has a ".." component`);
    const hostPaths = [...new Set(spec.packages.flatMap((p) => p.hostPaths))];
    const image = spec.packages.find((p) => p.rootFilesystem);
    if (image && ctx.deps.driver.name !== 'bwrap') {
      throw new SetupError(`package ${image.fqn || image.uuid} is a container image, its own root file system: only the bwrap driver runs it as such (this agent's ${ctx.deps.driver.name} driver would run the host's programs instead); schedule the job on isolation:bwrap agents`);
    }
    ctx.rec.launch = {
      instanceUuid: spec.instanceUuid, root: ctx.root, argv, env, workdir, hostPaths,
      ...(image ? { ownRoot: true } : {}),
      ...(ctx.rec.network
        ? { network: { netns: HostNetworks.netnsPath(ctx.rec.network), hostsFile: ctx.rec.network.hostsFile, ...(ctx.rec.network.resolvConf ? { resolvConf: ctx.rec.network.resolvConf } : {}) } }
        : {}),
      ...(spec.stagerUrl ? { stagerfs: { hostPaths: [...new Set((spec.stagerfs ?? []).flatMap((p) => p.hostPaths))] } } : {}),
    };
  },
};
