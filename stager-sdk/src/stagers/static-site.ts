/**
 * static-site: a directory of files with index.html or index.htm, served by
 * the SDK's small static server (dist/bin/static-server.js) on $PORT. The
 * package depends on the stager SDK's package (for the server) and on node.
 */
import type { StagerContext } from '../context.js';
import { firstPresent, prepare, unstageable } from './common.js';

/** The stager SDK package's name as a `package` requirement. */
export const STAGER_SDK_PACKAGE = 'stager-sdk';

export async function staticSiteStager(ctx: StagerContext): Promise<void> {
  const app = await prepare(ctx);
  if (!(await firstPresent(app, ['index.html', 'index.htm']))) unstageable('a static site needs index.html or index.htm at its top');
  const command = 'exec node "$STAGER_SDK/dist/bin/static-server.js" .';
  ctx.log(`Start command: ${command}`);
  await ctx.setStart(command);
  await ctx.addDependency('runtime', 'node');
  await ctx.addDependency('package', STAGER_SDK_PACKAGE);
  await ctx.upload();
}
