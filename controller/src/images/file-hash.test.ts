import test from 'ava';
import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { appendFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { followHash } from './file-hash.js';

function tempDir(t: { teardown: (f: () => void) => void }): string {
  const dir = mkdtempSync(join(tmpdir(), 'file-hash-test-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

const sha256 = (data: Buffer) => `sha256:${createHash('sha256').update(data).digest('hex')}`;

test('file hash: follows a file as it is written, several at once', async (t) => {
  const dir = tempDir(t);
  const datas = [randomBytes(3 * 1024 * 1024 + 17), randomBytes(100), Buffer.alloc(0)];
  const results = await Promise.all(
    datas.map(async (data, i) => {
      const file = join(dir, `f${i}`);
      await writeFile(file, '');
      const followed = followHash(file);
      for (let at = 0; at < data.length; at += 700_000) {
        await appendFile(file, data.subarray(at, at + 700_000));
        followed.written(Math.min(at + 700_000, data.length));
      }
      return followed.digest(data.length);
    }),
  );
  t.deepEqual(results, datas.map(sha256));
});

test('file hash: a file shorter than its writer says, or missing, fails its digest; a cancelled one is forgotten', async (t) => {
  const dir = tempDir(t);
  const short = join(dir, 'short');
  await writeFile(short, randomBytes(1000));
  await t.throwsAsync(followHash(short).digest(2000), { message: /ends at 1000 bytes, before 2000/ });
  await t.throwsAsync(followHash(join(dir, 'missing')).digest(10), { message: /ENOENT/ });
  const cancelled = followHash(short);
  cancelled.written(500);
  cancelled.cancel();
  // The thread still answers for the others.
  t.is(await followHash(short).digest(1000), sha256(await import('node:fs').then((fs) => fs.readFileSync(short))));
});
