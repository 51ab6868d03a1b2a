import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import type { Command } from 'commander';
import { loadConfig, normalizeUrl, saveConfig } from './config.js';
import { resolveFqn } from './names.js';
import { formatTable, parseMemory } from './output.js';
import { completions } from './commands/completion.js';
import { buildProgram } from './main.js';

test('names: a short name resolves in the default namespace, FQNs stay as typed', (t) => {
  t.is(resolveFqn('hello', 'job', '/sandbox/admin'), 'job::/sandbox/admin::hello');
  t.is(resolveFqn('/prod::web', 'job', '/sandbox/admin'), 'job::/prod::web');
  t.is(resolveFqn('job::/prod::web', 'job', '/sandbox/admin'), 'job::/prod::web');
  t.throws(() => resolveFqn('package::/prod::web', 'job', '/x'), { message: /package FQN, not a job/ });
  t.throws(() => resolveFqn('/prod', 'job', '/x'), { message: /names a namespace/ });
});

test('output: tables align every column under its header', (t) => {
  const text = formatTable([{ a: 'x', b: 1 }, { a: 'longer', b: 22 }], [
    { header: 'name', value: (r) => r.a },
    { header: 'n', value: (r) => r.b },
  ]);
  t.is(text, 'NAME    N\nx       1\nlonger  22\n');
});

test('output: memory sizes are MiB without a unit', (t) => {
  t.is(parseMemory('256'), 256 * 1024 * 1024);
  t.is(parseMemory('1G'), 1024 ** 3);
  t.is(parseMemory('512MiB'), 512 * 1024 ** 2);
  t.throws(() => parseMemory('lots'));
});

test('config: the file is written 0600 in a 0700 directory and read back', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'platform-cli-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  const path = join(dir, 'sub', 'config.json');
  await saveConfig(path, { current: 'http://a', targets: { 'http://a': { url: 'http://a', token: 't' } } });
  t.is((await stat(path)).mode & 0o777, 0o600);
  t.is((await stat(join(dir, 'sub'))).mode & 0o777, 0o700);
  t.deepEqual((await loadConfig(path)).targets['http://a'], { url: 'http://a', token: 't' });
  t.is(normalizeUrl('127.0.0.1:8080/'), 'http://127.0.0.1:8080');
});

test('completion: subcommands and options of the command typed so far', (t) => {
  const io = { env: {}, stdin: process.stdin, stdout: process.stdout, stderr: process.stderr, now: () => 0 };
  const program = buildProgram(io);
  t.deepEqual(completions(program, 1, ['lo']), ['login', 'logout']);
  t.true(completions(program, 2, ['login', '--']).includes('--password-stdin'));
});

test('docs: docs/cli.md names every command of the program', async (t) => {
  const doc = await readFile(new URL('../../docs/cli.md', import.meta.url), 'utf8');
  const io = { env: {}, stdin: process.stdin, stdout: process.stdout, stderr: process.stderr, now: () => 0 };
  const paths: string[] = [];
  const walk = (c: Command, prefix: string) => {
    for (const sub of c.commands) {
      if (sub.name().startsWith('__')) continue;
      const path = `${prefix} ${sub.name()}`;
      if (sub.commands.length === 0) paths.push(path);
      walk(sub, path);
    }
  };
  walk(buildProgram(io), 'platform');
  t.true(paths.length > 40, `${paths.length} commands`);
  t.deepEqual(paths.filter((p) => !doc.includes(`\`${p}`)), []);
});
