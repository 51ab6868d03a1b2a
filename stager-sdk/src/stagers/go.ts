/**
 * go: go.mod or .go sources are built offline (GOFLAGS=-mod=vendor when a
 * vendor directory exists, GOPROXY=off) into a binary named `app`; an
 * executable named `app` in the upload is used as it is.
 */
import { join } from 'node:path';
import type { StagerContext } from '../context.js';
import { exists, filesWith, isExecutable, prepare, procfileWeb, run, unstageable, which } from './common.js';

export async function goStager(ctx: StagerContext): Promise<void> {
  const app = await prepare(ctx);
  const sources = await filesWith(app, '.go');
  let command = await procfileWeb(app);
  if (!command && (await isExecutable(join(app, 'app'))) && sources.length === 0) command = './app';
  if (!command) {
    if (sources.length === 0 && !(await exists(join(app, 'go.mod')))) unstageable('no go.mod, .go file or executable named app: this is not a Go app');
    if (!(await which('go'))) {
      if (await ctx.hasDependency('runtime', 'go')) unstageable('the go tool is not available even with runtime.go installed');
      await ctx.addDependency('runtime', 'go');
      return ctx.relaunch();
    }
    ctx.log('Building the binary app...');
    const env = { ...process.env, GOPROXY: 'off', GOFLAGS: (await exists(join(app, 'vendor'))) ? '-mod=vendor' : '', CGO_ENABLED: '0', GOCACHE: join(ctx.root, '.gocache') };
    try {
      await run('go', ['build', '-o', 'app', '.'], { cwd: app, env, timeout: 5 * 60_000 });
    } catch (err) {
      unstageable(`go build failed: ${(err as Error).message}`);
    }
    command = './app';
  }
  await ctx.setStart(command);
  await ctx.addDependency('runtime', 'go');
  await ctx.upload();
}
