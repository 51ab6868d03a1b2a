import test from 'ava';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { listDirectory, listErrorOf } from './list.js';

test('files: errors name no host path, whatever the file system says', async (t) => {
  const root = await mkdtemp(join(tmpdir(), 'agent-list-'));
  t.teardown(() => rm(root, { recursive: true, force: true }));
  await mkdir(join(root, 'app'));
  for (const path of ['app\0', `app/${'x'.repeat(5000)}`, 'a'.repeat(300), `${'abc/'.repeat(1100)}`]) {
    const r = await listDirectory(root, path);
    t.true('kind' in r, path.slice(0, 20));
    if (!('kind' in r)) continue;
    t.false(r.error.includes(root), r.error);
    t.false(r.error.includes('/'), r.error);
  }
  t.deepEqual(listErrorOf(Object.assign(new Error(`ENAMETOOLONG: name too long, realpath '${root}/x'`), { code: 'ENAMETOOLONG' })), {
    kind: 'invalid',
    error: 'name_too_long',
  });
  t.deepEqual(listErrorOf(Object.assign(new Error(`EIO: i/o error, scandir '${root}'`), { code: 'EIO' })), { kind: 'internal', error: 'io_error EIO' });
  t.deepEqual(listErrorOf(new Error(`something about ${root}`)), { kind: 'internal', error: 'io_error' });
});
