/**
 * python: apps with requirements.txt, runtime.txt, setup.py, pyproject.toml or
 * a .py file. runtime.txt (`python-3.11`) picks the runtime version. Start
 * command: the Procfile's web process, else `python3 <app.py|main.py|server.py|wsgi.py>`.
 * Packages in requirements.txt are not downloaded (no network): vendor them.
 */
import { join } from 'node:path';
import type { StagerContext } from '../context.js';
import { filesWith, firstPresent, prepare, procfileWeb, quote, readText, unstageable } from './common.js';

export async function pythonStager(ctx: StagerContext): Promise<void> {
  const app = await prepare(ctx);
  const markers = await firstPresent(app, ['requirements.txt', 'runtime.txt', 'setup.py', 'pyproject.toml']);
  const sources = await filesWith(app, '.py');
  if (!markers && sources.length === 0) unstageable('no .py file and no requirements.txt: this is not a Python app');
  let runtime = 'python';
  const runtimeTxt = (await readText(join(app, 'runtime.txt')))?.trim();
  if (runtimeTxt) {
    const m = /^python-(\d+(?:\.\d+)*)$/.exec(runtimeTxt);
    if (!m) unstageable(`runtime.txt says "${runtimeTxt}"; expected python-<version> such as python-3.11`);
    runtime = `python-${m[1]}`;
  }
  const requirements = (await readText(join(app, 'requirements.txt')))?.split('\n').filter((l) => l.trim() !== '' && !l.trim().startsWith('#')) ?? [];
  if (requirements.length > 0) ctx.log(`Warning: requirements.txt lists ${requirements.length} package(s); staging has no network to install them.`);
  let command = await procfileWeb(app);
  if (!command) {
    const main = (await firstPresent(app, ['app.py', 'main.py', 'server.py', 'wsgi.py', '__main__.py'])) ?? (sources.length === 1 ? sources[0] : undefined);
    if (!main) unstageable('no start script: add a Procfile with "web: <command>", or an app.py, main.py or server.py');
    command = `python3 ${quote(main)}`;
  }
  ctx.log(`Start command: ${command}`);
  await ctx.setStart(command);
  await ctx.addDependency('runtime', runtime);
  await ctx.upload();
}
