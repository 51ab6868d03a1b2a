import test from 'ava';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { instanceStateName } from '@platform/proto';
import { canChangeIdentity } from '../isolation/identity.js';
import { ProcessDriver } from '../isolation/process.js';
import { Harness } from '../test-support/harness.js';
import { makeTarGz } from '../test-support/tar.js';
import { eventually } from '../test-support/wait.js';

const SERVER = `
const http = require('node:http');
const s = http.createServer((q, r) => r.end('ok'));
s.listen(Number(process.env.PORT), '127.0.0.1', () => console.log('listening ' + process.env.PORT + ' ' + process.env.GREETING));
process.on('SIGTERM', () => { console.log('bye'); s.close(); process.exit(0); });
`;

test('runner (process): packages, env and PORT; NEW..RUNNING; logs; SIGTERM stop; REMOVED and cleaned up', async (t) => {
  const h = new Harness();
  t.teardown(() => h.close());
  const pkg = h.addPackage(makeTarGz([{ path: '/app/server.js', body: SERVER }, { path: '/app/conf.txt', body: 'port={{ env "PORT" }}' }]));
  const spec = h.spec({
    packages: [{ fqn: 'package::/test::app', ...pkg, environment: { GREETING: 'hello' }, templates: [{ path: '/app/conf.txt' }] }],
    process: { startCommandRaw: [process.execPath, 'server.js'], stopTimeoutS: 10 },
    ports: [{ number: 0 }],
  });
  h.manager.start(spec);
  const running = await h.waitState(spec.instanceUuid!, 'RUNNING');
  const addr = running.ports?.[0];
  t.truthy(addr);
  const port = Number(addr!.split(':')[1]);
  t.is(await (await fetch(`http://${addr}/`)).text(), 'ok');
  const runner = h.manager.get(spec.instanceUuid!)!;
  t.is(readFileSync(join(runner.root, 'app/conf.txt'), 'utf8'), `port=${port}`);
  await eventually(() => h.text(spec.instanceUuid!).includes(`listening ${port} hello`), 'log line');
  t.deepEqual(h.states(spec.instanceUuid!), ['NEW', 'SETUP', 'STARTING', 'FIRST_RUNNING', 'RUNNING']);
  h.manager.stop({ instanceUuid: spec.instanceUuid!, reason: 'test' });
  const removed = await h.waitState(spec.instanceUuid!, 'REMOVED');
  t.deepEqual(h.states(spec.instanceUuid!).slice(5), ['STOPPING', 'TEARDOWN', 'REMOVED']);
  t.true(removed.exited);
  t.is(removed.exitCode, 0);
  t.false(removed.failed);
  t.true(removed.stopRequested);
  await eventually(() => h.text(spec.instanceUuid!).includes('bye'), 'bye line');
  t.false(existsSync(runner.dir));
});

test('runner (process): stop_command is run for a graceful stop', async (t) => {
  const h = new Harness();
  t.teardown(() => h.close());
  const spec = h.spec({
    process: {
      startCommand: 'trap "echo trapped; exit 0" USR1; echo $$ > app.pid; while :; do sleep 0.05; done',
      stopCommand: 'kill -USR1 $(cat app.pid)',
      stopTimeoutS: 20,
    },
  });
  h.manager.start(spec);
  await h.waitState(spec.instanceUuid!, 'RUNNING');
  await eventually(() => existsSync(join(h.manager.get(spec.instanceUuid!)!.root, 'app.pid')), 'pid file');
  h.manager.stop({ instanceUuid: spec.instanceUuid! });
  const removed = await h.waitState(spec.instanceUuid!, 'REMOVED');
  t.is(removed.exitCode, 0);
  t.false(removed.failed);
  await eventually(() => h.text(spec.instanceUuid!).includes('trapped'), 'trapped line');
});

test('runner (process): a process ignoring SIGTERM is killed after stop_timeout; force kills at once', async (t) => {
  const h = new Harness();
  t.teardown(() => h.close());
  const spec = h.spec({ process: { startCommand: 'trap "" TERM; echo trap-set; while :; do sleep 0.05; done', stopTimeoutS: 1 } });
  h.manager.start(spec);
  await h.waitState(spec.instanceUuid!, 'RUNNING');
  // A TERM before the shell has read its trap would end it with 143 at once.
  await eventually(() => h.text(spec.instanceUuid!).includes('trap-set'), 'the trap installed');
  const t0 = Date.now();
  h.manager.stop({ instanceUuid: spec.instanceUuid! });
  const removed = await h.waitState(spec.instanceUuid!, 'REMOVED');
  t.true(Date.now() - t0 >= 900, 'waited for the stop timeout');
  t.is(removed.exitCode, 137);
  t.false(removed.failed, 'a requested stop is not a failure');

  const spec2 = h.spec({ process: { startCommand: 'trap "" TERM; while :; do sleep 0.05; done', stopTimeoutS: 60 } });
  h.manager.start(spec2);
  await h.waitState(spec2.instanceUuid!, 'RUNNING');
  const t1 = Date.now();
  h.manager.stop({ instanceUuid: spec2.instanceUuid!, force: true });
  await h.waitState(spec2.instanceUuid!, 'REMOVED');
  t.true(Date.now() - t1 < 30_000);
});

test('runner (process): an exit during start fails with its code', async (t) => {
  const h = new Harness();
  t.teardown(() => h.close());
  const spec = h.spec({ process: { startCommand: 'echo oops >&2; exit 3' }, ports: [{ number: 0 }] });
  h.manager.start(spec);
  const removed = await h.waitState(spec.instanceUuid!, 'REMOVED');
  t.true(removed.failed);
  t.true(removed.exited);
  t.is(removed.exitCode, 3);
  t.is(removed.reason, 'exited with code 3 during start');
  t.false(h.states(spec.instanceUuid!).includes('RUNNING'));
  await eventually(() => h.text(spec.instanceUuid!, 'stderr').includes('oops'), 'stderr line');
});

test('runner (process): a required port that never listens fails the start after start_command_timeout', async (t) => {
  const h = new Harness();
  t.teardown(() => h.close());
  const spec = h.spec({ process: { startCommand: 'exec sleep 60', startCommandTimeoutS: 1 }, ports: [{ number: 0 }, { number: 0 + 1, optional: true }] });
  h.manager.start(spec);
  const removed = await h.waitState(spec.instanceUuid!, 'REMOVED');
  t.true(removed.failed);
  t.regex(removed.reason!, /^did not listen on port \d+ \(PORT\) within 1 s$/);
  t.deepEqual(h.states(spec.instanceUuid!), ['NEW', 'SETUP', 'STARTING', 'STOPPING', 'TEARDOWN', 'REMOVED']);
});

test('runner (process): a crash after running is reported exited and failed; the agent does not restart it', async (t) => {
  const h = new Harness();
  t.teardown(() => h.close());
  const spec = h.spec({ process: { startCommand: 'sleep 0.3; exit 5' } });
  h.manager.start(spec);
  const removed = await h.waitState(spec.instanceUuid!, 'REMOVED');
  t.deepEqual(h.states(spec.instanceUuid!), ['NEW', 'SETUP', 'STARTING', 'FIRST_RUNNING', 'RUNNING', 'TEARDOWN', 'REMOVED']);
  t.true(removed.failed);
  t.is(removed.exitCode, 5);
  t.is(removed.reason, 'exited with code 5');
  t.is(h.manager.size, 0);
});

test('runner: a package whose archive escapes the root fails the instance with the reason', async (t) => {
  const h = new Harness();
  t.teardown(() => h.close());
  const pkg = h.addPackage(makeTarGz([{ path: 'app/x', body: 'x' }, { path: 'app/evil', type: 'SymbolicLink', linkpath: '../../../etc/shadow' }]));
  const spec = h.spec({ packages: [{ fqn: 'package::/test::evil', ...pkg }], process: { startCommand: 'sleep 60' } });
  h.manager.start(spec);
  const removed = await h.waitState(spec.instanceUuid!, 'REMOVED');
  t.true(removed.failed);
  t.false(removed.exited);
  t.regex(removed.reason!, /package package::\/test::evil: symlink \/app\/evil -> \.\.\/\.\.\/\.\.\/etc\/shadow points outside the root/);
});

test('runner: a package whose bytes do not match its digest fails; idempotent start and unknown stop', async (t) => {
  const h = new Harness();
  t.teardown(() => h.close());
  const pkg = h.addPackage(makeTarGz([{ path: 'app/x', body: 'x' }]));
  h.blobs.set(pkg.digest, makeTarGz([{ path: 'app/y', body: 'tampered' }]));
  const spec = h.spec({ packages: [{ fqn: 'p', ...pkg }], process: { startCommand: 'sleep 60' } });
  h.manager.start(spec);
  const removed = await h.waitState(spec.instanceUuid!, 'REMOVED');
  t.regex(removed.reason!, /is longer than its declared|has \d+ bytes, \d+ declared|does not match its digest/);

  h.manager.stop({ instanceUuid: 'nope' });
  t.is(h.states('nope').at(-1), 'REMOVED');
  const s2 = h.spec({ process: { startCommand: 'exec sleep 60' } });
  h.manager.start(s2);
  await h.waitState(s2.instanceUuid!, 'RUNNING');
  const before = h.reports.length;
  h.manager.start(s2);
  t.is(h.reports.length, before + 1);
  t.is(h.states(s2.instanceUuid!).at(-1), 'RUNNING');
  t.is(h.manager.size, 1);
});

test('runner: files listing stays inside the root', async (t) => {
  const h = new Harness();
  t.teardown(() => h.close());
  const pkg = h.addPackage(makeTarGz([{ path: '/app/a.txt', body: 'abc' }, { path: '/app/sub/', type: 'Directory' }, { path: '/app/up', type: 'SymbolicLink', linkpath: '..' }]));
  const spec = h.spec({ packages: [{ fqn: 'p', ...pkg }], process: { startCommand: 'ln -s /etc out; exec sleep 60' } });
  h.manager.start(spec);
  await h.waitState(spec.instanceUuid!, 'RUNNING');
  const uuid = spec.instanceUuid!;
  // The process made a link to the host's /etc in its START_PATH (/app).
  await eventually(() => existsSync(join(h.manager.get(uuid)!.root, 'app/out')), 'link');
  const ls = await h.manager.listFiles({ requestId: 'r1', instanceUuid: uuid, path: 'app' });
  t.deepEqual(ls.entries, [{ name: 'a.txt', size: 3 }, { name: 'out', size: 4 }, { name: 'sub/', size: -1 }, { name: 'up', size: 2 }]);
  t.is(ls.requestId, 'r1');
  t.is((await h.manager.listFiles({ requestId: 'r2', instanceUuid: uuid, path: '/app/up' })).entries?.some((e) => e.name === 'app/'), true);
  for (const [path, kind] of [['../', 'invalid'], ['app/../../', 'invalid'], ['/app/missing', 'not_found'], ['app/out', 'invalid'], ['app/a.txt', 'invalid']] as const) {
    const r = await h.manager.listFiles({ requestId: 'x', instanceUuid: uuid, path });
    t.is(r.errorKind, kind, path);
    t.falsy(r.entries?.length);
  }
  t.is((await h.manager.listFiles({ requestId: 'y', instanceUuid: 'nope', path: '' })).errorKind, 'not_found');
});

test('runner (process): a package that unpacks past the disk resource fails in setup with the reason, leaving nothing', async (t) => {
  const h = new Harness();
  t.teardown(() => h.close());
  const zeros = Buffer.alloc(512 * 1024);
  const pkg = h.addPackage(makeTarGz(Array.from({ length: 16 }, (_, i) => ({ path: `/app/z${i}`, body: zeros }))));
  const spec = h.spec({
    packages: [{ fqn: 'package::/test::bomb', ...pkg }],
    process: { startCommand: 'sleep 30' },
    resources: { disk: 2 * 1024 * 1024 },
  });
  h.manager.start(spec);
  const removed = await h.waitState(spec.instanceUuid!, 'REMOVED');
  t.true(removed.failed);
  t.regex(removed.reason ?? '', /^package package::\/test::bomb: file \/app\/z\d+ \(512 KiB\) would exceed the job's disk resource of 2 MiB/);
  t.deepEqual(h.states(spec.instanceUuid!), ['NEW', 'SETUP', 'TEARDOWN', 'REMOVED']);
  t.false(existsSync(join(h.dir, 'instances', spec.instanceUuid!)));
});

test('runner (process): an instance that writes past its disk resource is measured, failed with the reason and killed', async (t) => {
  const h = new Harness();
  t.teardown(() => h.close());
  const spec = h.spec({
    // 1 MiB a step, forever: the monitor must stop it.
    process: { startCommand: 'i=0; while :; do head -c 1048576 /dev/zero > f$i; i=$((i+1)); sleep 0.05; done' },
    resources: { disk: 4 * 1024 * 1024 },
  });
  h.manager.start(spec);
  const removed = await h.waitState(spec.instanceUuid!, 'REMOVED');
  t.true(removed.failed);
  t.regex(removed.reason ?? '', /^used more than the job's disk resource of 4 MiB \(at least [\d.]+ MiB measured in the instance root\); stopped$/);
  t.regex(await h.metrics.registry.metrics(), /platform_agent_instance_failures_total\{kind="disk"\} 1/);
  t.false(existsSync(join(h.dir, 'instances', spec.instanceUuid!)));
});

test('runner (process, agent as root): instances run as their own uid, not root, and cannot read each other\'s roots', async (t) => {
  if (!canChangeIdentity()) {
    t.log('SKIPPED: needs root (the agent gives each instance a uid)');
    t.pass();
    return;
  }
  const h = new Harness(new ProcessDriver(), undefined, true);
  t.teardown(() => h.close());
  const a = h.spec({ process: { startCommand: 'echo secret > mine; echo "uid=$(id -u) caps=$(grep CapEff /proc/self/status | cut -f2) nnp=$(grep NoNewPrivs /proc/self/status | cut -f2)"; exec sleep 60' } });
  h.manager.start(a);
  await h.waitState(a.instanceUuid!, 'RUNNING');
  const aLine = await eventually(() => h.text(a.instanceUuid!).find((l) => l.startsWith('uid=')), 'a line');
  const aRoot = h.manager.get(a.instanceUuid!)!.root;
  const aUid = h.manager.get(a.instanceUuid!)!.record.identity!.uid;
  t.is(aLine, `uid=${aUid} caps=0000000000000000 nnp=1`);
  t.not(aUid, 0);
  const b = h.spec({ process: { startCommand: `cat ${aRoot}/mine 2>&1 | sed "s/^/read: /"; kill -9 ${h.manager.get(a.instanceUuid!)!.record.pid} 2>&1 | sed "s/^/kill: /"; echo done; exec sleep 60` } });
  h.manager.start(b);
  await h.waitState(b.instanceUuid!, 'RUNNING');
  const out = await eventually(() => h.text(b.instanceUuid!).includes('done') && h.text(b.instanceUuid!), 'b output');
  t.regex(out.find((l) => l.startsWith('read: ')) ?? '', /Permission denied/);
  t.regex(out.find((l) => l.startsWith('kill: ')) ?? '', /not permitted/i);
  t.is(h.last(a.instanceUuid!)?.state !== undefined && instanceStateName(h.last(a.instanceUuid!)!.state), 'RUNNING', 'the other instance still runs');
});

test('runner: a package whose install path leads out of the root ("..") is refused before anything reads or writes there (templates included)', async (t) => {
  const h = new Harness();
  t.teardown(() => h.close());
  // No archive (length 0: nothing to extract, where ".." was checked before), a template naming a host file.
  const spec = h.spec({
    packages: [{ fqn: 'package::/t::empty', digest: '', length: 0, installPath: `/${'../'.repeat(30)}`, templates: [{ path: '/etc/hostname', leftDelimiter: '', rightDelimiter: '' }] }],
    process: { startCommand: 'exec sleep 60' },
  });
  h.manager.start(spec);
  const removed = await h.waitState(spec.instanceUuid!, 'REMOVED');
  t.true(removed.failed);
  t.regex(removed.reason ?? '', /install path .* has a "\.\." component/);
});
