import { createHash, randomBytes } from 'node:crypto';
import test from 'ava';
import { Sha256 } from './sha256.js';

const node = (data: Uint8Array) => createHash('sha256').update(data).digest('hex');

test('sha256: equals node:crypto for every length around the block and padding edges', (t) => {
  for (let n = 0; n <= 200; n++) {
    const data = randomBytes(n);
    t.is(new Sha256().update(data).hex(), node(data), `length ${n}`);
  }
});

test('sha256: chunks of any size give the digest of the whole', (t) => {
  const data = randomBytes(1_000_003);
  const h = new Sha256();
  for (let at = 0; at < data.length; ) {
    const size = 1 + Math.floor(Math.random() * 5000);
    h.update(data.subarray(at, at + size));
    at += size;
  }
  t.is(h.hex(), node(data));
  t.is(new Sha256().update(new TextEncoder().encode('abc')).hex(), 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
});
