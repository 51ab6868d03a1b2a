import test from 'ava';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { probeBwrap } from './bwrap.js';
import { canChangeIdentity } from './identity.js';
import { Harness, TEST_UIDS, testBwrapDriver } from '../test-support/harness.js';
import { makeTarGz } from '../test-support/tar.js';
import { requireTool } from '../test-support/system.js';
import { eventually } from '../test-support/wait.js';

const probe = probeBwrap(canChangeIdentity() ? TEST_UIDS.first : undefined);

test('bwrap: new PID namespace, packages at their paths, the host\'s /root and agent data invisible, system dirs read-only', async (t) => {
  if (!requireTool(t, probe.ok, `bubblewrap (${probe.ok ? '' : probe.reason})`)) return;
  const h = new Harness(testBwrapDriver(), undefined, canChangeIdentity());
  t.teardown(() => h.close());
  const pkg = h.addPackage(makeTarGz([{ path: '/app/hello.txt', body: 'hello from the package\n' }, { path: '/opt/tool/run.sh', body: 'echo tool-ran\n' }]));
  const script = [
    'echo "pid=$$"',
    'echo "procs=$(ls /proc | grep -c "^[0-9]")"',
    'cat /proc/1/comm | sed "s/^/init=/"',
    'cat /app/hello.txt',
    'sh /opt/tool/run.sh',
    'test -e /root && echo root-visible || echo root-hidden',
    `test -e ${h.dir} && echo data-visible || echo data-hidden`,
    'touch /usr/x 2>/dev/null && echo usr-writable || echo usr-readonly',
    'echo "pwd=$(pwd) host=$(hostname)"',
    'exec sleep 60',
  ].join('; ');
  const spec = h.spec({ packages: [{ fqn: 'p', ...pkg }], process: { startCommand: script } });
  h.manager.start(spec);
  await h.waitState(spec.instanceUuid!, 'RUNNING');
  const out = await eventually(() => {
    const lines = h.text(spec.instanceUuid!);
    return lines.some((l) => l.startsWith('pwd=')) && lines;
  }, 'output', 60_000);
  t.log(out.join(' | '));
  const pid = Number(out.find((l) => l.startsWith('pid='))?.slice(4));
  t.true(pid > 1 && pid <= 3, `the shell is one of the first processes of a new PID namespace (pid ${pid})`);
  t.is(out.find((l) => l.startsWith('init=')), 'init=bwrap', 'pid 1 is bubblewrap\'s init');
  t.true(Number(out.find((l) => l.startsWith('procs='))?.slice(6)) < 8, 'only the sandbox processes are visible');
  t.true(out.includes('hello from the package'));
  t.true(out.includes('tool-ran'));
  t.true(out.includes('root-hidden'));
  t.true(out.includes('data-hidden'));
  t.true(out.includes('usr-readonly'));
  t.regex(out.find((l) => l.startsWith('pwd='))!, /^pwd=\/app host=i-[0-9a-f]{8}$/);
});

test('bwrap: SIGTERM reaches the application, whose own exit code is reported (not bwrap\'s)', async (t) => {
  if (!requireTool(t, probe.ok, 'bubblewrap')) return;
  const h = new Harness(testBwrapDriver(), undefined, canChangeIdentity());
  t.teardown(() => h.close());
  const spec = h.spec({ process: { startCommand: 'trap "sleep 0.5; echo bye; exit 7" TERM; echo trap-set; while :; do sleep 0.05; done', stopTimeoutS: 20 } });
  h.manager.start(spec);
  await h.waitState(spec.instanceUuid!, 'RUNNING');
  // RUNNING means the process started, not that the shell has read its trap yet: a TERM before
  // that ends it with 143 whatever the code under test does.
  await eventually(() => h.text(spec.instanceUuid!).includes('trap-set'), 'the trap installed');
  const dir = h.manager.get(spec.instanceUuid!)!.dir;
  h.manager.stop({ instanceUuid: spec.instanceUuid! });
  const removed = await h.waitState(spec.instanceUuid!, 'REMOVED');
  t.is(removed.exitCode, 7);
  t.false(removed.failed);
  await eventually(() => h.text(spec.instanceUuid!).includes('bye'), 'bye');
  t.false(existsSync(dir));
});

test('bwrap: a stop command runs inside the instance (same namespaces and root)', async (t) => {
  if (!requireTool(t, probe.ok, 'bubblewrap')) return;
  const h = new Harness(testBwrapDriver(), undefined, canChangeIdentity());
  t.teardown(() => h.close());
  const spec = h.spec({
    process: {
      startCommand: 'trap "echo got-usr1; exit 0" USR1; echo $$ > /app.pid; while :; do sleep 0.05; done',
      stopCommand: 'kill -USR1 $(cat /app.pid)',
      stopTimeoutS: 20,
    },
  });
  h.manager.start(spec);
  await h.waitState(spec.instanceUuid!, 'RUNNING');
  const root = h.manager.get(spec.instanceUuid!)!.root;
  await eventually(() => existsSync(join(root, 'app.pid')), 'pid file');
  t.is(readFileSync(join(root, 'app.pid'), 'utf8').trim(), '2', 'a pid of the instance\'s PID namespace');
  h.manager.stop({ instanceUuid: spec.instanceUuid! });
  const removed = await h.waitState(spec.instanceUuid!, 'REMOVED');
  t.is(removed.exitCode, 0, 'the app exited through its USR1 trap: the stop command ran in its PID namespace');
  t.true(h.text(spec.instanceUuid!).includes('got-usr1'));
});

test('bwrap: the job\'s user and group are who the instance is inside; its files belong to its own uid outside', async (t) => {
  if (!requireTool(t, probe.ok, 'bubblewrap')) return;
  if (!canChangeIdentity()) {
    t.log('SKIPPED: needs root (the agent gives each instance a uid)');
    t.pass();
    return;
  }
  const h = new Harness(testBwrapDriver(), undefined, true);
  t.teardown(() => h.close());
  const pkg = h.addPackage(makeTarGz([{ path: '/etc/passwd', body: 'root:x:0:0::/:/bin/sh\nweb:x:1001:1002::/app:/bin/sh\n' }, { path: '/etc/group', body: 'root:x:0:\nweb:x:1002:\nstaff:x:50:\n' }, { path: '/app/f', body: 'x' }]));
  const run = async (user: string, group: string) => {
    const spec = h.spec({ packages: [{ fqn: 'p', ...pkg }], process: { startCommand: 'echo "ids=$(id -u):$(id -g) own=$(stat -c %u:%g /app/f)"; exec sleep 60', user, group } });
    h.manager.start(spec);
    await h.waitState(spec.instanceUuid!, 'RUNNING');
    const line = await eventually(() => h.text(spec.instanceUuid!).find((l) => l.startsWith('ids=')), 'ids line');
    const runner = h.manager.get(spec.instanceUuid!)!;
    const st = statSync(join(runner.root, 'app', 'f'));
    return { line, hostUid: st.uid, identity: runner.record.identity };
  };
  const root = await run('', '');
  t.is(root.line, 'ids=0:0 own=0:0', 'root inside by default, owning its files');
  t.is(root.hostUid, root.identity!.uid, 'on the host they belong to the instance uid');
  t.true(root.identity!.uid >= TEST_UIDS.first);
  t.is((await run('web', '')).line, 'ids=1001:1002 own=1001:1002', 'a user name from the instance\'s /etc/passwd, with its group');
  t.is((await run('web', 'staff')).line, 'ids=1001:50 own=1001:50');
  t.is((await run('4242', '')).line, 'ids=4242:4242 own=4242:4242');
  const bad = h.spec({ packages: [{ fqn: 'p', ...pkg }], process: { startCommand: 'true', user: 'nobody-such' } });
  h.manager.start(bad);
  const removed = await h.waitState(bad.instanceUuid!, 'REMOVED');
  t.true(removed.failed);
  t.regex(removed.reason!, /user "nobody-such" is not known/);
});

test('bwrap: a host path out of the instance uid\'s reach is still bound (by root, into a private mount namespace)', async (t) => {
  if (!requireTool(t, probe.ok, 'bubblewrap')) return;
  if (!canChangeIdentity()) {
    t.log('SKIPPED: needs root');
    t.pass();
    return;
  }
  const hidden = mkdtempSync(join(tmpdir(), 'bwrap-hidden-')); // 0700, root's
  t.teardown(() => rmSync(hidden, { recursive: true, force: true }));
  mkdirSync(join(hidden, 'runtime', 'bin'), { recursive: true, mode: 0o755 });
  writeFileSync(join(hidden, 'runtime', 'bin', 'tool'), 'echo runtime-tool-ran\n', { mode: 0o755 });
  writeFileSync(join(hidden, 'secret'), 'not for instances\n', { mode: 0o644 });
  const h = new Harness(testBwrapDriver(), undefined, true);
  t.teardown(() => h.close());
  const runtime = join(hidden, 'runtime');
  const spec = h.spec({
    packages: [{ fqn: 'os', hostPaths: ['/usr', '/bin', '/lib', '/lib64', runtime] }],
    process: { startCommand: `sh ${runtime}/bin/tool; test -e ${hidden}/secret && echo secret-visible || echo secret-hidden; exec sleep 60` },
  });
  h.manager.start(spec);
  await h.waitState(spec.instanceUuid!, 'RUNNING');
  const out = await eventually(() => {
    const lines = h.text(spec.instanceUuid!);
    return lines.some((l) => l.startsWith('secret-')) && lines;
  }, 'output');
  t.true(out.includes('runtime-tool-ran'), out.join(' | ') + h.text(spec.instanceUuid!, 'stderr').join(' | '));
  t.true(out.includes('secret-hidden'), 'only the bound path, not its parent');
  // Nothing of it is mounted on the host.
  t.false(readFileSync('/proc/self/mountinfo', 'utf8').includes(spec.instanceUuid!));
});

test('bwrap: an environment name that starts with a digit (a binding\'s <UUID>_URI) reaches the application through every shell on the way', async (t) => {
  if (!requireTool(t, probe.ok, 'bubblewrap')) return;
  const h = new Harness(testBwrapDriver(), undefined, canChangeIdentity());
  t.teardown(() => h.close());
  // The app is `env` run by the shell command: what it prints is what a program gets.
  const spec = h.spec({ process: { startCommand: 'env; echo done-listing; exec sleep 60' }, environment: { '3F2A9C_URI': 'postgres://u:p@h:5432/d', MYDB_URI: 'x://y:1' } });
  h.manager.start(spec);
  await h.waitState(spec.instanceUuid!, 'RUNNING');
  const out = await eventually(() => {
    const lines = h.text(spec.instanceUuid!);
    return lines.includes('done-listing') && lines;
  }, 'output', 60_000);
  t.true(out.includes('3F2A9C_URI=postgres://u:p@h:5432/d'), out.join(' | '));
  t.true(out.includes('MYDB_URI=x://y:1'));
});

test('bwrap: a container image is its own root: its programs and /etc/passwd, no host system directory, its named user', async (t) => {
  if (!requireTool(t, probe.ok, 'bubblewrap')) return;
  if (!requireTool(t, existsSync('/bin/busybox'), 'a static busybox (busybox-static)')) return;
  const h = new Harness(testBwrapDriver(), undefined, canChangeIdentity());
  t.teardown(() => h.close());
  const passwd = 'root:x:0:0::/:/bin/sh\nweb:x:4321:4322::/app:/bin/sh\n';
  const pkg = h.addPackage(makeTarGz([
    { path: '/bin/sh', body: readFileSync('/bin/busybox'), mode: 0o755 },
    { path: '/etc/passwd', body: passwd },
    { path: '/etc/group', body: 'root:x:0:\nweb:x:4322:\n' },
    { path: '/app/f', body: 'x' },
  ]));
  const script = [
    'while read -r l; do echo "passwd=$l"; done < /etc/passwd',
    'for d in /usr /lib /sbin /etc/hostname; do test -e $d && echo "host=$d"; done',
    'test -e /etc/resolv.conf && echo resolv',
    'echo "who=$(id -un):$(id -u):$(id -g)"',
    'exec sleep 60',
  ].join('; ');
  const spec = h.spec({ packages: [{ fqn: 'image', rootFilesystem: true, ...pkg }], process: { startCommandRaw: ['/bin/sh', '-c', script], user: canChangeIdentity() ? 'web' : '' } });
  h.manager.start(spec);
  await h.waitState(spec.instanceUuid!, 'RUNNING');
  const out = await eventually(() => {
    const lines = h.text(spec.instanceUuid!);
    return lines.some((l) => l.startsWith('who=')) && lines;
  }, 'output', 60_000);
  t.deepEqual(out.filter((l) => l.startsWith('passwd=')), passwd.trim().split('\n').map((l) => `passwd=${l}`), 'the image\'s /etc/passwd, not the host\'s');
  t.deepEqual(out.filter((l) => l.startsWith('host=')), [], 'no host system directory is bound');
  t.is(out.includes('resolv'), existsSync('/etc/resolv.conf'), 'the host\'s resolv.conf (the network is the host\'s)');
  if (canChangeIdentity()) t.is(out.find((l) => l.startsWith('who=')), 'who=web:4321:4322', 'the image\'s user, by name from its own /etc/passwd');
});

test('process driver: refuses a container image (its own root needs bwrap) instead of running the host\'s programs', async (t) => {
  const h = new Harness();
  t.teardown(() => h.close());
  const pkg = h.addPackage(makeTarGz([{ path: '/bin/tool', body: 'x', mode: 0o755 }]));
  const spec = h.spec({ packages: [{ fqn: 'package::/t::image', rootFilesystem: true, ...pkg }], process: { startCommandRaw: ['/bin/tool'] } });
  h.manager.start(spec);
  const removed = await h.waitState(spec.instanceUuid!, 'REMOVED');
  t.true(removed.failed);
  t.regex(removed.reason!, /package package::\/t::image is a container image.*only the bwrap driver runs it/);
});

for (const driver of ['bwrap', 'process'] as const) {
  test(`${driver} driver: the job's environment runs nothing as root on the host (BASH_ENV, BASH_FUNC_, PATH, LD_PRELOAD), and the application gets exactly it`, async (t) => {
    if (driver === 'bwrap' && !requireTool(t, probe.ok, 'bubblewrap')) return;
    const h = new Harness(driver === 'bwrap' ? testBwrapDriver() : undefined, undefined, canChangeIdentity());
    t.teardown(() => h.close());
    const dir = mkdtempSync(join(tmpdir(), 'agent-hostenv-'));
    t.teardown(() => rmSync(dir, { recursive: true, force: true }));
    const marker = join(dir, 'ran-as-root');
    // A program that root would find first in this PATH (mkdir and mount of the bwrap prelude).
    mkdirSync(join(dir, 'bin'));
    for (const name of ['mkdir', 'mount', 'setpriv', 'bwrap', 'env', 'sh']) writeFileSync(join(dir, 'bin', name), `#!/bin/sh\nid > ${marker}\n`, { mode: 0o755 });
    const environment = {
      'MY-VAR': 'dash drops this name: bash was picked for it',
      BASH_ENV: `$(id > ${marker})`,
      ENV: `$(id > ${marker})`,
      'BASH_FUNC_echo%%': `() { id > ${marker}; }`,
      LD_PRELOAD: join(dir, 'nothing.so'),
      SHELLOPTS: 'xtrace',
      PS4: `$(id > ${marker})`,
      PATH: `${join(dir, 'bin')}:/usr/bin:/bin`,
      '3F2A9C_URI': 'postgres://u:p@h:5432/d',
      SPACED: 'a  b\nc',
    };
    const spec = h.spec({ process: { startCommandRaw: ['/usr/bin/env'] }, environment });
    h.manager.start(spec);
    await h.waitState(spec.instanceUuid!, 'REMOVED');
    t.false(existsSync(marker), `a variable of the job ran a command as root: ${existsSync(marker) ? readFileSync(marker, 'utf8') : ''}`);
    const seen = h.text(spec.instanceUuid!).join('\n');
    for (const [name, value] of Object.entries(environment)) {
      if (name === 'LD_PRELOAD') continue; // the loader of the application itself complains about it (stderr); it is set
      t.true(seen.includes(`${name}=${value}`), `${name} reaches the application: ${seen.slice(0, 400)}`);
    }
  });
}
