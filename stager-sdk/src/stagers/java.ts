/**
 * java: an executable jar runs with `java -jar`; .java sources are compiled
 * with javac (from the runtime package: the stager adds runtime.java and
 * relaunches when javac is not on its PATH yet). Maven (pom.xml) and Gradle
 * builds need the network: upload the built jar instead.
 */
import { join } from 'node:path';
import type { StagerContext } from '../context.js';
import { exists, filesWith, prepare, procfileWeb, quote, readText, run, unstageable, which } from './common.js';

export async function javaStager(ctx: StagerContext): Promise<void> {
  const app = await prepare(ctx);
  const jars = [...(await filesWith(app, '.jar')), ...(await filesWith(app, '.war'))];
  const sources = await filesWith(app, '.java');
  let command = await procfileWeb(app);
  if (!command && jars.length > 0) command = `java -jar ${quote(jars[0]!)}`;
  if (!command && sources.length > 0) {
    if (!(await which('javac'))) {
      if (await ctx.hasDependency('runtime', 'java')) unstageable('javac is not available even with runtime.java installed; upload a built jar');
      await ctx.addDependency('runtime', 'java');
      return ctx.relaunch();
    }
    ctx.log(`Compiling ${sources.length} source file(s)...`);
    try {
      await run('javac', ['-d', 'classes', ...sources], { cwd: app, timeout: 5 * 60_000 });
    } catch (err) {
      unstageable(`javac failed: ${(err as Error).message}`);
    }
    const main = sources.find((s) => s === 'Main.java') ?? sources[0]!;
    command = `java -cp classes ${main.replace(/\.java$/, '')}`;
  }
  if (!command) {
    if ((await exists(join(app, 'pom.xml'))) || (await readText(join(app, 'build.gradle'))) !== undefined) {
      unstageable('Maven and Gradle builds need network access, which staging does not have; upload the built jar');
    }
    unstageable('no .jar and no .java file: this is not a Java app');
  }
  await ctx.setStart(command);
  await ctx.addDependency('runtime', 'java');
  await ctx.upload();
}
