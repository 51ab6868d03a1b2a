/** Hand-made JWTs, for tests that check how the controller refuses forged tokens. */
import { createHmac, createPrivateKey, generateKeyPairSync, sign, type JsonWebKey, type KeyObject } from 'node:crypto';

const b64url = (data: string | Buffer) => Buffer.from(data).toString('base64url');

export function encodeUnsigned(header: object, payload: object): string {
  return `${b64url(JSON.stringify(header))}.${b64url(JSON.stringify(payload))}`;
}

/** ES256 over header.payload with `key` (raw r||s signature, as JWS wants). */
export function signEs256(header: object, payload: object, key: KeyObject): string {
  const input = encodeUnsigned(header, payload);
  const signature = sign('sha256', Buffer.from(input), { key, dsaEncoding: 'ieee-p1363' });
  return `${input}.${b64url(signature)}`;
}

export function signHs256(header: object, payload: object, secret: string): string {
  const input = encodeUnsigned(header, payload);
  return `${input}.${createHmac('sha256', secret).update(input).digest('base64url')}`;
}

export function randomEs256Key(): KeyObject {
  return generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey;
}

export function privateKeyFromJwk(jwk: object): KeyObject {
  return createPrivateKey({ key: jwk as JsonWebKey, format: 'jwk' });
}

export function decodePayload(token: string): Record<string, unknown> {
  return JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString('utf8')) as Record<string, unknown>;
}

/** The JSON in a `userinfo=<base64>; ...` Set-Cookie line of the token endpoint. */
export function decodeUserinfo(setCookie: string): Record<string, unknown> {
  return JSON.parse(Buffer.from(setCookie.slice('userinfo='.length).split(';')[0]!, 'base64').toString('utf8')) as Record<string, unknown>;
}
