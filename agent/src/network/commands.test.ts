import test from 'ava';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CommandError, runScript, shellQuote } from './commands.js';
import { removeStale, scriptDirectory, shellPids } from './shells.js';

function tempDir(t: { teardown(f: () => void): void }): string {
  const dir = mkdtempSync(join(tmpdir(), 'commands-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

test('runScript: the parts run in order in one shell, each reading its input verbatim (nothing expanded)', async (t) => {
  const dir = tempDir(t);
  const out = join(dir, 'out');
  const tricky = "a $HOME `id` $(id) 'quoted' \"double\" \\ back\nPLATFORM_INPUT_9\nlast";
  await runScript([
    { argv: ['/bin/sh', '-c', `cat > ${shellQuote(out)}`], input: `${tricky}\n`, what: 'first' },
    { argv: ['/bin/sh', '-c', `echo second >> ${shellQuote(out)}`], what: 'second' },
    { argv: ['/bin/sh', '-c', `cat >> ${shellQuote(out)}`], input: 'third\n', what: 'third' },
  ]);
  t.is(readFileSync(out, 'utf8'), `${tricky}\nsecond\nthird\n`);
});

test('runScript: the first part that fails ends the script; the error says which, with its stderr', async (t) => {
  const dir = tempDir(t);
  const out = join(dir, 'out');
  const err = await t.throwsAsync(runScript([
    { argv: ['/bin/sh', '-c', `echo one >> ${shellQuote(out)}`], what: 'one' },
    { argv: ['/bin/sh', '-c', 'echo "Cannot find device x" >&2; exit 2'], input: 'ignored\n', what: 'the failing part' },
    { argv: ['/bin/sh', '-c', `echo three >> ${shellQuote(out)}`], what: 'three' },
  ]));
  t.true(err instanceof CommandError);
  t.regex(err!.message, /Cannot find device x/);
  t.regex((err as CommandError).stderr, /\(the failing part\)/);
  t.is(readFileSync(out, 'utf8'), 'one\n');
});

test('runScript: an input holding the line that would end it is refused, not run', async (t) => {
  const dir = tempDir(t);
  const out = join(dir, 'out');
  await t.throwsAsync(runScript([
    { argv: ['/bin/sh', '-c', `echo ran > ${shellQuote(out)}`], what: 'a' },
    { argv: ['/bin/cat'], input: 'x\nPLATFORM_INPUT_1\ny\n', what: 'b' },
  ]), { message: /PLATFORM_INPUT_1/ });
  t.throws(() => readFileSync(out));
});

test('shellQuote: plain words stay as they are; anything else is one quoted word', (t) => {
  t.is(shellQuote('/usr/sbin/ip'), '/usr/sbin/ip');
  t.is(shellQuote('--net=/run/netns/pln-x'), '--net=/run/netns/pln-x');
  t.is(shellQuote("it's a $x"), "'it'\\''s a $x'");
  t.is(shellQuote(''), "''");
});

test.serial('runScript: a shell killed while it runs a script fails that script; the next script gets a new shell', async (t) => {
  const slow = runScript([{ argv: ['/bin/sleep', '2'], what: 'sleeping' }]);
  const [pid] = shellPids();
  t.truthy(pid);
  process.kill(pid!, 'SIGKILL');
  await t.throwsAsync(slow, { message: /exited/ });
  await runScript([{ argv: ['/bin/true'], what: 'true' }]);
  t.false(shellPids().includes(pid!));
});

test('runScript: the scripts of many callers at once all run, each answered with its own result', async (t) => {
  const dir = tempDir(t);
  const results = await Promise.allSettled(Array.from({ length: 20 }, (_, i) =>
    runScript([{ argv: ['/bin/sh', '-c', i % 5 === 0 ? `echo "failed ${i}" >&2; exit 3` : `echo ${i} > ${shellQuote(join(dir, String(i)))}`], what: `script ${i}` }])));
  results.forEach((r, i) => {
    if (i % 5 === 0) t.regex(r.status === 'rejected' ? (r.reason as Error).message : '', new RegExp(`^script ${i}: failed ${i}`));
    else t.is(readFileSync(join(dir, String(i)), 'utf8'), `${i}\n`);
  });
});

test.serial('runScript: each script is a file of its own, in a directory only root reads, removed with its stderr once answered', async (t) => {
  await runScript([{ argv: ['/bin/true'], what: 'true' }]);
  await t.throwsAsync(runScript([{ argv: ['/bin/sh', '-c', 'echo nope >&2; exit 2'], what: 'failing' }]), { message: /^failing: nope/ });
  const dir = scriptDirectory()!;
  t.is(statSync(dir).mode & 0o777, 0o700);
  t.deepEqual(readdirSync(dir), []);
});

test.serial('script directories of processes that are gone (an agent killed with -9) are removed; those of live ones kept', (t) => {
  const gone = spawnSync('/bin/true').pid;
  const stale = join(tmpdir(), `platform-net-scripts-${gone}-test`);
  const live = join(tmpdir(), `platform-net-scripts-${process.ppid}-test`);
  mkdirSync(stale);
  mkdirSync(live);
  t.teardown(() => rmSync(live, { recursive: true, force: true }));
  removeStale();
  t.false(existsSync(stale));
  t.true(existsSync(live));
});
