/**
 * Step `templates`: each package's templates rendered in place against the environment. A
 * relative path is under the package's start path (its START_PATH, else the instance's), as the
 * original server resolved it; ".." is refused either way (templates.ts).
 */
import { join } from 'node:path';
import { safeComponents } from '../../packages/extract.js';
import { renderTemplateFile } from '../../packages/templates.js';
import type { InstanceStep } from '../context.js';

export const templatesStep: InstanceStep = {
  name: 'templates',
  prepare(ctx) {
    const env = ctx.env;
    for (const pkg of ctx.spec.packages) {
      for (const t of pkg.templates) {
        if (!t.path) continue;
        // Below the root whatever the spec says (a ".." in install_path would lead out of it).
        const base = join(ctx.root, ...safeComponents(pkg.installPath, 'install path'));
        const path = t.path.startsWith('/') ? t.path : `${pkg.environment['START_PATH'] || env['START_PATH'] || '/'}/${t.path}`;
        renderTemplateFile(base, path, env, t.left, t.right);
      }
    }
  },
};
