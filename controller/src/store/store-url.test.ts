import test from 'ava';
import { parseStoreUrl, StoreUrlError } from './store-url.js';

const files: Record<string, string> = { '/ca.pem': 'CA', '/cert.pem': 'CERT', '/key.pem': 'KEY', '/pw': 'secret\n' };
const read = (p: string) => {
  const f = files[p];
  if (f === undefined) throw new Error('ENOENT: no such file');
  return Buffer.from(f);
};

test('store url: rocksdb by default; etcd endpoints, user and password, prefix and bounds from the environment', (t) => {
  t.is(parseStoreUrl('', {}, read), undefined);
  t.is(parseStoreUrl('rocksdb', {}, read), undefined);
  t.deepEqual(parseStoreUrl('etcd://10.0.0.1:2379,etcd-b:2379,[::1]:2379', {}, read), { endpoints: ['10.0.0.1:2379', 'etcd-b:2379', '[::1]:2379'] });
  t.deepEqual(
    parseStoreUrl('etcd://e:2379/', { PLATFORM_ETCD_USER: 'platform', PLATFORM_ETCD_PASSWORD_FILE: '/pw', PLATFORM_ETCD_PREFIX: '/prod/', PLATFORM_ETCD_MAX_TXN_OPS: '1024', PLATFORM_ETCD_TIMEOUT_MS: '3000', PLATFORM_ETCD_RESOLVE_MS: '20000' }, read),
    { endpoints: ['e:2379'], auth: { username: 'platform', password: 'secret' }, prefix: '/prod/', maxTxnOps: 1024, timeoutMs: 3000, resolveMs: 20000 },
  );
  t.deepEqual(parseStoreUrl('etcds://e:2379', { PLATFORM_ETCD_CA: '/ca.pem', PLATFORM_ETCD_CERT: '/cert.pem', PLATFORM_ETCD_KEY: '/key.pem' }, read), {
    endpoints: ['e:2379'],
    tls: { ca: Buffer.from('CA'), cert: Buffer.from('CERT'), key: Buffer.from('KEY') },
  });
});

test('store url: what cannot work is refused, naming it', (t) => {
  const refused = (url: string, env: NodeJS.ProcessEnv = {}) => t.throws(() => parseStoreUrl(url, env, read), { instanceOf: StoreUrlError })!.message;
  t.regex(refused('postgres://x'), /neither rocksdb nor etcd/);
  t.regex(refused('etcd://user:pw@e:2379'), /neither rocksdb nor etcd/);
  t.regex(refused('etcd://e'), /--store/);
  t.regex(refused('etcd://e:99999'), /--store/);
  t.regex(refused('etcd://e:2379', { PLATFORM_ETCD_USER: 'u' }), /needs PLATFORM_ETCD_PASSWORD/);
  t.regex(refused('etcd://e:2379', { PLATFORM_ETCD_PASSWORD: 'p' }), /needs PLATFORM_ETCD_USER/);
  t.regex(refused('etcds://e:2379'), /needs PLATFORM_ETCD_CA/);
  t.regex(refused('etcds://e:2379', { PLATFORM_ETCD_CA: '/ca.pem', PLATFORM_ETCD_CERT: '/cert.pem' }), /go together/);
  t.regex(refused('etcd://e:2379', { PLATFORM_ETCD_CA: '/ca.pem' }), /use etcds/);
  t.regex(refused('etcds://e:2379', { PLATFORM_ETCD_CA: '/missing' }), /PLATFORM_ETCD_CA="\/missing": ENOENT/);
  t.regex(refused('etcd://e:2379', { PLATFORM_ETCD_PREFIX: 'no-slash' }), /must start and end with \//);
  t.regex(refused('etcd://e:2379', { PLATFORM_ETCD_MAX_TXN_OPS: '0' }), /not a whole number above 0/);
  t.regex(refused('etcd://e:2379', { PLATFORM_ETCD_RESOLVE_MS: '5s' }), /PLATFORM_ETCD_RESOLVE_MS="5s" is not a whole number above 0/);
});
