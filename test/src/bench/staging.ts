/**
 * Staging benchmark (`npm run bench:staging -w test`): the time from the end of
 * a small Node.js app's upload to its package being `ready`, staged by the
 * built-in nodejs pipeline on a real controller with its stager run as an
 * instance on a real agent (BENCH_STAGING_LAUNCHER=local: as a local process
 * instead), beside the same work done directly by a
 * script in a fresh Node process: extract, move under /app, read package.json,
 * pack, hash. The difference is the cost of staging itself: launching the
 * stager, the stager API round trips, storing the archive, the package writes.
 *
 * Environment: BENCH_STAGING_RUNS (runs of each, default 5), BENCH_STAGING_LAUNCHER
 * (`agent`, the default, or `local`).
 */
import { execFileSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Package, StagingPipeline } from '@platform/controller';
import { archiveOf } from '@platform/stager-sdk/testkit';
import { AgentProcess, bwrapWorks } from '../harness/agent-process.js';
import { ControllerProcess } from '../harness/controller-process.js';
import { digestOf, unique } from '../harness/fixtures.js';
import { rawPut } from '../harness/upload.js';

const RUNS = Number(process.env['BENCH_STAGING_RUNS'] ?? 5);
const LOCAL = process.env['BENCH_STAGING_LAUNCHER'] === 'local';

function appFiles(): Record<string, string> {
  const files: Record<string, string> = {
    'package.json': JSON.stringify({ name: 'bench-app', main: 'server.js' }),
    'server.js': 'require("http").createServer((q, s) => s.end("ok")).listen(process.env.PORT);',
  };
  for (let i = 0; i < 20; i++) files[`lib/module${i}.js`] = `module.exports = ${JSON.stringify('x'.repeat(2000))};\n`;
  return files;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/** The direct steps, in a fresh Node process as a stager would run them. */
const DIRECT_SCRIPT = `
import { extractArchive, packDirectory, hashFile } from '@platform/stager-sdk';
import { createReadStream } from 'node:fs';
import { mkdtemp, mkdir, readdir, rename, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
const root = await mkdtemp(join(tmpdir(), 'direct-'));
await extractArchive(createReadStream(process.argv[2]), root);
const top = await readdir(root);
await mkdir(join(root, '.app'));
for (const e of top) await rename(join(root, e), join(root, '.app', e));
await rename(join(root, '.app'), join(root, 'app'));
JSON.parse(await readFile(join(root, 'app', 'package.json'), 'utf8'));
const out = join(root, '..', 'direct-' + process.pid + '.tgz');
await packDirectory(root, out);
await hashFile(out);
await rm(out);
await rm(root, { recursive: true });
`;

async function main(): Promise<void> {
  const work = await mkdtemp(join(tmpdir(), 'bench-staging-'));
  const controller = await ControllerProcess.start({ env: LOCAL ? { PLATFORM_STAGER_LAUNCHER: 'local' } : {} });
  let agent: AgentProcess | undefined;
  const isolation = bwrapWorks() ? 'bwrap' : 'process';
  try {
    const api = await controller.admin();
    if (!LOCAL) agent = await AgentProcess.start(controller, api, { isolation });
    const [pipeline] = (await api.get<StagingPipeline[]>('/stagingpipelines?fqn=stagpipe::/platform::nodejs')).body;
    if (!pipeline) throw new Error('no built-in nodejs pipeline');
    const data = await archiveOf(appFiles());
    const archiveFile = join(work, 'app.tgz');
    await writeFile(archiveFile, data);
    const script = join(work, 'direct.mjs');
    // Resolved from the test package, where @platform/stager-sdk is a dependency.
    await writeFile(script, DIRECT_SCRIPT.replace("'@platform/stager-sdk'", JSON.stringify(import.meta.resolve('@platform/stager-sdk'))));

    const staged: number[] = [];
    const direct: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      const created = await api.post<Package>('/packages', {
        fqn: `package::/bench::${unique('app')}`,
        resource: { length: data.length, digest: digestOf(data) },
        staging_pipeline: { uuid: pipeline.uuid },
      });
      const up = await rawPut(`${api.base}/packages/resources/${created.body.uuid}`, [data], data.length, api.defaultHeaders);
      if (up.status !== 200) throw new Error(`upload: ${up.status}`);
      const start = performance.now();
      for (;;) {
        const p = (await api.get<Package>(`/packages/${created.body.uuid}`)).body;
        if (p.state === 'failed') throw new Error(`staging failed: ${p.error_message}`);
        if (p.state === 'ready') break;
        await new Promise((r) => setTimeout(r, 5));
      }
      staged.push(performance.now() - start);

      const t0 = performance.now();
      execFileSync(process.execPath, [script, archiveFile], { stdio: 'inherit' });
      direct.push(performance.now() - t0);
    }
    const s = median(staged);
    const d = median(direct);
    process.stdout.write(
      `staging a small Node.js app (${data.length} bytes, ${Object.keys(appFiles()).length} files), ${RUNS} runs, median ms:\n` +
        `  upload end -> ready (nodejs pipeline, ${LOCAL ? 'local stager process' : `stager instance on an agent, ${isolation}`})  ${s.toFixed(0)}  (min ${Math.min(...staged).toFixed(0)}, max ${Math.max(...staged).toFixed(0)})\n` +
        `  direct script (node process: extract, move, pack, hash)  ${d.toFixed(0)}  (min ${Math.min(...direct).toFixed(0)}, max ${Math.max(...direct).toFixed(0)})\n` +
        `  staging overhead  ${(s - d).toFixed(0)} ms (${(s / d).toFixed(2)}x)\n`,
    );
  } finally {
    await agent?.dispose();
    await controller.dispose();
    await rm(work, { recursive: true, force: true });
  }
}

await main();
