import test from 'ava';
import { TestCoordinator } from '../testkit.js';
import { BUILTIN_STAGERS, bashStager, nodejsStager, pythonStager, staticSiteStager } from './index.js';

test('stagers: every runtime of GET /runtimes has a built-in stager', (t) => {
  t.deepEqual(Object.keys(BUILTIN_STAGERS), ['bash', 'ruby', 'nodejs', 'java', 'perl', 'php', 'python', 'static-site', 'go']);
});

test('nodejs stager: a plain source upload is placed under /app with its start command and runtime', async (t) => {
  const kit = await TestCoordinator.start({
    files: { 'server.js': 'require("http").createServer((q, s) => s.end("hi")).listen(process.env.PORT);', 'package.json': '{"name":"web"}' },
  });
  t.teardown(() => kit.close());
  const result = await kit.run(nodejsStager);
  t.is(result.outcome, 'done', String(result.error));
  t.is(kit.outcome, 'done');
  t.is(kit.meta.environment['START_COMMAND'], 'node server.js');
  t.is(kit.meta.environment['START_PATH'], '/app');
  t.true(kit.hasDependency({ type: 'runtime', name: 'node' }));
  const files = await kit.files();
  t.deepEqual([...files.keys()].sort(), ['/app/package.json', '/app/server.js']);
});

test('nodejs stager: npm start when package.json has a start script', async (t) => {
  const kit = await TestCoordinator.start({ files: { 'package.json': '{"scripts":{"start":"node a.js"}}', 'a.js': '' } });
  t.teardown(() => kit.close());
  t.is((await kit.run(nodejsStager)).outcome, 'done');
  t.is(kit.meta.environment['START_COMMAND'], 'npm start');
});

test('nodejs stager: an upload that is not a Node.js app fails with the reason', async (t) => {
  const kit = await TestCoordinator.start({ files: { 'README.md': '# nothing' } });
  t.teardown(() => kit.close());
  const result = await kit.run(nodejsStager);
  t.is(result.outcome, 'failed');
  t.is(kit.outcome, 'failed');
  t.regex(kit.failureMessage, /not a Node.js app/);
  t.is(kit.uploads, 0);
});

test('python stager: runtime.txt picks the runtime version; app.py starts', async (t) => {
  const kit = await TestCoordinator.start({ files: { 'app.py': 'print(1)', 'runtime.txt': 'python-3.11\n', 'requirements.txt': '' } });
  t.teardown(() => kit.close());
  t.is((await kit.run(pythonStager)).outcome, 'done');
  t.is(kit.meta.environment['START_COMMAND'], 'python3 app.py');
  t.true(kit.hasDependency({ type: 'runtime', name: 'python-3.11' }));
});

test('python stager: a malformed runtime.txt fails', async (t) => {
  const kit = await TestCoordinator.start({ files: { 'app.py': '', 'runtime.txt': 'ruby-3' } });
  t.teardown(() => kit.close());
  t.is((await kit.run(pythonStager)).outcome, 'failed');
  t.regex(kit.failureMessage, /runtime\.txt/);
});

test('bash stager: bash_setup.sh runs during staging, bash_start.sh is the start command', async (t) => {
  const kit = await TestCoordinator.start({
    files: { 'bash_setup.sh': 'echo prepared > prepared.txt\n', 'bash_start.sh': 'cat prepared.txt\n' },
  });
  t.teardown(() => kit.close());
  t.is((await kit.run(bashStager)).outcome, 'done');
  t.is(kit.meta.environment['START_COMMAND'], 'bash bash_start.sh');
  t.true(kit.hasDependency({ type: 'runtime', name: 'bash' }));
  const files = await kit.files();
  t.is(files.get('/app/prepared.txt')?.toString(), 'prepared\n');
});

test('static-site stager: needs index.html; serves with the SDK server and depends on it', async (t) => {
  const kit = await TestCoordinator.start({ files: { 'index.html': '<h1>hi</h1>', 'css/site.css': 'h1{}' } });
  t.teardown(() => kit.close());
  t.is((await kit.run(staticSiteStager)).outcome, 'done');
  t.regex(kit.meta.environment['START_COMMAND'] ?? '', /static-server\.js/);
  t.true(kit.hasDependency({ type: 'package', name: 'stager-sdk' }));
  t.true((await kit.files()).has('/app/css/site.css'));

  const none = await TestCoordinator.start({ files: { 'about.html': '' } });
  t.teardown(() => none.close());
  t.is((await none.run(staticSiteStager)).outcome, 'failed');
  t.regex(none.failureMessage, /index\.html/);
});

test('stagers: an upload already under /app stays where it is', async (t) => {
  const kit = await TestCoordinator.start({ files: { '/app/index.js': '' } });
  t.teardown(() => kit.close());
  t.is((await kit.run(nodejsStager)).outcome, 'done');
  t.deepEqual([...(await kit.files()).keys()], ['/app/index.js']);
});
