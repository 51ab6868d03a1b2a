/**
 * Controllers on a real etcd for the tests: the etcd (skipped, or failed under
 * PLATFORM_REQUIRE_SYSTEM_TOOLS=1, when etcd-server is missing) and controllers on it, each
 * disposed of (killed, its directory removed) when the test ends however it ends.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ExecutionContext } from 'ava';
import { etcdAvailable, startEtcd, type EtcdTestServer } from '@platform/controller/testing';
import { ControllerProcess } from './controller-process.js';

/** An etcd of `members` for the test, stopped at its end; undefined (the test passes, saying so) without etcd. */
export async function testEtcd(t: ExecutionContext, members: 1 | 3 = 1): Promise<EtcdTestServer | undefined> {
  if (!etcdAvailable()) {
    if (process.env['PLATFORM_REQUIRE_SYSTEM_TOOLS'] === '1') throw new Error('etcd is required (PLATFORM_REQUIRE_SYSTEM_TOOLS=1): apt-get install etcd-server');
    t.log('SKIPPED: etcd is not installed (apt-get install etcd-server)');
    t.pass();
    return undefined;
  }
  const etcd = await startEtcd({ members });
  t.teardown(() => etcd.stop());
  return etcd;
}

/** A directory for the test, removed at its end. */
export async function testDir(t: ExecutionContext, prefix = 'platform-blobs-'): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), prefix));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

export interface EtcdControllerOptions {
  /** Its PLATFORM_BLOB_DIR (controllers on one etcd share one). */
  blobDir: string;
  /** Started until it is ready (it leads) or stands by. */
  until: 'ready' | 'standby';
  dataDir?: string;
  args?: string[];
  /** More environment (lease, heartbeats), over the store's. */
  env?: Record<string, string>;
}

/** A controller on `etcd`, with its user and password, without stagers' launcher. */
export function etcdController(t: ExecutionContext, etcd: EtcdTestServer, o: EtcdControllerOptions): Promise<ControllerProcess> {
  let spawned: ControllerProcess | undefined;
  t.teardown(async () => {
    await spawned?.dispose();
  });
  return ControllerProcess.start({
    until: o.until,
    readyTimeoutMs: 90_000,
    ...(o.dataDir ? { dataDir: o.dataDir } : {}),
    ...(o.args ? { args: o.args } : {}),
    onSpawn: (p) => (spawned = p as ControllerProcess),
    env: {
      PLATFORM_BLOB_DIR: o.blobDir,
      PLATFORM_STORE: `etcd://${etcd.endpoints.join(',')}`,
      PLATFORM_ETCD_USER: etcd.auth.username,
      PLATFORM_ETCD_PASSWORD: etcd.auth.password,
      PLATFORM_STAGER_LAUNCHER: 'none',
      ...o.env,
    },
  });
}
