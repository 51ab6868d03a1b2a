import { existsSync, lstatSync, mkdtempSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import { checkPlatformFiles, writePlatformFiles } from './platform-files.js';

const bytes = (s: string) => new TextEncoder().encode(s);

test('platform files: names are a few plain segments, each once, within a size', (t) => {
  t.deepEqual(checkPlatformFiles([{ name: 'secrets/db.pem', content: bytes('x') }]), [{ name: 'secrets/db.pem', content: 'eA==' }]);
  for (const name of ['../etc/passwd', 'secrets/../x', '/abs', '', 'a//b', '.hidden', 'a/b/c/d/e']) {
    t.throws(() => checkPlatformFiles([{ name, content: bytes('x') }]), { message: /is not 1 to 4 segments/ }, name);
  }
  t.throws(() => checkPlatformFiles([{ name: 'token', content: bytes('a') }, { name: 'token', content: bytes('b') }]), { message: /given twice/ });
  t.throws(() => checkPlatformFiles([{ name: 'big', content: new Uint8Array(5 * 1024 * 1024) }]), { message: /over 4194304 bytes/ });
});

test('platform files: written 0400 in a 0711 directory, replaced whole, a leftover link at the temporary name is not followed', (t) => {
  const base = mkdtempSync(join(tmpdir(), 'platform-files-'));
  t.teardown(() => rmSync(base, { recursive: true, force: true }));
  const dir = join(base, 'platform');
  writePlatformFiles(dir, checkPlatformFiles([{ name: 'token', content: bytes('one') }, { name: 'secrets/a', content: bytes('A') }]), undefined);
  t.is(statSync(dir).mode & 0o777, 0o711);
  t.is(statSync(join(dir, 'token')).mode & 0o777, 0o400);
  t.is(readFileSync(join(dir, 'secrets/a'), 'utf8'), 'A');
  // Something at the temporary name (a link to a file elsewhere) is removed, never written through.
  const victim = join(base, 'victim');
  writeFileSync(victim, 'untouched');
  symlinkSync(victim, join(dir, `token.${process.pid}.tmp`));
  writePlatformFiles(dir, checkPlatformFiles([{ name: 'token', content: bytes('two') }]), undefined);
  t.is(readFileSync(join(dir, 'token'), 'utf8'), 'two');
  t.is(readFileSync(victim, 'utf8'), 'untouched');
  t.false(existsSync(join(dir, `token.${process.pid}.tmp`)));
  t.false(lstatSync(join(dir, 'token')).isSymbolicLink());
});
