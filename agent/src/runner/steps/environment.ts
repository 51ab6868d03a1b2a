/**
 * Step `environment`: the process's environment, layered by @platform/proto/common (the same
 * code as the controller's local stager launcher): packages in install order, the process's own,
 * the ports, the platform's variables.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { buildEnvironment } from '@platform/proto/common';
import type { InstanceStep } from '../context.js';
import { stagerfsDir } from './packages.js';
import { PLATFORM_FILES_MOUNT, platformFilesDir, TOKEN_FILE } from '../platform-files.js';

export const environmentStep: InstanceStep = {
  name: 'environment',
  prepare(ctx) {
    const { spec, root, deps } = ctx;
    ctx.env = buildEnvironment({
      packages: spec.packages.map((p) => p.environment),
      process: spec.process.environment,
      defaultStartPath: existsSync(join(root, 'app')) ? '/app' : '/',
      home: deps.driver.name === 'process' ? root : '/',
      ports: ctx.portEnv,
      platform: spec.environment,
      stagerUrl: spec.stagerUrl,
    });
    // Where the stager finds /stagerfs: its own path under bwrap, the host path for the process driver.
    if (spec.stagerUrl) ctx.env['STAGERFS'] = deps.driver.name === 'process' ? stagerfsDir(ctx) : '/stagerfs';
    // Where it finds its platform files (the files step writes them), the same way.
    if (spec.files?.length) {
      const dir = deps.driver.name === 'bwrap' ? PLATFORM_FILES_MOUNT : platformFilesDir(ctx.dir);
      ctx.env['PLATFORM_FILES'] = dir;
      if (spec.files.some((f) => f.name === TOKEN_FILE)) ctx.env['PLATFORM_TOKEN_FILE'] = `${dir}/${TOKEN_FILE}`;
    }
  },
};
