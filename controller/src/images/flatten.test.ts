import test from 'ava';
import { randomBytes } from 'node:crypto';
import { createReadStream, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { PassThrough } from 'node:stream';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createGunzip, gunzipSync, gzipSync } from 'node:zlib';
import { flattenLayers } from './flatten.js';
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
