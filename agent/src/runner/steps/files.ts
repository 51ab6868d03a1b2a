/**
 * Step `files`: the platform's files of the instance (its secrets as files, its app token),
 * written into `<instance dir>/platform` for its uid (runner/platform-files.ts), and the launch
 * told to bind them. After `root`, which gives the instance its uid. Released with the instance
 * directory; the files are removed here first all the same, as they hold secrets.
 */
import { rmSync } from 'node:fs';
import { platformFilesDir, writePlatformFiles } from '../platform-files.js';
import type { InstanceStep } from '../context.js';

export const filesStep: InstanceStep = {
  name: 'files',
  prepare(ctx) {
    const files = ctx.spec.files ?? [];
    if (files.length === 0) return;
    const dir = platformFilesDir(ctx.dir);
    writePlatformFiles(dir, files, ctx.rec.identity);
    ctx.rec.launch!.platformFiles = dir;
  },
  release(ctx) {
    rmSync(platformFilesDir(ctx.dir), { recursive: true, force: true });
  },
};
