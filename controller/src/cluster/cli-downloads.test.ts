import { mkdtemp, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import { silentLogger } from '@platform/proto/common';
import { CliDownloads } from './cli-downloads.js';

async function tempDir(t: { teardown(fn: () => Promise<void>): void }): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'cli-downloads-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

async function writeArchives(dir: string, version: string, body: string): Promise<void> {
  await writeFile(join(dir, 'platform-linux.tar.gz'), body);
  const manifest = { version, platforms: { linux: { kind: 'bundle', 'tar.gz': { file: 'platform-linux.tar.gz', size: Buffer.byteLength(body), sha256: 'ab'.repeat(32) } } } };
  await writeFile(join(dir, 'manifest.json'), JSON.stringify(manifest));
}

test('cli downloads: archives built after the start are served once the manifest appears, without a restart', async (t) => {
  const dir = await tempDir(t);
  let now = 0;
  const downloads = await CliDownloads.load(dir, silentLogger, () => now);
  const before = await downloads.current();
  t.is(before.get('linux', 'tar.gz'), undefined);
  t.regex(before.missing, /not built/);

  await writeArchives(dir, '1.2.3', 'archive');
  t.is((await downloads.current()).get('linux', 'tar.gz'), undefined, 'the manifest is looked at no more than once a second');
  now += 1000;
  const after = await downloads.current();
  t.is(after.version, '1.2.3');
  t.is(after.get('linux', 'tar.gz')?.size, 7);
  t.deepEqual(Object.keys(after.downloadUrls('http://api')), ['linux']);
});

test('cli downloads: a rebuilt manifest replaces the archives; an archive whose size differs is left out', async (t) => {
  const dir = await tempDir(t);
  await writeArchives(dir, '1.0.0', 'one');
  let now = 0;
  const downloads = await CliDownloads.load(dir, silentLogger, () => now);
  t.is((await downloads.current()).version, '1.0.0');

  await writeArchives(dir, '2.0.0', 'two!');
  // A rebuild within the same mtime tick must still be seen: the test moves the mtime itself.
  await utimes(join(dir, 'manifest.json'), new Date(), new Date(Date.now() + 5000));
  now += 1000;
  t.is((await downloads.current()).version, '2.0.0');

  await writeFile(join(dir, 'platform-linux.tar.gz'), 'truncated-or-changed');
  await utimes(join(dir, 'manifest.json'), new Date(), new Date(Date.now() + 10_000));
  now += 1000;
  t.is((await downloads.current()).get('linux', 'tar.gz'), undefined);
});
