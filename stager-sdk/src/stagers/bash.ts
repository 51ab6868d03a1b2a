/**
 * bash: apps of shell scripts. `bash_setup.sh` runs now, during staging, in
 * the app directory (to prepare files); `bash_start.sh` is the start command.
 * Without it: start.sh, run.sh, or the only .sh file.
 */
import { chmod } from 'node:fs/promises';
import { join } from 'node:path';
import type { StagerContext } from '../context.js';
import { exists, filesWith, firstPresent, prepare, quote, run, unstageable } from './common.js';

export async function bashStager(ctx: StagerContext): Promise<void> {
  const app = await prepare(ctx);
  const scripts = await filesWith(app, '.sh');
  if (scripts.length === 0) unstageable('no .sh file: a bash app needs bash_start.sh (or start.sh)');
  if (await exists(join(app, 'bash_setup.sh'))) {
    ctx.log('Running bash_setup.sh...');
    try {
      const { stdout, stderr } = await run('bash', ['bash_setup.sh'], { cwd: app, timeout: 5 * 60_000 });
      for (const line of `${stdout}${stderr}`.split('\n')) if (line) ctx.log(line);
    } catch (err) {
      unstageable(`bash_setup.sh failed: ${(err as Error).message}`);
    }
  }
  const start = (await firstPresent(app, ['bash_start.sh', 'start.sh', 'run.sh'])) ?? (scripts.filter((s) => s !== 'bash_setup.sh').length === 1 ? scripts.find((s) => s !== 'bash_setup.sh') : undefined);
  if (!start) unstageable(`no start script among ${scripts.join(', ')}: name it bash_start.sh`);
  await chmod(join(app, start), 0o755);
  const command = `bash ${quote(start)}`;
  ctx.log(`Start command: ${command}`);
  await ctx.setStart(command);
  await ctx.addDependency('runtime', 'bash');
  await ctx.upload();
}
