import test from 'ava';
import { linkSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { formatBytes } from '../packages/disk-budget.js';
import { DiskMonitor, diskQuotaSupport, measureDisk } from './disk-monitor.js';

function tree(t: { teardown(fn: () => void): void }): string {
  const dir = mkdtempSync(join(tmpdir(), 'agent-disk-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

test('disk: allocated blocks, at least one per object, hard links once, links not followed', async (t) => {
  const dir = tree(t);
  mkdirSync(join(dir, 'a/b'), { recursive: true });
  writeFileSync(join(dir, 'a/b/data'), Buffer.alloc(10_000, 1)); // 3 blocks
  linkSync(join(dir, 'a/b/data'), join(dir, 'a/same'));
  writeFileSync(join(dir, 'empty'), '');
  symlinkSync('/usr', join(dir, 'usr'));
  const m = await measureDisk(dir);
  // a, a/b (a block each), data (12 KiB), empty, usr (a block each)
  t.deepEqual(m, { bytes: 4096 * 2 + 12_288 + 4096 * 2, entries: 5, complete: true });
});

test('disk: the walk stops early past the limit, and yields between slices', async (t) => {
  const dir = tree(t);
  for (let i = 0; i < 50; i++) writeFileSync(join(dir, `f${i}`), '');
  const early = await measureDisk(dir, { stopAbove: 10 * 4096 });
  t.false(early.complete);
  t.is(early.entries, 11);
  let ticks = 0;
  const timer = setInterval(() => ticks++, 0);
  const sliced = await measureDisk(dir, { entriesPerSlice: 5, slicePauseMs: 1 });
  clearInterval(timer);
  t.is(sliced.entries, 50);
  t.true(ticks >= 5, `the event loop ran ${ticks} times during the walk`);
});

test('disk: the monitor calls onOver once with the reason, and stops', async (t) => {
  const dir = tree(t);
  writeFileSync(join(dir, 'big'), Buffer.alloc(64 * 1024));
  const reasons: string[] = [];
  const over = new Promise<void>((resolve) => {
    const m = new DiskMonitor({ dir, limit: 32 * 1024, intervalMs: 10, onOver: (_bytes, reason) => (reasons.push(reason), resolve()) });
    m.start();
    t.teardown(() => m.stop());
  });
  await over;
  t.deepEqual(reasons, ["used more than the job's disk resource of 32 KiB (at least 64 KiB measured in the instance root); stopped"]);
});

test('disk: what the file system offers for quotas, from mountinfo', (t) => {
  const dir = tree(t);
  const info = join(dir, 'mountinfo');
  writeFileSync(info, [
    '22 1 254:0 / / rw,relatime shared:1 - ext4 /dev/vda rw,discard',
    '30 22 254:1 / /srv/agents rw,relatime shared:2 - xfs /dev/vdb rw,attr2,inode64,prjquota',
    '31 22 0:40 / /srv/agentsx rw - tmpfs tmpfs rw',
  ].join('\n'));
  t.deepEqual(diskQuotaSupport('/var/lib/agent', info), { fsType: 'ext4', mountPoint: '/', projectQuota: false });
  t.deepEqual(diskQuotaSupport('/srv/agents/instances', info), { fsType: 'xfs', mountPoint: '/srv/agents', projectQuota: true });
  t.is(diskQuotaSupport('/srv/agentsx/i', info)?.fsType, 'tmpfs');
  t.truthy(diskQuotaSupport(tmpdir()));
});

test('disk: sizes in reasons are rounded up, never down to the limit', (t) => {
  t.is(formatBytes(32 * 1024 * 1024), '32 MiB');
  t.is(formatBytes(16 * 1024 * 1024 + 8192), '16.01 MiB');
  t.is(formatBytes(1.5 * 1024 ** 3), '1.5 GiB');
  t.is(formatBytes(10_000), '10 KiB');
  t.is(formatBytes(10), '10 bytes');
});
