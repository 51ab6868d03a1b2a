import test from 'ava';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { gunzipSync } from 'node:zlib';
import { flattenLayers, type LayerFile } from './flatten.js';
import { LiveFlatten } from './flatten-live.js';
import { GrowingLayer } from './layer-cache.js';
import { TarWriter } from './tar-stream.js';

type Spec =
  | { path: string; type: 'dir'; mode?: number }
  | { path: string; type: 'file'; body: Buffer }
  | { path: string; type: 'symlink'; to: string }
  | { path: string; type: 'link'; to: string };

async function tar(entries: Spec[]): Promise<Buffer> {
  const out = new PassThrough();
  const chunks: Buffer[] = [];
  out.on('data', (c: Buffer) => chunks.push(c));
  const w = new TarWriter(out);
  for (const e of entries) {
    if (e.type === 'dir') await w.add({ path: e.path, type: 'Directory', mode: e.mode ?? 0o755, size: 0 });
    else if (e.type === 'symlink') await w.add({ path: e.path, type: 'SymbolicLink', mode: 0o777, size: 0, linkpath: e.to });
    else if (e.type === 'link') await w.add({ path: e.path, type: 'Link', mode: 0o644, size: 0, linkpath: e.to });
    else await w.add({ path: e.path, type: 'File', mode: 0o644, size: e.body.length }, (async function* () { yield e.body; })());
  }
  await w.finish();
  return Buffer.concat(chunks);
}

const file = (path: string, size = 1000): Spec => ({ path, type: 'file', body: randomBytes(size) });
const dir = (path: string, mode?: number): Spec => ({ path, type: 'dir', ...(mode === undefined ? {} : { mode }) });

function workDir(t: { teardown: (f: () => void) => void }): string {
  const d = mkdtempSync(join(tmpdir(), 'flatten-live-test-'));
  t.teardown(() => rmSync(d, { recursive: true, force: true }));
  return d;
}

/**
 * Runs the speculative flattening over `layers` (tars, lowest first), each either a complete
 * cache file or a download followed as it is written (in pieces, while the flattening reads).
 */
async function live(d: string, layers: Buffer[], how: 'file' | 'growing', fail?: number, compression?: 'stored' | 'huffman', blobRatio = 1) {
  const files: LayerFile[] = layers.map((body, i) => {
    const f = join(d, `layer${i}`);
    writeFileSync(f, body);
    return { digest: `sha256:${i}`, file: f, blobSize: body.length };
  });
  const flatten = new LiveFlatten(layers.length);
  const target = join(d, `live-${how}.tar.gz`);
  const running = flatten.run(target, compression ? { compression } : {});
  const feeding = layers.map(async (body, i) => {
    if (how === 'file') return flatten.provide(i, { file: files[i]! });
    const f = join(d, `growing${i}`);
    const writer = await open(f, 'wx');
    // The blob, compressed to `blobRatio` of the tar.
    const growing = new GrowingLayer(`sha256:${i}`, Math.round(body.length * blobRatio), await open(f, 'r'));
    flatten.provide(i, { growing });
    let written = 0;
    for (let at = 0; at < body.length; at += 7000) {
      const piece = body.subarray(at, at + 7000);
      growing.made(piece, Math.round((at + piece.length) * blobRatio));
      await writer.write(piece, 0, piece.length, at);
      written += piece.length;
      growing.written(written);
      await new Promise((resolve) => setImmediate(resolve));
      if (fail === i && at > body.length / 2) break;
    }
    await writer.close();
    growing.end(fail === i ? new Error('the download failed') : undefined);
  });
  await Promise.all(feeding);
  const archive = await running;
  await flatten.close();
  return { archive, target, files };
}

async function twoPass(d: string, files: LayerFile[]) {
  const target = join(d, 'two-pass.tar.gz');
  const archive = await flattenLayers(files, target);
  return { archive, tar: gunzipSync(readFileSync(target)) };
}

for (const how of ['file', 'growing'] as const) {
  test(`flatten-live: layers that hide nothing are flattened in one pass into the same tar as the two passes make (${how})`, async (t) => {
    const d = workDir(t);
    const layers = [
      await tar([dir('base'), file('base/a', 300_000), file('base/b'), { path: 'base/link', type: 'symlink', to: '/base/a' }]),
      await tar([dir('lib'), file('lib/text', 2_000_000), { path: 'lib/hard', type: 'link', to: 'base/b' }, { path: 'base/.wh.nothing', type: 'file', body: Buffer.alloc(0) }]),
      await tar([dir('app'), file('app/big', 3_000_000), { path: 'app/.wh..wh..opq', type: 'file', body: Buffer.alloc(0) }]),
    ];
    const { archive, target, files } = await live(d, layers, how);
    t.truthy(archive, 'made in one pass');
    const two = await twoPass(d, files);
    t.is(archive!.entries, two.archive.entries);
    t.true(gunzipSync(readFileSync(target)).equals(two.tar));
  });
}

test('flatten-live: a directory over a directory of the same mode keeps one pass; of another mode it does not', async (t) => {
  const d = workDir(t);
  const same = await live(d, [await tar([dir('usr'), file('usr/a')]), await tar([dir('usr'), file('usr/b')])], 'growing');
  t.truthy(same.archive);
  t.is(same.archive!.entries, 4);
  const other = await live(workDir(t), [await tar([dir('tmp', 0o1777), file('tmp/a')]), await tar([dir('tmp', 0o755), file('tmp/b')])], 'file');
  t.is(other.archive, undefined);
});

const hiding: [string, Spec[], Spec[]][] = [
  ['a whiteout', [dir('etc'), file('etc/gone')], [{ path: 'etc/.wh.gone', type: 'file', body: Buffer.alloc(0) }]],
  ['an opaque directory', [dir('var'), file('var/old')], [dir('var'), { path: 'var/.wh..wh..opq', type: 'file', body: Buffer.alloc(0) }, file('var/new')]],
  ['a file over a file', [file('conf')], [file('conf')]],
  ['a file over a directory', [dir('data'), file('data/x')], [file('data')]],
  ['a directory over a file', [file('data')], [dir('data'), file('data/x')]],
  ['a symlink over a directory', [dir('opt'), file('opt/x')], [{ path: 'opt', type: 'symlink', to: 'usr' }]],
];
for (const [what, lower, upper] of hiding) {
  test(`flatten-live: ${what} in a higher layer falls back to the two passes`, async (t) => {
    const d = workDir(t);
    const { archive, target, files } = await live(d, [await tar(lower), await tar(upper)], 'growing');
    t.is(archive, undefined);
    // The two passes then write the same file again from the cache files.
    const two = await flattenLayers(files, target);
    t.true(two.entries > 0);
  });
}

test('flatten-live: a hard link to a file not written before, or a download that fails, ends the speculation without refusing', async (t) => {
  const link = await live(workDir(t), [await tar([{ path: 'early', type: 'link', to: 'late' }]), await tar([file('late')])], 'file');
  t.is(link.archive, undefined);
  const failed = await live(workDir(t), [await tar([file('a', 200_000)]), await tar([file('b', 200_000)])], 'growing', 1);
  t.is(failed.archive, undefined);
});

test('flatten-live: layers never provided after a failed pull end the run, and downloads provided late are released', async (t) => {
  const d = workDir(t);
  const flatten = new LiveFlatten(2);
  const running = flatten.run(join(d, 'x.tar.gz'));
  flatten.fail(new Error('the pull failed'));
  t.is(await running, undefined);
  await flatten.close();
  writeFileSync(join(d, 'late'), '');
  const reader = await open(join(d, 'late'), 'r');
  flatten.provide(1, { growing: new GrowingLayer('sha256:1', 0, reader) });
  await t.throwsAsync(reader.stat()); // closed
});

test('flatten-live: text is Huffman-coded by default and stored when the operator says so, into the same tar', async (t) => {
  const text: Spec = { path: 'doc/text', type: 'file', body: Buffer.from('the quick brown fox jumps over the lazy dog\n'.repeat(60_000)) };
  const layers = [await tar([dir('doc'), text])];
  const huffman = await live(workDir(t), layers, 'growing', undefined, undefined, 0.3);
  const stored = await live(workDir(t), layers, 'growing', undefined, 'stored', 0.3);
  t.true(huffman.archive!.length < layers[0]!.length * 0.7, `${huffman.archive!.length} bytes`);
  t.true(stored.archive!.length > layers[0]!.length, `${stored.archive!.length} bytes`);
  t.true(gunzipSync(readFileSync(stored.target)).equals(gunzipSync(readFileSync(huffman.target))));
});
