import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import { MemoryStore } from '../store/memory-store.js';
import { parseKey, SecretCipher } from './secret-cipher.js';

test('secret cipher: a value opens only with its key and for the record it was sealed for', (t) => {
  const cipher = SecretCipher.of(randomBytes(32));
  const sealed = cipher.seal(Buffer.from('hunter2'), 'secret/a/1');
  t.false(JSON.stringify(sealed).includes('hunter2'));
  t.is(cipher.open(sealed, 'secret/a/1').toString(), 'hunter2');
  t.not(cipher.seal(Buffer.from('hunter2'), 'secret/a/1').data, sealed.data, 'a fresh nonce each time');
  t.throws(() => cipher.open(sealed, 'secret/b/1'), { message: /unable to authenticate|Unsupported state/ }, 'moved to another record');
  t.throws(() => cipher.open({ ...sealed, data: Buffer.from('x').toString('base64') }, 'secret/a/1'));
  // A tag cut short would be checked by what is left of it (GCM): refused, as a nonce of another size.
  const tag = Buffer.from(sealed.tag, 'base64');
  for (const cut of [4, 8, 12, 15]) t.throws(() => cipher.open({ ...sealed, tag: tag.subarray(0, cut).toString('base64') }, 'secret/a/1'), { message: /a 12-byte nonce and a 16-byte tag/ }, `a tag of ${cut} bytes`);
  t.throws(() => cipher.open({ ...sealed, iv: randomBytes(16).toString('base64') }, 'secret/a/1'), { message: /a 12-byte nonce and a 16-byte tag/ });
  const other = SecretCipher.of(randomBytes(32));
  t.throws(() => other.open(sealed, 'secret/a/1'), { message: /sealed with key [0-9a-f]{16}, and this controller's secrets key is [0-9a-f]{16}/ });
});

test('secret cipher: the key is the operator\'s file, or one made once in the data directory with mode 0600', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'secret-cipher-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  const made = await SecretCipher.open(dir);
  t.is((await stat(join(dir, 'secrets.key'))).mode & 0o777, 0o600);
  t.is((await SecretCipher.open(dir)).keyId, made.keyId, 'kept across starts');
  const key = randomBytes(32);
  await writeFile(join(dir, 'operator.key'), key.toString('hex'));
  t.is((await SecretCipher.open(dir, join(dir, 'operator.key'))).keyId, SecretCipher.of(key).keyId);
  t.deepEqual(parseKey(` ${key.toString('base64')}\n`, 'k'), key);
  t.throws(() => parseKey('too short', 'the secrets key file k'), { message: /the secrets key file k does not hold a key of 32 bytes/ });
  await t.throwsAsync(SecretCipher.open(dir, join(dir, 'missing.key')), { code: 'ENOENT' });
  t.regex(await readFile(join(dir, 'secrets.key'), 'utf8'), /^[A-Za-z0-9+/]{43}=\n$/);
});

test('secret cipher: with shared records the key is made once in the store, and every controller opens what another sealed', async (t) => {
  const store = new MemoryStore();
  const first = await SecretCipher.openShared(store);
  const sealed = first.seal(Buffer.from('hunter2'), 'secret/a/1');
  const next = await SecretCipher.openShared(store);
  t.is(next.keyId, first.keyId);
  t.is(next.open(sealed, 'secret/a/1').toString(), 'hunter2');
  // The operator's file, when given, wins: the same file on every controller.
  const dir = await mkdtemp(join(tmpdir(), 'secret-cipher-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  const key = randomBytes(32);
  await writeFile(join(dir, 'operator.key'), key.toString('base64'));
  t.is((await SecretCipher.openShared(store, join(dir, 'operator.key'))).keyId, SecretCipher.of(key).keyId);
});
