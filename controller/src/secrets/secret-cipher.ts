/**
 * The encryption of secret values at rest: AES-256-GCM with a random 96-bit nonce per value and
 * the record's identity (uuid and version) as additional data, so that a ciphertext moved to
 * another record or version does not decrypt.
 *
 * The key is the operator's (a file holding 32 bytes as base64 or hex, PLATFORM_SECRETS_KEY_FILE)
 * or, without one, made on the first start and kept in `<data-dir>/secrets.key` (0600, readable
 * by the controller's user only); with the records in etcd, kept there (`openShared`). Each value records the key's id (the first 8 bytes of its
 * SHA-256, hex), so that a controller started with another key says so instead of failing to
 * decrypt.
 */
import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { keys } from '../store/keys.js';
import type { Store } from '../store/store.js';

/** A value as stored. */
export interface SealedValue {
  /** The key's id. */
  key: string;
  iv: string;
  tag: string;
  data: string;
}

const ALGORITHM = 'aes-256-gcm';
const IV_BYTES = 12;
const TAG_BYTES = 16;

/** The key file's text as 32 bytes: base64 (44 characters) or hex (64). */
export function parseKey(text: string, where: string): Buffer {
  const t = text.trim();
  const key = /^[0-9a-fA-F]{64}$/.test(t) ? Buffer.from(t, 'hex') : /^[A-Za-z0-9+/_-]{43}=?$/.test(t) ? Buffer.from(t, 'base64') : undefined;
  if (!key || key.length !== 32) throw new Error(`${where} does not hold a key of 32 bytes as base64 or hex (make one with: openssl rand -base64 32)`);
  return key;
}

export class SecretCipher {
  readonly keyId: string;

  private constructor(private readonly key: Buffer) {
    this.keyId = createHash('sha256').update(key).digest('hex').slice(0, 16);
  }

  /** The operator's key file, or the data directory's key (made on first start). */
  static async open(dataDir: string, keyFile?: string): Promise<SecretCipher> {
    if (keyFile) return new SecretCipher(parseKey(await readFile(keyFile, 'utf8'), `the secrets key file ${keyFile}`));
    const file = join(dataDir, 'secrets.key');
    try {
      return new SecretCipher(parseKey(await readFile(file, 'utf8'), `the secrets key file ${file}`));
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    }
    const key = randomBytes(32);
    await writeFile(file, `${key.toString('base64')}\n`, { mode: 0o600, flag: 'wx' });
    return new SecretCipher(key);
  }

  /**
   * With the records in etcd, shared by several controllers: the operator's key file (the same
   * on every controller), or else a key made once and kept in the store (`meta/secrets-key`), so
   * that a controller that takes over opens the secrets the one before sealed. Kept in etcd, the
   * key protects the values only as far as etcd's access does: give a key file for more.
   */
  static async openShared(store: Store, keyFile?: string): Promise<SecretCipher> {
    if (keyFile) return SecretCipher.open('', keyFile);
    const at = keys.meta('secrets-key');
    const kept = await store.get(at);
    if (kept !== undefined) return new SecretCipher(parseKey(kept, `the secrets key in the store (${at})`));
    const key = randomBytes(32);
    await store.batch([{ type: 'put', key: at, value: key.toString('base64') }]);
    return new SecretCipher(key);
  }

  /** For tests: a cipher of a given key. */
  static of(key: Buffer): SecretCipher {
    return new SecretCipher(key);
  }

  seal(value: Buffer, context: string): SealedValue {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv(ALGORITHM, this.key, iv, { authTagLength: TAG_BYTES });
    cipher.setAAD(Buffer.from(context));
    const data = Buffer.concat([cipher.update(value), cipher.final()]);
    return { key: this.keyId, iv: iv.toString('base64'), tag: cipher.getAuthTag().toString('base64'), data: data.toString('base64') };
  }

  /**
   * The value; throws when it was sealed with another key, for another record, or altered. The
   * nonce must be 12 bytes and the tag whole (16): a sealed value may come from a client (the
   * device flow's refresh tokens), and GCM would otherwise check a tag cut to 4 bytes by its 4
   * bytes, so that a forgery needs 2^32 tries instead of 2^128.
   */
  open(sealed: SealedValue, context: string): Buffer {
    if (sealed.key !== this.keyId) throw new Error(`sealed with key ${sealed.key}, and this controller's secrets key is ${this.keyId}`);
    const iv = Buffer.from(String(sealed.iv), 'base64');
    const tag = Buffer.from(String(sealed.tag), 'base64');
    if (iv.length !== IV_BYTES || tag.length !== TAG_BYTES) throw new Error(`a sealed value has a ${IV_BYTES}-byte nonce and a ${TAG_BYTES}-byte tag`);
    const decipher = createDecipheriv(ALGORITHM, this.key, iv, { authTagLength: TAG_BYTES });
    decipher.setAAD(Buffer.from(context));
    decipher.setAuthTag(tag);
    return Buffer.concat([decipher.update(Buffer.from(sealed.data, 'base64')), decipher.final()]);
  }
}
