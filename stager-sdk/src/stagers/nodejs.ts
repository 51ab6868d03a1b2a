/**
 * nodejs: apps with package.json or a top-level .js/.mjs file. Start command:
 * the Procfile's web process, else `npm start` when package.json has a start
 * script, else `node <main>` (package.json `main`, server.js, app.js, index.js).
 * Dependencies are not downloaded (no network): an app with dependencies must
 * carry node_modules.
 */
import { join } from 'node:path';
import type { StagerContext } from '../context.js';
import { exists, filesWith, firstPresent, prepare, procfileWeb, quote, readText, unstageable } from './common.js';

interface PackageJson {
  main?: string;
  scripts?: Record<string, string>;
  dependencies?: Record<string, string>;
}

export async function nodejsStager(ctx: StagerContext): Promise<void> {
  const app = await prepare(ctx);
  let pkg: PackageJson | undefined;
  const text = await readText(join(app, 'package.json'));
  if (text !== undefined) {
    try {
      pkg = JSON.parse(text) as PackageJson;
    } catch (err) {
      unstageable(`package.json is not valid JSON: ${(err as Error).message}`);
    }
  }
  const scripts = [...(await filesWith(app, '.js')), ...(await filesWith(app, '.mjs'))];
  if (!pkg && scripts.length === 0) unstageable('no package.json and no .js file: this is not a Node.js app');
  if (pkg?.dependencies && Object.keys(pkg.dependencies).length > 0 && !(await exists(join(app, 'node_modules')))) {
    ctx.log('Warning: package.json lists dependencies but node_modules is missing; staging has no network to install them.');
  }
  let command = await procfileWeb(app);
  if (!command && pkg?.scripts?.['start']) command = 'npm start';
  if (!command) {
    const main = pkg?.main && (await exists(join(app, pkg.main))) ? pkg.main : await firstPresent(app, ['server.js', 'app.js', 'index.js', 'main.js', 'server.mjs', 'index.mjs']);
    const chosen = main ?? (scripts.length === 1 ? scripts[0] : undefined);
    if (!chosen) unstageable('no start script: add "scripts.start" or "main" to package.json, or a server.js, app.js or index.js');
    command = `node ${quote(chosen)}`;
  }
  ctx.log(`Start command: ${command}`);
  await ctx.setStart(command);
  await ctx.addDependency('runtime', 'node');
  await ctx.upload();
}
