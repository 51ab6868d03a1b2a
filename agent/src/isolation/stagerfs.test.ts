import test from 'ava';
import { stagerfsArgs } from './bwrap.js';
import { ProcessDriver } from './process.js';
import { Harness, testBwrapDriver } from '../test-support/harness.js';
import { canChangeIdentity } from './identity.js';
import { makeTarGz } from '../test-support/tar.js';
import { requireTool } from '../test-support/system.js';
import { eventually } from '../test-support/wait.js';

const STAGER_URL = 'http://127.0.0.1:9/stager/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA';

test('stagerfs: the bwrap arguments bind the host dirs below /stagerfs, mount /proc and /dev there, keep CAP_SYS_CHROOT', (t) => {
  const args = stagerfsArgs(['/usr']);
  t.deepEqual(args.slice(0, 3), ['--ro-bind', '/usr', '/stagerfs/usr']);
  t.true(args.join(' ').includes('--proc /stagerfs/proc --dev /stagerfs/dev'));
  t.deepEqual(args.slice(-2), ['--cap-add', 'CAP_SYS_CHROOT']);
});

test('stagerfs (bwrap): a stager finds its package\'s dependencies under /stagerfs and can chroot into it', async (t) => {
  const driver = testBwrapDriver();
  if (!requireTool(t, driver !== undefined, 'bubblewrap')) return;
  // As on a root agent: the stager runs as its own uid, with no capability but CAP_SYS_CHROOT in its namespace.
  const h = new Harness(driver, undefined, canChangeIdentity());
  t.teardown(() => h.close());
  const own = h.addPackage(makeTarGz([{ path: '/stager/run.sh', body: 'echo stager-files\n' }]));
  const dep = h.addPackage(makeTarGz([{ path: '/opt/dep/hello.txt', body: 'hello from the dependency\n' }]));
  const script = [
    'echo "STAGERFS=$STAGERFS"',
    'cat /stagerfs/opt/dep/hello.txt',
    'test -e /stagerfs/stager/run.sh && echo own-inside || echo own-not-inside',
    // What the original Ruby stager library does in setup_chroot / execute_app, less the mounts we made.
    'chroot /stagerfs /bin/sh -c "cat /opt/dep/hello.txt | sed s/^/chrooted:/; test -r /proc/self/status && echo proc-ok; test -c /dev/null && echo dev-ok"',
    'echo done',
    'exec sleep 60',
  ].join('; ');
  const spec = h.spec({ packages: [{ fqn: 'stager', ...own }], stagerfs: [{ fqn: 'dep', ...dep }], stagerUrl: STAGER_URL, process: { startCommand: script } });
  h.manager.start(spec);
  const out = await eventually(() => {
    const lines = h.text(spec.instanceUuid!);
    return lines.includes('done') && lines;
  }, 'output', 60_000);
  t.log(out.join(' | '), h.text(spec.instanceUuid!, 'stderr').join(' | '));
  t.true(out.includes('STAGERFS=/stagerfs'));
  t.true(out.includes('hello from the dependency'));
  t.true(out.includes('own-not-inside'), 'only the dependencies, not the stager\'s own package');
  t.true(out.includes('chrooted:hello from the dependency'));
  t.true(out.includes('proc-ok'));
  t.true(out.includes('dev-ok'));
});

test('stagerfs (process): the dependencies are laid out in <root>/stagerfs, named by STAGERFS', async (t) => {
  const h = new Harness(new ProcessDriver());
  t.teardown(() => h.close());
  const dep = h.addPackage(makeTarGz([{ path: '/opt/dep/hello.txt', body: 'hello from the dependency\n' }]));
  const spec = h.spec({ stagerfs: [{ fqn: 'dep', ...dep }], stagerUrl: STAGER_URL, process: { startCommand: 'cat "$STAGERFS/opt/dep/hello.txt"; echo "at=$STAGERFS"; exec sleep 60' } });
  h.manager.start(spec);
  const out = await eventually(() => {
    const lines = h.text(spec.instanceUuid!);
    return lines.some((l) => l.startsWith('at=')) && lines;
  }, 'output', 60_000);
  t.true(out.includes('hello from the dependency'));
  t.regex(out.find((l) => l.startsWith('at='))!, /\/stagerfs$/);
});
