import test from 'ava';
import { execFileSync } from 'node:child_process';
import { buildEnvironment, expand, BASE_PATH, isShellName, mainProcessName, shellFor, startArgv } from './env.js';

test('env: $NAME and ${NAME} expand against the earlier value; $$ is a dollar', (t) => {
  t.is(expand('/opt/node/bin:$PATH', { PATH: '/usr/bin' }), '/opt/node/bin:/usr/bin');
  t.is(expand('${A}x$B-$UNSET-$$', { A: '1', B: '2' }), '1x2--$');
  t.is(expand('$$HOME and $$$HOME', { HOME: '/h' }), '$HOME and $/h', '"$$" is a literal "$", never the start of a name');
  t.is(expand('cost: 5$ and $1', {}), 'cost: 5$ and $1', 'a "$" before no name stays');
});

test('env: packages in order (later wins, PATH extended), then process, defaults, ports, platform, stager', (t) => {
  const env = buildEnvironment({
    packages: [
      { PATH: '/opt/os/bin:$PATH', LANG: 'C', START_COMMAND: 'dep' },
      { PATH: '/opt/node/bin:$PATH', START_COMMAND: 'node app.js', LANG: 'C.UTF-8' },
    ],
    process: { LANG: 'en', EXTRA: '$LANG+' },
    defaultStartPath: '/app',
    ports: { PORT: '4000', PORT_80: '80' },
    platform: { JOB_UUID: 'j', PORT: 'never-wins-over?' },
    stagerUrl: 'http://s',
  });
  t.is(env['PATH'], `/opt/node/bin:/opt/os/bin:${BASE_PATH}`);
  t.is(env['START_COMMAND'], 'node app.js');
  t.is(env['LANG'], 'en');
  t.is(env['EXTRA'], 'C.UTF-8+');
  t.is(env['START_PATH'], '/app');
  t.is(env['PORT_80'], '80');
  t.is(env['JOB_UUID'], 'j');
  t.is(env['PORT'], 'never-wins-over?', 'platform variables come last');
  t.is(env['STAGER_URL'], 'http://s');
  t.is(env['HOME'], '/');
  t.is(buildEnvironment({ packages: [], process: {}, defaultStartPath: '/', ports: {}, platform: {}, stagerUrl: '', home: '/data/i/root' })['HOME'], '/data/i/root');
  t.false('PLATFORM_JOIN_TOKEN' in env);
});

test('env: a layer expands against the layers before it, not against itself', (t) => {
  const env = buildEnvironment({
    packages: [{ A: 'a' }, { A: 'b', B: '$A' }],
    process: { C: '$B$A' },
    defaultStartPath: '/',
  });
  t.is(env['B'], 'a', 'B sees the A of the earlier layer, not the one set beside it');
  t.is(env['C'], 'ab', 'the process layer sees every package layer');
});

test('env: START_PATH and START_COMMAND are defaults from packages that the process may override', (t) => {
  const fromPackage = buildEnvironment({ packages: [{ START_PATH: '/srv', START_COMMAND: 'serve' }], process: {}, defaultStartPath: '/app' });
  t.is(fromPackage['START_PATH'], '/srv');
  t.is(fromPackage['START_COMMAND'], 'serve');
  const overridden = buildEnvironment({ packages: [{ START_PATH: '/srv', START_COMMAND: 'serve' }], process: { START_PATH: '/x', START_COMMAND: 'run' }, defaultStartPath: '/app' });
  t.is(overridden['START_PATH'], '/x');
  t.is(overridden['START_COMMAND'], 'run');
  const none = buildEnvironment({ packages: [{}], process: undefined, defaultStartPath: '/app' });
  t.is(none['START_PATH'], '/app', 'the caller default when nobody sets it');
  t.is(none['START_COMMAND'], '');
  t.is(buildEnvironment({ packages: [{ START_PATH: '' }], process: {}, defaultStartPath: '/' })['START_PATH'], '/', 'an empty START_PATH is unset');
});

test('env: the command is the raw one, else the shell one, else START_COMMAND; the process is "app", else the first', (t) => {
  const env = { START_COMMAND: 'node index.js' };
  t.deepEqual(startArgv({ startCommandRaw: ['/bin/echo', 'a b'], startCommand: 'ignored' }, env), ['/bin/echo', 'a b']);
  t.deepEqual(startArgv({ startCommandRaw: [], startCommand: 'echo hi' }, env), ['/bin/sh', '-c', 'echo hi']);
  t.deepEqual(startArgv({}, env), ['/bin/sh', '-c', 'node index.js']);
  t.is(startArgv({ startCommand: '' }, { START_COMMAND: '' }), undefined);
  t.is(mainProcessName(['worker', 'app']), 'app');
  t.is(mainProcessName(['worker', 'other']), 'worker');
  t.is(mainProcessName([]), undefined);
});

test('env: a name dash would drop (a leading digit) makes the shell bash, when there is one; it reaches the command', (t) => {
  t.is(shellFor({ PATH: '/bin', MYDB_URI: 'x' }), '/bin/sh');
  t.is(shellFor({ '3F2A_URI': 'x' }, () => true), '/bin/bash');
  t.is(shellFor({ '3F2A_URI': 'x' }, () => false), '/bin/sh', 'no bash: the names are lost, the command still runs');
  t.deepEqual(startArgv({ startCommand: 'env' }, { '3F2A_URI': 'x' }, () => true), ['/bin/bash', '-c', 'env']);
  t.true(isShellName('_A1') && !isShellName('1A') && !isShellName('A-B'));
  // The real shells: whatever startArgv picks passes the name on to what it runs.
  const env = { PATH: BASE_PATH, '3F2A_URI': 'postgres://u:p@h:5432/d' };
  const argv = startArgv({ startCommand: 'env' }, env)!;
  if (argv[0] !== '/bin/bash') {
    t.log('bash is not installed here: the name cannot survive /bin/sh');
    return;
  }
  const out = execFileSync(argv[0], argv.slice(1), { env, encoding: 'utf8' });
  t.true(out.split('\n').includes('3F2A_URI=postgres://u:p@h:5432/d'), out);
});
