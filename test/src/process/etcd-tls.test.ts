/**
 * Controllers that reach etcd with TLS client certificates (etcd takes the certificate's common
 * name, `platform`, as the user; its role may use /platform/ only), as docs/operators.md has it.
 * Without PLATFORM_JOIN_TOKEN, the agents' join secret is the cluster's, kept in etcd: the
 * controller that comes next admits the agents that joined the one before; so is the key of the
 * secrets (without PLATFORM_SECRETS_KEY_FILE): it opens the secrets the one before sealed.
 * Without PLATFORM_BLOB_DIR the first controller keeps archives in its own data directory, and
 * warns; the second is given that directory as its PLATFORM_BLOB_DIR (a controller on a
 * directory of its own would never lead: etcd-blob-dir.test.ts). An archive that the shared
 * directory lacks is unavailable (503, naming the setting), never answered as missing.
 */
import { readdir, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import test from 'ava';
import type { Job } from '@platform/controller';
import { etcdAvailable, startEtcd } from '@platform/controller/testing';
import { uploadPackage, tarGz } from '../harness/apps.js';
import { ControllerProcess } from '../harness/controller-process.js';
import { ApiClient } from '../harness/http.js';

test('etcd over TLS with client certificates: the records, the tokens, the join secret and the secrets key outlive the controller and its data directory', async (t) => {
  t.timeout(3 * 60_000);
  if (!etcdAvailable()) {
    if (process.env['PLATFORM_REQUIRE_SYSTEM_TOOLS'] === '1') throw new Error('etcd is required (PLATFORM_REQUIRE_SYSTEM_TOOLS=1): apt-get install etcd-server');
    t.log('SKIPPED: etcd is not installed (apt-get install etcd-server)');
    return t.pass();
  }
  const etcd = await startEtcd({ tls: true });
  t.teardown(() => etcd.stop());
  const env = {
    PLATFORM_STORE: `etcds://${etcd.endpoint}`,
    PLATFORM_ETCD_CA: etcd.files!.ca,
    PLATFORM_ETCD_CERT: etcd.files!.cert,
    PLATFORM_ETCD_KEY: etcd.files!.key,
    PLATFORM_ETCD_LEASE_TTL: '2',
    // The secret is made by the first controller, not given.
    PLATFORM_JOIN_TOKEN: '',
    PLATFORM_STAGER_LAUNCHER: 'none',
    PLATFORM_BUILTINS: 'false',
  };
  const first = await ControllerProcess.start({ env, readyTimeoutMs: 60_000 });
  t.teardown(() => first.dispose());
  const api = await first.admin();
  // The controllers' addresses in /cluster/admin: for those who may read the cluster only.
  const tom = await api.createUser('tom', 'tom-password-1');
  type Admin = { name: string; controllers?: { api: string; active: boolean }[] };
  t.deepEqual((await api.get<Admin>('/cluster/admin')).body.controllers?.map((c) => [c.api, c.active]), [[first.url, true]]);
  const seenByTom = await tom.get<Admin>('/cluster/admin');
  t.is(seenByTom.status, 200);
  t.is(seenByTom.body.name, 'admin');
  t.is(seenByTom.body.controllers, undefined, 'a user without read on cluster::/ is not shown the controllers');
  const job = (await api.post<Job>('/jobs', { fqn: 'job::/tls::web', num_instances: 0 })).body;
  t.truthy(job.uuid);
  // A secret, sealed by the first controller: the second must open it (it refuses to start on secrets it cannot).
  const sealed = await api.post<{ uuid: string }>('/v1/secrets', { fqn: 'secret::/tls::db-password', value: 'hunter2' });
  t.is(sealed.status, 200, sealed.text);
  const pkg = await uploadPackage(api, '/tls', tarGz({ 'readme.txt': 'kept in the first controller\'s blob directory\n' }));
  t.true(first.lines.some((l) => l['msg'] === 'the blob directory is this controller\'s own (DATA_DIR/blobs): give every controller that shares etcd the same PLATFORM_BLOB_DIR on a shared mount, or archives taken by one are unavailable at the others'));
  const secret = (await readFile(`${first.dataDir}/join-token`, 'utf8')).trim();
  t.true(secret.length >= 32);
  await first.stop(); // resigns: the next one leads at once

  const second = await ControllerProcess.start({ env: { ...env, PLATFORM_BLOB_DIR: join(first.dataDir, 'blobs') }, readyTimeoutMs: 60_000 });
  t.teardown(() => second.dispose());
  t.not(second.dataDir, first.dataDir);
  const seen = await new ApiClient(second.url, api.defaultHeaders).get<Job>(`/jobs/${job.uuid}`);
  t.is(seen.status, 200, 'the first controller\'s token is valid at the second');
  t.is(seen.body.fqn, 'job::/tls::web');
  t.is((await readFile(`${second.dataDir}/join-token`, 'utf8')).trim(), secret, 'the same join secret');
  t.is((await new ApiClient(second.url, api.defaultHeaders).get(`/v1/secrets/${sealed.body.uuid}`)).status, 200);
  // The archive taken by the first downloads from the second, on the same directory.
  t.is((await new ApiClient(second.url, api.defaultHeaders).get(`/v1/packages/resources/${pkg.uuid}`)).status, 200);
  // Gone from the directory (a mount that lacks it): unavailable here, not missing.
  const blobs = join(first.dataDir, 'blobs');
  for (const entry of await readdir(blobs, { withFileTypes: true })) {
    if (entry.isDirectory() && entry.name !== 'tmp') for (const name of await readdir(join(blobs, entry.name))) await rm(join(blobs, entry.name, name));
  }
  const download = await new ApiClient(second.url, api.defaultHeaders).get<{ message: string }>(`/v1/packages/resources/${pkg.uuid}`);
  t.is(download.status, 503, download.text);
  t.regex(download.body.message, /not in this controller's blob directory .*PLATFORM_BLOB_DIR/);
  t.is(download.headers.get('retry-after'), '5');
});
