/** perl: cpanfile, Makefile.PL, .pl or .pm files. Start: the Procfile, else `perl <app.pl|main.pl|server.pl>`. */
import type { StagerContext } from '../context.js';
import { filesWith, firstPresent, prepare, procfileWeb, quote, unstageable } from './common.js';

export async function perlStager(ctx: StagerContext): Promise<void> {
  const app = await prepare(ctx);
  const sources = await filesWith(app, '.pl');
  let command = await procfileWeb(app);
  if (!command) {
    const main = (await firstPresent(app, ['app.pl', 'main.pl', 'server.pl'])) ?? (sources.length === 1 ? sources[0] : undefined);
    if (!main) unstageable(sources.length === 0 ? 'no .pl file: this is not a Perl app' : 'no start script: name it app.pl or add a Procfile');
    command = `perl ${quote(main)}`;
  }
  await ctx.setStart(command);
  await ctx.addDependency('runtime', 'perl');
  await ctx.upload();
}
