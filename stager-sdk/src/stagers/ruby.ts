/** ruby: Gemfile, config.ru or .rb files. config.ru starts with rackup on $PORT; else `ruby <app.rb|main.rb|server.rb>`. */
import type { StagerContext } from '../context.js';
import { exists, filesWith, firstPresent, prepare, procfileWeb, quote, unstageable } from './common.js';
import { join } from 'node:path';

export async function rubyStager(ctx: StagerContext): Promise<void> {
  const app = await prepare(ctx);
  const sources = await filesWith(app, '.rb');
  const rack = await exists(join(app, 'config.ru'));
  if (!rack && sources.length === 0 && !(await exists(join(app, 'Gemfile')))) unstageable('no Gemfile, config.ru or .rb file: this is not a Ruby app');
  let command = await procfileWeb(app);
  if (!command && rack) command = 'rackup -o 0.0.0.0 -p $PORT';
  if (!command) {
    const main = (await firstPresent(app, ['app.rb', 'main.rb', 'server.rb'])) ?? (sources.length === 1 ? sources[0] : undefined);
    if (!main) unstageable('no start script: add a Procfile, a config.ru, or an app.rb');
    command = `ruby ${quote(main)}`;
  }
  await ctx.setStart(command);
  await ctx.addDependency('runtime', 'ruby');
  await ctx.upload();
}
