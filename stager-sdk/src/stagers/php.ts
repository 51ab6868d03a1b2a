/** php: composer.json or .php files, served by PHP's built-in server on $PORT from the app directory. */
import type { StagerContext } from '../context.js';
import { filesWith, prepare, procfileWeb, unstageable } from './common.js';

export async function phpStager(ctx: StagerContext): Promise<void> {
  const app = await prepare(ctx);
  if ((await filesWith(app, '.php')).length === 0) unstageable('no .php file at the top: this is not a PHP app');
  const command = (await procfileWeb(app)) ?? 'php -S 0.0.0.0:$PORT -t .';
  await ctx.setStart(command);
  await ctx.addDependency('runtime', 'php');
  await ctx.upload();
}
