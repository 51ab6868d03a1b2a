import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test, { type ExecutionContext } from 'ava';
import { checkBlobDir, MARKER_FILE, type MarkerRecord } from './blob-dir-marker.js';

/** The cluster's record, in memory (etcd's put-if-absent in production). */
function memoryRecord(initial?: string): MarkerRecord & { value: string | undefined } {
  const r = {
    value: initial,
    get: () => Promise.resolve(r.value),
    claim: (marker: string) => {
      r.value ??= marker;
      return Promise.resolve(r.value);
    },
  };
  return r;
}

async function dir(t: ExecutionContext): Promise<string> {
  const d = await mkdtemp(join(tmpdir(), 'blob-marker-'));
  t.teardown(() => rm(d, { recursive: true, force: true }));
  return d;
}

test('blob dir marker: the first controller makes it, in the directory and the record; one on the same directory shares it', async (t) => {
  const shared = await dir(t);
  const record = memoryRecord();
  const first = await checkBlobDir(shared, record, () => 'm1');
  t.deepEqual(first, { shared: true, expected: 'm1', found: 'm1', file: join(shared, MARKER_FILE) });
  t.is((await readFile(join(shared, MARKER_FILE), 'utf8')).trim(), 'm1');
  t.is(record.value, 'm1');
  const second = await checkBlobDir(shared, record, () => 'never');
  t.true(second.shared);
});

test('blob dir marker: a directory without the marker, or with another, is not shared, and is left as it is', async (t) => {
  const record = memoryRecord('m1');
  const empty = await dir(t);
  t.deepEqual(await checkBlobDir(empty, record, () => 'm2'), { shared: false, expected: 'm1', found: undefined, file: join(empty, MARKER_FILE) });
  await t.throwsAsync(readFile(join(empty, MARKER_FILE)), { code: 'ENOENT' });
  const other = await dir(t);
  await writeFile(join(other, MARKER_FILE), 'm9\n');
  t.like(await checkBlobDir(other, record), { shared: false, expected: 'm1', found: 'm9' });
  t.is(record.value, 'm1');
});

test('blob dir marker: with no record yet, a directory that has a marker gives it; two racing on different directories: one shares', async (t) => {
  const kept = await dir(t);
  await writeFile(join(kept, MARKER_FILE), 'old\n');
  const record = memoryRecord();
  t.like(await checkBlobDir(kept, record, () => 'new'), { shared: true, expected: 'old' });
  t.is(record.value, 'old');

  const race = memoryRecord();
  const [a, b] = await Promise.all([checkBlobDir(await dir(t), race, () => 'a'), checkBlobDir(await dir(t), race, () => 'b')]);
  t.deepEqual([a.shared, b.shared].sort(), [false, true]);
});
