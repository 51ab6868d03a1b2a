/**
 * Listings and snapshots read an instance root as root while the instance may change it: a
 * directory of the path swapped for a link to a host directory (here a stand-in for /etc) between
 * the check and the read must not make the agent list or pack the host's files. The swap is made
 * at the exact point an instance's loop would have to win.
 */
import test, { type ExecutionContext } from 'ava';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { mkdir, mkdtemp, rename, rm, symlink, writeFile } from 'node:fs/promises';
import { syncBuiltinESMExports } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { listDirectory } from './list.js';
import { packFiles, stageChangedFiles } from './snapshot.js';

async function setup() {
  const base = await mkdtemp(join(tmpdir(), 'agent-toctou-'));
  const root = join(base, 'root');
  const host = join(base, 'host-secret-dir');
  await mkdir(join(root, 'app', 'zzz'), { recursive: true });
  await mkdir(host);
  await writeFile(join(host, 'shadow'), 'root:HOST-SECRET-HASH:19000:0:99999:7:::\n');
  await writeFile(join(host, 'only-on-host.txt'), 'x');
  await writeFile(join(root, 'app', 'zzz', 'shadow'), 'decoy\n');
  await writeFile(join(root, 'app', 'kept.txt'), 'mine\n');
  return { base, root, host };
}

/** Runs `then` right after the `n`th call of fs.promises[`name`] has answered (the instance wins the race there). */
function after(t: ExecutionContext, name: 'realpath' | 'readdir', n: number, then: () => Promise<void>): void {
  const original = fs.promises[name] as (...args: unknown[]) => Promise<unknown>;
  let calls = 0;
  (fs.promises as unknown as Record<string, unknown>)[name] = async (...args: unknown[]) => {
    const r = await original(...args);
    if (++calls === n) await then();
    return r;
  };
  syncBuiltinESMExports();
  t.teardown(() => {
    (fs.promises as unknown as Record<string, unknown>)[name] = original;
    syncBuiltinESMExports();
  });
}

test.serial('list: a directory swapped for a link to a host directory after the check lists nothing of the host', async (t) => {
  const { base, root, host } = await setup();
  t.teardown(() => rm(base, { recursive: true, force: true }));
  // The second realpath is the directory asked for: the swap comes right after it resolved.
  after(t, 'realpath', 2, async () => {
    await rename(join(root, 'app', 'zzz'), join(root, 'app', 'zzz.old'));
    await symlink(host, join(root, 'app', 'zzz'));
  });
  const r = await listDirectory(root, 'app/zzz');
  t.true('kind' in r && r.kind === 'invalid', JSON.stringify(r)); // a link where the check saw a directory: refused
});

test.serial('snapshot: a directory, or a file, swapped for a link to the host during the walk packs nothing of the host', async (t) => {
  const { base, root, host } = await setup();
  t.teardown(() => rm(base, { recursive: true, force: true }));
  const staging = join(base, 'staging');
  await mkdir(staging);
  // After the walk read app/: zzz becomes a link to the host directory; after it read zzz.old/
  // (the next readdir), its shadow becomes a link to the host's file.
  after(t, 'readdir', 1, async () => {
    await rename(join(root, 'app', 'zzz'), join(root, 'app', 'zzz.old'));
    await symlink(host, join(root, 'app', 'zzz'));
  });
  const found = await stageChangedFiles(root, 'app', 0, staging);
  t.false('kind' in found);
  if ('kind' in found) return;
  t.teardown(() => rm(found.staging, { recursive: true, force: true }));
  const chunks: Buffer[] = [];
  for await (const c of packFiles(found.staging, found.files)) chunks.push(c as Buffer);
  const tar = Buffer.concat(chunks);
  const listing = spawnSync('tar', ['-tzf', '-'], { input: tar }).stdout.toString();
  const content = spawnSync('tar', ['-xzOf', '-'], { input: tar }).stdout.toString();
  t.false(content.includes('HOST-SECRET-HASH'), `the snapshot holds a host file: ${listing}`);
  t.false(listing.includes('only-on-host'), listing);
  t.true(listing.split('\n').includes('app/kept.txt'), `the instance's own files are packed: ${listing}`);
});

test('snapshot: changed regular files and links are packed with their modes, older ones and other kinds are not', async (t) => {
  const base = await mkdtemp(join(tmpdir(), 'agent-snap-'));
  t.teardown(() => rm(base, { recursive: true, force: true }));
  const root = join(base, 'root');
  await mkdir(join(root, 'app', 'bin'), { recursive: true });
  await writeFile(join(root, 'app', 'old.txt'), 'old');
  const since = Date.now() + 1_000;
  fs.utimesSync(join(root, 'app', 'old.txt'), new Date(since - 60_000), new Date(since - 60_000));
  await writeFile(join(root, 'app', 'bin', 'run'), '#!/bin/sh\n', { mode: 0o755 });
  fs.utimesSync(join(root, 'app', 'bin', 'run'), new Date(since + 1_000), new Date(since + 1_000));
  await symlink('bin/run', join(root, 'app', 'start'));
  fs.lutimesSync(join(root, 'app', 'start'), new Date(since + 1_000), new Date(since + 1_000));
  spawnSync('mkfifo', [join(root, 'app', 'pipe')]);
  const found = await stageChangedFiles(root, '/app', since, base);
  t.false('kind' in found);
  if ('kind' in found) return;
  t.deepEqual(found.files, ['app/bin/run', 'app/start']);
  const chunks: Buffer[] = [];
  for await (const c of packFiles(found.staging, found.files)) chunks.push(c as Buffer);
  const listing = spawnSync('tar', ['-tvzf', '-'], { input: Buffer.concat(chunks) }).stdout.toString();
  t.regex(listing, /^-rwxr-xr-x .* app\/bin\/run$/m);
  t.regex(listing, /^l\S+ .* app\/start -> bin\/run$/m);
  t.deepEqual(await stageChangedFiles(root, 'app/../..', 0, base), { kind: 'invalid', error: 'invalid_path' });
});
