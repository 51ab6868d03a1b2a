import test from 'ava';
import { chmodSync, lstatSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BUSY_REUSE_MS, canChangeIdentity, chownTree, parseUidRange, reachableBy, resolveInsideIds, UidAllocator } from './identity.js';

test('identity: uid ranges are parsed and unsafe ones refused', (t) => {
  t.deepEqual(parseUidRange('2000000000-2000065535'), { first: 2000000000, count: 65536 });
  t.deepEqual(parseUidRange(' 100000-100009 '), { first: 100000, count: 10 });
  t.throws(() => parseUidRange('0-100'), { message: /1000 or above/ });
  t.throws(() => parseUidRange('60000-70000'), { message: /65534/ });
  t.throws(() => parseUidRange('200-100'), { message: /1000 or above/ });
  t.throws(() => parseUidRange('300000-200000'), { message: /below the first/ });
  t.throws(() => parseUidRange('4294967000-4294967295'), { message: /4294967294/ });
  t.throws(() => parseUidRange('abc'), { message: /FIRST-LAST/ });
});

test('identity: the allocator hands out each uid once, round-robin, skipping busy uids and reserved ones', (t) => {
  const busy = new Set<number>([100002]);
  let now = 0;
  const a = new UidAllocator({ first: 100000, count: 4 }, () => new Set(busy), () => (now += BUSY_REUSE_MS));
  a.reserve(100000);
  a.reserve(5); // out of range: ignored
  t.is(a.allocate(), 100001);
  t.is(a.allocate(), 100003, '100002 has a running process');
  t.throws(() => a.allocate(), { message: /still has running processes/ });
  busy.clear();
  t.is(a.allocate(), 100002);
  t.throws(() => a.allocate(), { message: /all 4 of the range are in use/ });
  a.release(100001);
  t.is(a.allocate(), 100001);
  t.is(a.inUse, 4);
});

test('identity: a job user/group maps to ids inside the instance', (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'identity-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  writeFileSync(join(dir, 'passwd'), 'root:x:0:0::/root:/bin/sh\napp:x:1001:1002::/app:/bin/sh\n');
  writeFileSync(join(dir, 'group'), 'root:x:0:\nstaff:x:50:\n');
  const files = { passwd: [join(dir, 'missing'), join(dir, 'passwd')], group: [join(dir, 'group')] };
  t.deepEqual(resolveInsideIds('', '', files), { uid: 0, gid: 0 }, 'root inside by default');
  t.deepEqual(resolveInsideIds('app', '', files), { uid: 1001, gid: 1002 });
  t.deepEqual(resolveInsideIds('app', 'staff', files), { uid: 1001, gid: 50 });
  t.deepEqual(resolveInsideIds('1234', '', files), { uid: 1234, gid: 1234 });
  t.deepEqual(resolveInsideIds('1234', '7', files), { uid: 1234, gid: 7 });
  t.throws(() => resolveInsideIds('nobody-here', '', files), { message: /user "nobody-here" is not known/ });
  t.throws(() => resolveInsideIds('', 'wheel', files), { message: /group "wheel" is not known/ });
});

test('identity: reachableBy follows search permission up the path', (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'identity-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  chmodSync(dir, 0o711);
  mkdirSync(join(dir, 'open', 'inner'), { recursive: true, mode: 0o755 });
  mkdirSync(join(dir, 'closed', 'inner'), { recursive: true, mode: 0o755 });
  chmodSync(join(dir, 'closed'), 0o700);
  mkdirSync(join(dir, 'unreadable'), { mode: 0o711 });
  t.true(reachableBy(join(dir, 'open', 'inner'), 123456));
  t.false(reachableBy(join(dir, 'closed', 'inner'), 123456));
  t.false(reachableBy(join(dir, 'unreadable'), 123456), 'a directory to bind must be readable');
  t.true(reachableBy(join(dir, 'unreadable'), 123456, 'search'), 'one to pass through need not be');
  t.false(reachableBy(join(dir, 'nothing'), 123456));
});

test('identity: chownTree gives a tree to the uid without following links', (t) => {
  if (!canChangeIdentity()) {
    t.log('SKIPPED: needs root');
    t.pass();
    return;
  }
  const dir = mkdtempSync(join(tmpdir(), 'identity-'));
  const outside = mkdtempSync(join(tmpdir(), 'identity-outside-'));
  t.teardown(() => {
    rmSync(dir, { recursive: true, force: true });
    rmSync(outside, { recursive: true, force: true });
  });
  mkdirSync(join(dir, 'a', 'b'), { recursive: true });
  writeFileSync(join(dir, 'a', 'b', 'f'), 'x');
  writeFileSync(join(outside, 'target'), 'host');
  symlinkSync(join(outside, 'target'), join(dir, 'a', 'link'));
  chownTree(dir, { uid: 2000000123, gid: 2000000124 });
  for (const p of [dir, join(dir, 'a'), join(dir, 'a', 'b'), join(dir, 'a', 'b', 'f'), join(dir, 'a', 'link')]) {
    const st = lstatSync(p);
    t.deepEqual([st.uid, st.gid], [2000000123, 2000000124], p);
  }
  t.is(lstatSync(join(outside, 'target')).uid, 0, 'the link target is untouched');
});

test('identity: one look at the live uids serves the allocations of the next BUSY_REUSE_MS; a uid seen busy is skipped until a later look', (t) => {
  let looks = 0;
  const busy = new Set<number>([100001]);
  let now = 1_000;
  const a = new UidAllocator({ first: 100000, count: 8 }, () => {
    looks++;
    return new Set(busy);
  }, () => now);
  t.is(a.allocate(), 100000);
  busy.clear(); // its process ended
  t.is(a.allocate(), 100002, 'the look of a moment ago still holds 100001');
  t.is(a.allocate(), 100003);
  t.is(looks, 1);
  now += BUSY_REUSE_MS;
  a.release(100000);
  for (let i = 0; i < 4; i++) a.allocate(); // 100004..100007
  t.is(looks, 2);
  t.is(a.allocate(), 100000, 'wrapped round');
  t.is(a.allocate(), 100001, 'free in the new look');
  now -= 5_000; // a clock that went back looks again
  a.release(100001);
  t.is(a.allocate(), 100001);
  t.is(looks, 3);
});
