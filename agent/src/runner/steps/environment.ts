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
  },
};
