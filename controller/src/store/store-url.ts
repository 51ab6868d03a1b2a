/**
 * `--store` (PLATFORM_STORE): where the cluster's records live. Empty or `rocksdb`: this
 * controller's RocksDB in its data directory (the default). `etcd://host:port[,host:port...]`:
 * etcd, with its settings from the environment:
 *
 *   PLATFORM_ETCD_USER, PLATFORM_ETCD_PASSWORD (or PLATFORM_ETCD_PASSWORD_FILE)
 *                                       etcd's authentication
 *   PLATFORM_ETCD_CA, PLATFORM_ETCD_CERT, PLATFORM_ETCD_KEY
 *                                       files: TLS to etcd (`etcds://` needs the CA), with a
 *                                       client certificate when etcd asks for one
 *   PLATFORM_ETCD_PREFIX                where the keys live (default /platform/)
 *   PLATFORM_ETCD_MAX_TXN_OPS, PLATFORM_ETCD_MAX_REQUEST_BYTES
 *                                       etcd's own bounds, when set otherwise than etcd's defaults
 *   PLATFORM_ETCD_TIMEOUT_MS            bound of one call to etcd (default 10000)
 *   PLATFORM_ETCD_RESOLVE_MS            how long the outcome of a write whose answer was lost is
 *                                       sought before the controller stands down (default: the timeout)
 *
 * A password is never taken from the URL (it would show in `ps`).
 */
import { readFileSync } from 'node:fs';
import { parseHostPort } from '@platform/proto/common';
import type { EtcdStoreOptions } from './etcd-store.js';

export class StoreUrlError extends Error {
  override readonly name = 'StoreUrlError';
}

/** undefined for RocksDB; etcd's options otherwise. Throws StoreUrlError naming what is wrong. */
export function parseStoreUrl(url: string, env: NodeJS.ProcessEnv, read: (path: string) => Buffer = (p) => readFileSync(p)): EtcdStoreOptions | undefined {
  if (url === '' || url === 'rocksdb') return undefined;
  const match = /^(etcds?):\/\/([^/?#@]+)\/?$/.exec(url);
  if (!match) throw new StoreUrlError(`--store "${url}" is neither rocksdb nor etcd://host:port[,host:port...] (etcds:// for TLS); users and passwords go in PLATFORM_ETCD_USER and PLATFORM_ETCD_PASSWORD`);
  const endpoints = match[2]!.split(',').map((e) => {
    try {
      const { host, port } = parseHostPort(e, '--store');
      return `${host.includes(':') ? `[${host}]` : host}:${port}`;
    } catch (err) {
      throw new StoreUrlError(`--store "${url}": ${(err as Error).message}`);
    }
  });
  const file = (name: string): Buffer | undefined => {
    const path = env[name];
    if (!path) return undefined;
    try {
      return read(path);
    } catch (err) {
      throw new StoreUrlError(`${name}="${path}": ${(err as Error).message}`);
    }
  };
  const int = (name: string): number | undefined => {
    const v = env[name];
    if (v === undefined || v === '') return undefined;
    if (!/^[1-9]\d{0,9}$/.test(v)) throw new StoreUrlError(`${name}="${v}" is not a whole number above 0`);
    return Number(v);
  };
  const options: EtcdStoreOptions = { endpoints };
  const user = env['PLATFORM_ETCD_USER'];
  const password = env['PLATFORM_ETCD_PASSWORD'] ?? file('PLATFORM_ETCD_PASSWORD_FILE')?.toString('utf8').trim();
  if (user && password === undefined) throw new StoreUrlError('PLATFORM_ETCD_USER needs PLATFORM_ETCD_PASSWORD or PLATFORM_ETCD_PASSWORD_FILE');
  if (!user && password !== undefined) throw new StoreUrlError('PLATFORM_ETCD_PASSWORD needs PLATFORM_ETCD_USER');
  if (user) options.auth = { username: user, password: password! };
  const ca = file('PLATFORM_ETCD_CA');
  const cert = file('PLATFORM_ETCD_CERT');
  const key = file('PLATFORM_ETCD_KEY');
  if (match[1] === 'etcds') {
    if (!ca) throw new StoreUrlError('etcds:// needs PLATFORM_ETCD_CA, the CA that signed etcd\'s certificate');
    if (!cert !== !key) throw new StoreUrlError('PLATFORM_ETCD_CERT and PLATFORM_ETCD_KEY go together');
    options.tls = { ca, ...(cert && key ? { cert, key } : {}) };
  } else if (ca || cert || key) {
    throw new StoreUrlError('PLATFORM_ETCD_CA, _CERT and _KEY are for TLS: use etcds://');
  }
  const prefix = env['PLATFORM_ETCD_PREFIX'];
  if (prefix !== undefined && prefix !== '') {
    if (!/^\/[\x21-\x7e]*\/$/.test(prefix)) throw new StoreUrlError(`PLATFORM_ETCD_PREFIX="${prefix}" must start and end with / and hold printable ASCII only`);
    options.prefix = prefix;
  }
  const maxTxnOps = int('PLATFORM_ETCD_MAX_TXN_OPS');
  if (maxTxnOps !== undefined) options.maxTxnOps = maxTxnOps;
  const maxRequestBytes = int('PLATFORM_ETCD_MAX_REQUEST_BYTES');
  if (maxRequestBytes !== undefined) options.maxRequestBytes = maxRequestBytes;
  const timeoutMs = int('PLATFORM_ETCD_TIMEOUT_MS');
  if (timeoutMs !== undefined) options.timeoutMs = timeoutMs;
  const resolveMs = int('PLATFORM_ETCD_RESOLVE_MS');
  if (resolveMs !== undefined) options.resolveMs = resolveMs;
  return options;
}
