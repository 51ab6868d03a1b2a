/**
 * Controllers on one etcd must share their blob directory (PLATFORM_BLOB_DIR): the cluster keeps
 * a marker in etcd and the same marker in a file of the directory. Real controllers on a real
 * etcd: one started on a directory of its own says so, is listed with `blob_dir_shared: false`,
 * and never leads, not even when the active controller dies; one on the shared directory takes
 * over instead.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import test from 'ava';
import type { ControllerProcess } from '../harness/controller-process.js';
import { etcdController, testDir, testEtcd } from '../harness/etcd-cluster.js';
import { ApiClient } from '../harness/http.js';
import { eventually } from '../harness/wait.js';

const LEASE_TTL_SECONDS = 2;

interface ControllerEntry {
  id: string;
  api: string;
  active: boolean;
  blob_dir_shared?: boolean;
}

test('etcd: a controller whose blob directory is not the cluster\'s says so, is listed so, and never leads; one on the shared directory takes over', async (t) => {
  t.timeout(4 * 60_000);
  const etcd = await testEtcd(t);
  if (!etcd) return;
  const sharedDir = await testDir(t, 'platform-blobs-shared-');
  const ownDir = await testDir(t, 'platform-blobs-own-');
  const start = (blobDir: string, until: 'ready' | 'standby') =>
    etcdController(t, etcd, { blobDir, until, env: { PLATFORM_ETCD_LEASE_TTL: String(LEASE_TTL_SECONDS), PLATFORM_BUILTINS: 'false' } });

  const first = await start(sharedDir, 'ready');
  const marker = (await readFile(join(sharedDir, 'cluster-marker'), 'utf8')).trim();
  t.regex(marker, /^[0-9a-f]{32}$/);
  const stray = await start(ownDir, 'standby');
  const refusal = stray.lines.find((l) => /blob directory is not the one the cluster's controllers share/.test(String(l['msg'])));
  t.truthy(refusal, 'the controller on another directory says why it never leads');
  t.is(refusal!['level'], 'error');
  t.is(refusal!['cluster_marker'], marker);
  t.is(refusal!['found'], 'none');
  await t.throwsAsync(readFile(join(ownDir, 'cluster-marker')), { code: 'ENOENT' }, 'its directory is left as it is');

  const admin = await first.admin();
  const listed = async (via: ControllerProcess) => (await new ApiClient(via.url, admin.defaultHeaders).get<{ controllers: ControllerEntry[] }>('/v1/cluster/admin')).body.controllers ?? [];
  await eventually(async () => (await listed(first)).length === 2, { timeoutMs: 30_000, what: 'both controllers listed' });
  const entries = await listed(first);
  t.like(entries.find((c) => c.api === first.url), { active: true, blob_dir_shared: true });
  t.like(entries.find((c) => c.api === stray.url), { active: false, blob_dir_shared: false });
  // The stray one's front still sends requests on to the active controller.
  t.is((await new ApiClient(stray.url, admin.defaultHeaders).get('/v1/jobs')).status, 200);

  // The active one dies: the stray one does not take over; a controller on the shared directory does.
  await first.kill9();
  const third = await start(sharedDir, 'standby');
  await eventually(() => third.lines.some((l) => l['msg'] === 'controller ready'), { timeoutMs: 60_000, what: 'the controller on the shared directory leading' });
  t.false(stray.lines.some((l) => l['msg'] === 'controller ready' || l['msg'] === 'this controller leads'), 'the stray controller never led');
  const after = await listed(third);
  t.like(after.find((c) => c.api === third.url), { active: true, blob_dir_shared: true });
  t.like(after.find((c) => c.api === stray.url), { active: false, blob_dir_shared: false });
});
