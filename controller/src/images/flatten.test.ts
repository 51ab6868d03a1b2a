import test from 'ava';
import { createHash, randomBytes } from 'node:crypto';
import { createReadStream, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { PassThrough } from 'node:stream';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createGunzip, gunzipSync, gzipSync } from 'node:zlib';
import { MIB_BUFFERS } from './buffer-pool.js';
import { flattenLayers, PooledFileReader, type LayerFile } from './flatten.js';
import { readTar, TarWriter } from './tar-stream.js';

async function tar(files: Record<string, Buffer>): Promise<Buffer> {
  const out = new PassThrough();
  const chunks: Buffer[] = [];
  out.on('data', (c: Buffer) => chunks.push(c));
  const w = new TarWriter(out);
  for (const [path, body] of Object.entries(files)) {
    await w.add({ path, type: 'File', mode: 0o644, size: body.length }, (async function* () { yield body; })());
  }
  await w.finish();
  return Buffer.concat(chunks);
}

test('flatten: layers that do not compress (stored blocks) and layers that do (Huffman) make one valid archive with every byte', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'flatten-test-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const random = randomBytes(3 * 1024 * 1024);
  const text = Buffer.from('the quick brown fox jumps over the lazy dog\n'.repeat(50_000));
  const more = randomBytes(1024 * 1024 + 7);
  const layers: Record<string, Buffer>[] = [{ 'a/random': random }, { 'b/text': text }, { 'c/more': more }];
  const files = [];
  for (const [i, l] of layers.entries()) {
    const file = join(dir, `l${i}`);
    writeFileSync(file, gzipSync(await tar(l)));
    files.push({ digest: `sha256:${i}`, file });
  }
  const target = join(dir, 'out.tar.gz');
  const archive = await flattenLayers(files, target);
  t.is(archive.entries, 3);
  const seen: Record<string, Buffer> = {};
  for await (const { entry, body } of readTar(createReadStream(target).pipe(createGunzip()))) {
    const parts: Buffer[] = [];
    for await (const c of body) parts.push(c);
    seen[entry.path] = Buffer.concat(parts);
  }
  t.deepEqual(Object.keys(seen), ['a/random', 'b/text', 'c/more']);
  t.true(seen['a/random']!.equals(random));
  t.true(seen['b/text']!.equals(text));
  t.true(seen['c/more']!.equals(more));
  // The text layer was compressed (Huffman codes: about 4.3 bits a character here), the random ones stored.
  t.true(archive.length < random.length + more.length + text.length * 0.7, `${archive.length} bytes`);
});

test('flatten: with compression stored, a layer that compresses is stored too, into the same tar', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'flatten-test-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const text = Buffer.from('the quick brown fox jumps over the lazy dog\n'.repeat(50_000));
  const file = join(dir, 'l0');
  writeFileSync(file, gzipSync(await tar({ 'doc/text': text })));
  const layers = [{ digest: 'sha256:0', file }];
  const huffman = await flattenLayers(layers, join(dir, 'huffman.tar.gz'));
  const stored = await flattenLayers(layers, join(dir, 'stored.tar.gz'), [], { compression: 'stored' });
  t.true(huffman.length < text.length * 0.7, `${huffman.length} bytes`);
  t.true(stored.length > text.length, `${stored.length} bytes`);
  t.true(gunzipSync(readFileSync(join(dir, 'stored.tar.gz'))).equals(gunzipSync(readFileSync(join(dir, 'huffman.tar.gz')))));
});

test('flatten: plain tar layers (as the layer cache keeps them), several flattened at once, keep every byte', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'flatten-test-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  // Three images of their own (a chunk read for one must never show in another), with files of
  // sizes that put entry boundaries anywhere in the 1 MiB read chunks.
  const images = [0, 1, 2].map((n) => [
    { [`a${n}/one`]: randomBytes(2 * 1024 * 1024 + 100), [`a${n}/two`]: randomBytes(777), [`a${n}/three`]: randomBytes(1024 * 1024 - 300) },
    { [`b${n}/text`]: Buffer.from(`${n} the quick brown fox jumps over the lazy dog\n`.repeat(70_000)), [`b${n}/four`]: randomBytes(1024 * 1024 + 512) },
  ]);
  const layersOf: LayerFile[][] = [];
  for (const [n, contents] of images.entries()) {
    const layers: LayerFile[] = [];
    for (const [i, l] of contents.entries()) {
      const file = join(dir, `i${n}-l${i}`);
      const bytes = await tar(l);
      writeFileSync(file, bytes);
      layers.push({ digest: `sha256:${i}`, file, blobSize: i === 1 ? Math.floor(bytes.length / 4) : bytes.length });
    }
    layersOf.push(layers);
  }
  const archives = await Promise.all(layersOf.map((layers, n) => flattenLayers(layers, join(dir, `out${n}.tar.gz`))));
  for (const [n, archive] of archives.entries()) {
    const target = join(dir, `out${n}.tar.gz`);
    t.is(archive.digest, `sha256:${createHash('sha256').update(readFileSync(target)).digest('hex')}`);
    const seen: Record<string, Buffer> = {};
    for await (const { entry, body } of readTar(createReadStream(target).pipe(createGunzip()))) {
      const parts: Buffer[] = [];
      for await (const c of body) parts.push(c);
      seen[entry.path] = Buffer.concat(parts);
    }
    t.is(Object.keys(seen).length, 5);
    for (const l of images[n]!) for (const [path, body] of Object.entries(l)) t.true(seen[path]?.equals(body), `${path} in archive ${n}`);
  }
});

test('flatten: a layer file read in pooled chunks keeps each chunk intact until two more were asked for', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'flatten-test-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const data = randomBytes(6 * 1024 * 1024 + 5);
  const file = join(dir, 'plain');
  writeFileSync(file, data);
  const reader = (await PooledFileReader.open(file))!;
  const held: { chunk: Buffer; copy: Buffer }[] = [];
  let at = 0;
  for await (const chunk of reader.chunks()) {
    t.true(chunk.equals(data.subarray(at, at + chunk.length)));
    at += chunk.length;
    // Whatever the pool hands out meanwhile is scribbled over (as another pull would).
    const others = [MIB_BUFFERS.take(), MIB_BUFFERS.take(), MIB_BUFFERS.take()];
    for (const b of others) b.fill(0xaa);
    for (const b of others) MIB_BUFFERS.give(b);
    held.push({ chunk, copy: Buffer.from(chunk) });
    if (held.length > 2) held.shift();
    for (const h of held) t.true(h.chunk.equals(h.copy), 'a chunk changed before two more were asked for');
  }
  await reader.close();
  t.is(at, data.length);
  // Gzip files are not read this way (gunzip holds on to its input).
  const gz = join(dir, 'gz');
  writeFileSync(gz, gzipSync(data.subarray(0, 1000)));
  t.is(await PooledFileReader.open(gz), undefined);
});
