import test from 'ava';
import { buildEnvironment, expand, BASE_PATH } from './env.js';

test('env: $NAME and ${NAME} expand against the earlier value; $$ is a dollar', (t) => {
  t.is(expand('/opt/node/bin:$PATH', { PATH: '/usr/bin' }), '/opt/node/bin:/usr/bin');
  t.is(expand('${A}x$B-$UNSET-$$', { A: '1', B: '2' }), '1x2--$');
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
