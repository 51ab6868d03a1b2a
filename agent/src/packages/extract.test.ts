import test from 'ava';
import { mkdtempSync, readFileSync, readlinkSync, writeFileSync, existsSync, lstatSync, mkdirSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { extractArchive, UnsafeArchiveError } from './extract.js';
import { makeTarGz, type TarEntry } from '../test-support/tar.js';

function setup(entries: TarEntry[]): { archive: string; root: string; base: string } {
  const base = mkdtempSync(join(tmpdir(), 'agent-extract-'));
  const archive = join(base, 'a.tar.gz');
  writeFileSync(archive, makeTarGz(entries));
  const root = join(base, 'root');
  mkdirSync(root);
  return { archive, root, base };
}

test('extract: files, directories, relative links and hard links land under the install path', async (t) => {
  const { archive, root } = setup([
    { path: '/app/', type: 'Directory' },
    { path: '/app/index.html', body: '<h1>hi</h1>' },
    { path: './app/bin/run.sh', body: '#!/bin/sh\necho run\n', mode: 0o4755 },
    { path: 'app/current', type: 'SymbolicLink', linkpath: 'bin' },
    { path: 'app/copy.html', type: 'Link', linkpath: '/app/index.html' },
  ]);
  const r = await extractArchive(archive, root, '/');
  t.is(r.entries, 5);
  t.is(readFileSync(join(root, 'app/index.html'), 'utf8'), '<h1>hi</h1>');
  t.is(readlinkSync(join(root, 'app/current')), 'bin');
  t.is(readFileSync(join(root, 'app/copy.html'), 'utf8'), '<h1>hi</h1>');
  t.is(lstatSync(join(root, 'app/copy.html')).ino, lstatSync(join(root, 'app/index.html')).ino);
  t.is(lstatSync(join(root, 'app/bin/run.sh')).mode & 0o7777, 0o755, 'setuid dropped');
});

test('extract: an install path puts the archive below it', async (t) => {
  const { archive, root } = setup([{ path: 'bin/node', body: 'x' }]);
  await extractArchive(archive, root, '/opt/node');
  t.true(existsSync(join(root, 'opt/node/bin/node')));
});

const refused: [string, TarEntry[], RegExp][] = [
  ['a ".." component', [{ path: '../evil', body: 'x' }], /"\.\.\/evil" has a "\.\." component/],
  ['an absolute path escaping with ".."', [{ path: '/../../etc/evil', body: 'x' }], /has a "\.\." component/],
  ['a ".." in the middle', [{ path: 'app/../../evil', body: 'x' }], /has a "\.\." component/],
  ['a symlink pointing out', [{ path: 'app/link', type: 'SymbolicLink', linkpath: '../../etc' }], /points outside the root/],
  ['an absolute symlink', [{ path: 'app/passwd', type: 'SymbolicLink', linkpath: '/etc/passwd' }], /is absolute/],
  ['a hard link out of the root', [{ path: 'app/h', type: 'Link', linkpath: '../../etc/passwd' }], /has a "\.\." component/],
  ['a hard link to nothing extracted', [{ path: 'app/h', type: 'Link', linkpath: 'etc/passwd' }], /does not name a file/],
  ['a character device', [{ path: 'dev/null2', type: 'CharacterDevice' }], /device file; refused/],
  ['a block device', [{ path: 'dev/sda9', type: 'BlockDevice' }], /device file; refused/],
  ['a FIFO', [{ path: 'app/pipe', type: 'FIFO' }], /FIFO; refused/],
  ['a file written through a symlink of the archive',
    [{ path: 'app/d', type: 'SymbolicLink', linkpath: '.' }, { path: 'app/d/x', body: 'x' }], /is a symlink; refusing to write through it/],
];

for (const [name, entries, message] of refused) {
  test(`extract: refuses ${name}`, async (t) => {
    const { archive, root, base } = setup(entries);
    const err = await t.throwsAsync(extractArchive(archive, root, '/'), { instanceOf: UnsafeArchiveError });
    t.regex(err.message, message);
    t.false(existsSync(join(base, 'evil')));
    t.false(existsSync('/etc/evil'));
  });
}

test('extract: refuses a symlink planted in the root before (a dependency package) as a path component', async (t) => {
  const { archive, root, base } = setup([{ path: 'data/x', body: 'x' }]);
  mkdirSync(join(base, 'outside'));
  symlinkSync(join(base, 'outside'), join(root, 'data'));
  await t.throwsAsync(extractArchive(archive, root, '/'), { message: /symlink/ });
  t.false(existsSync(join(base, 'outside/x')));
});

test('extract: a corrupt archive is a clear error', async (t) => {
  const base = mkdtempSync(join(tmpdir(), 'agent-extract-'));
  const archive = join(base, 'bad.tar.gz');
  writeFileSync(archive, Buffer.from('this is not a tar archive at all'.repeat(40)));
  mkdirSync(join(base, 'root'));
  await t.throwsAsync(extractArchive(archive, join(base, 'root'), '/'), { message: /not a valid tar archive|Unrecognized/ });
});
