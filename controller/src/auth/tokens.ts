/**
 * Access tokens: JWTs signed with the cluster's ES256 key.
 *
 * The key pair is made on the first start of a data directory and kept in
 * `<data-dir>/auth/token-signing-key.jwk` (readable only by the controller's
 * user); controllers that share etcd keep it there instead, one key for all. Verification accepts exactly one algorithm (ES256: no `none`, no
 * switching to a symmetric algorithm), this cluster's issuer and audience, and
 * an unexpired token; anything else is a TokenInvalidError.
 */
import { createPrivateKey, sign as signBytes, type JsonWebKey, type KeyObject } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { exportJWK, generateKeyPair, importJWK, jwtVerify, SignJWT, errors as joseErrors, type JWK, type CryptoKey } from 'jose';
import { TokenInvalidError } from '../errors.js';
import type { Clock } from '../util/clock.js';
import { keys } from '../store/keys.js';
import type { Store } from '../store/store.js';
import { LruCache } from '../util/lru.js';

const ALGORITHM = 'ES256';

export interface TokenClaims {
  /** The principal, e.g. `admin@platform.local`. */
  sub: string;
  /** The user's name at its authentication mechanism, e.g. `admin`. */
  name: string;
  /** How the user authenticated: `basic` or `ldap`. */
  mechanism: string;
  /** For basic users: the password generation the token was issued in. */
  gen?: number;
  /** For basic users: the account the token was issued to (StoredUser.account). */
  acc?: string;
  /** What an identity provider said of the user (email, group...), for policy's conditions. */
  attrs?: Record<string, string | string[]>;
  /** For app tokens: the job's uuid. */
  job?: string;
  /** For app tokens: the turn of the job's app_token setting it was issued in (Job.app_token_since). */
  agen?: number;
  /** Expiry, UNIX seconds. */
  exp: number;
  iat: number;
}

interface KeyFile {
  private: JWK;
  public: JWK;
}

/** Verified tokens remembered, so that a token's signature is checked once, not per request. */
const VERIFIED_CACHE_SIZE = 10_000;

export class TokenService {
  /**
   * Tokens whose signature and claims were verified, keyed by the whole token
   * text: any other text (forged, altered) is not found and is verified in full.
   * Expiry is checked again on every use.
   */
  readonly #verified = new LruCache<string, TokenClaims>(VERIFIED_CACHE_SIZE, false);

  private constructor(
    private readonly privateKey: CryptoKey,
    private readonly publicKey: CryptoKey,
    readonly issuer: string,
    private readonly clock: Clock,
    /** The same private key for node:crypto, which signs synchronously (issueSync). */
    private readonly signingKey: KeyObject,
  ) {}

  /** Loads the signing key from the data directory, making it on first start. */
  static async open(dataDir: string, issuer: string, clock: Clock): Promise<TokenService> {
    const dir = join(dataDir, 'auth');
    const file = join(dir, 'token-signing-key.jwk');
    let pair: KeyFile;
    try {
      pair = JSON.parse(await readFile(file, 'utf8')) as KeyFile;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw new Error(`cannot read the token signing key ${file}`, { cause: err });
      pair = await TokenService.#generate();
      await mkdir(dir, { recursive: true, mode: 0o700 });
      await writeFile(file, JSON.stringify(pair), { mode: 0o600, flag: 'wx' });
    }
    return TokenService.#from(pair, issuer, clock);
  }

  /**
   * Loads the signing key from the cluster's store, making it on the first start: for
   * controllers that share their records in etcd, so that a token one of them issued is valid
   * at the others (only the leading controller runs this, so one key is ever made).
   */
  static async fromStore(store: Store, issuer: string, clock: Clock): Promise<TokenService> {
    const key = keys.meta('token-signing-key');
    const raw = await store.get(key);
    let pair: KeyFile;
    if (raw !== undefined) pair = JSON.parse(raw) as KeyFile;
    else {
      pair = await TokenService.#generate();
      await store.batch([{ type: 'put', key, value: JSON.stringify(pair) }]);
    }
    return TokenService.#from(pair, issuer, clock);
  }

  static async #generate(): Promise<KeyFile> {
    const pair = await generateKeyPair(ALGORITHM, { extractable: true });
    return { private: await exportJWK(pair.privateKey), public: await exportJWK(pair.publicKey) };
  }

  static async #from(pair: KeyFile, issuer: string, clock: Clock): Promise<TokenService> {
    const privateKey = (await importJWK(pair.private, ALGORITHM)) as CryptoKey;
    const publicKey = (await importJWK(pair.public, ALGORITHM)) as CryptoKey;
    return new TokenService(privateKey, publicKey, issuer, clock, createPrivateKey({ key: pair.private as JsonWebKey, format: 'jwk' }));
  }

  /** Signs a token for `principal`, valid for `ttlSeconds`. */
  async issue(
    principal: { sub: string; name: string; mechanism: string; gen?: number; acc?: string; attrs?: Record<string, string | string[]>; job?: string },
    ttlSeconds: number,
  ): Promise<string> {
    const now = Math.floor(this.clock.nowMs() / 1000);
    const claims = {
      name: principal.name,
      mechanism: principal.mechanism,
      ...(principal.gen === undefined ? {} : { gen: principal.gen }),
      ...(principal.acc === undefined ? {} : { acc: principal.acc }),
      ...(principal.attrs === undefined ? {} : { attrs: principal.attrs }),
      ...(principal.job === undefined ? {} : { job: principal.job }),
    };
    return new SignJWT(claims)
      .setProtectedHeader({ alg: ALGORITHM, typ: 'JWT' })
      .setSubject(principal.sub)
      .setIssuer(this.issuer)
      .setAudience(this.issuer)
      .setIssuedAt(now)
      .setExpirationTime(now + ttlSeconds)
      .sign(this.privateKey);
  }

  /**
   * Signs a token at once, without waiting: for what must be ready in the same turn (an app
   * token in the specification of an instance being started). The same token `issue` makes.
   */
  issueSync(principal: { sub: string; name: string; mechanism: string; job?: string; agen?: number }, ttlSeconds: number): { token: string; expiresAtMs: number } {
    const now = Math.floor(this.clock.nowMs() / 1000);
    const header = { alg: ALGORITHM, typ: 'JWT' };
    const payload = {
      name: principal.name,
      mechanism: principal.mechanism,
      ...(principal.job === undefined ? {} : { job: principal.job }),
      ...(principal.agen === undefined ? {} : { agen: principal.agen }),
      sub: principal.sub,
      iss: this.issuer,
      aud: this.issuer,
      iat: now,
      exp: now + ttlSeconds,
    };
    const input = `${Buffer.from(JSON.stringify(header)).toString('base64url')}.${Buffer.from(JSON.stringify(payload)).toString('base64url')}`;
    const signature = signBytes('sha256', Buffer.from(input), { key: this.signingKey, dsaEncoding: 'ieee-p1363' });
    return { token: `${input}.${signature.toString('base64url')}`, expiresAtMs: (now + ttlSeconds) * 1000 };
  }

  /**
   * The claims of a token verified before and still unexpired, synchronously;
   * undefined when it must be verified (in full) with `verify`.
   */
  remembered(token: string): TokenClaims | undefined {
    const known = this.#verified.get(token);
    if (known && this.unexpired(known)) return known;
    return undefined;
  }

  /** Whether verified claims have not expired yet. */
  unexpired(claims: TokenClaims): boolean {
    return claims.exp * 1000 > this.clock.nowMs();
  }

  /** The claims of a valid token; a TokenInvalidError saying why otherwise. */
  async verify(token: string): Promise<TokenClaims> {
    const known = this.#verified.get(token);
    if (known) {
      if (known.exp * 1000 <= this.clock.nowMs()) {
        this.#verified.delete(token);
        throw new TokenInvalidError('the token has expired; get a new one');
      }
      return known;
    }
    const claims = await this.#verifyFully(token);
    this.#verified.set(token, claims);
    return claims;
  }

  async #verifyFully(token: string): Promise<TokenClaims> {
    try {
      const { payload } = await jwtVerify(token, this.publicKey, {
        algorithms: [ALGORITHM],
        issuer: this.issuer,
        audience: this.issuer,
        currentDate: new Date(this.clock.nowMs()),
        requiredClaims: ['sub', 'exp', 'iat'],
      });
      if (typeof payload.name !== 'string' || typeof payload.mechanism !== 'string') {
        throw new TokenInvalidError('the token lacks the name or mechanism claim');
      }
      return payload as unknown as TokenClaims;
    } catch (err) {
      if (err instanceof TokenInvalidError) throw err;
      if (err instanceof joseErrors.JWTExpired) throw new TokenInvalidError('the token has expired; get a new one', { cause: err });
      if (err instanceof joseErrors.JOSEAlgNotAllowed) throw new TokenInvalidError(`the token is not signed with ${ALGORITHM}`, { cause: err });
      if (err instanceof joseErrors.JWSSignatureVerificationFailed) throw new TokenInvalidError('the token signature is not valid', { cause: err });
      if (err instanceof joseErrors.JWTClaimValidationFailed) throw new TokenInvalidError(`the token is not valid here: ${err.message}`, { cause: err });
      throw new TokenInvalidError('the token is malformed', { cause: err });
    }
  }
}
