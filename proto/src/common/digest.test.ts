import test from 'ava';
import { DigestError, formatDigest, parseDigest } from './digest.js';

const SHA256 = 'ab'.repeat(32);

test('digest: algorithm and hex, lower-cased; a bare hex is SHA-1 only when asked', (t) => {
  t.deepEqual(parseDigest(`SHA256:${SHA256.toUpperCase()}`), { algorithm: 'sha256', hex: SHA256 });
  t.deepEqual(parseDigest('a'.repeat(40), { bareIsSha1: true }), { algorithm: 'sha1', hex: 'a'.repeat(40) });
  t.is(formatDigest(parseDigest(`sha512:${'0'.repeat(128)}`)), `sha512:${'0'.repeat(128)}`);
});

test('digest: an unknown algorithm, a wrong length or a non-hex digit is a DigestError saying which', (t) => {
  const bare = t.throws(() => parseDigest('a'.repeat(40)), { instanceOf: DigestError });
  t.is(bare?.problem, 'algorithm');
  t.is(t.throws(() => parseDigest(`md5:${SHA256}`), { instanceOf: DigestError })?.problem, 'algorithm');
  t.is(t.throws(() => parseDigest(`toString:${SHA256}`), { instanceOf: DigestError })?.problem, 'algorithm');
  const short = t.throws(() => parseDigest('sha256:abc'), { instanceOf: DigestError });
  t.like(short, { problem: 'hex', algorithm: 'sha256', message: 'a sha256 digest has 64 hex digits' });
  t.is(t.throws(() => parseDigest(`sha256:${'g'.repeat(64)}`), { instanceOf: DigestError })?.problem, 'hex');
});
