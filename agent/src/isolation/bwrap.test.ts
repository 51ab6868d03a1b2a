import test from 'ava';
import { existsSync, readFileSync } from 'node:fs';
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
  const spec = h.spec({ process: { startCommand: 'trap "sleep 0.5; echo bye; exit 7" TERM; while :; do sleep 0.05; done', stopTimeoutS: 20 } });
  h.manager.start(spec);
  await h.waitState(spec.instanceUuid!, 'RUNNING');
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
