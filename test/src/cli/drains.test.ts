/**
 * `platform drain` as a user runs it: the built client as a subprocess against a real
 * controller and agent, an app deployed from a directory that logs ticks, and a real rsyslogd
 * on loopback ports receiving them once `drain add` names it; `drain remove` takes it off.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import { Cli } from '../harness/cli.js';
import { startCluster } from '../harness/cluster.js';
import { TEST_ADMIN_PASSWORD } from '../harness/controller-process.js';
import { OpenApiValidator } from '../harness/openapi.js';
import { Rsyslog, rsyslogAvailable } from '../harness/rsyslog.js';
import { eventually } from '../harness/wait.js';

const TICKER = `
require('node:http').createServer((req, res) => res.end('ok')).listen(process.env.PORT);
let n = 0;
setInterval(() => console.log('tick ' + n++), 200);
`;

test('cli: drain add/list/remove: a deployed app\'s log lines reach a real rsyslogd; a bad url is refused with its request id', async (t) => {
  t.timeout(4 * 60_000);
  if (!rsyslogAvailable(t)) return t.pass();
  const syslog = await Rsyslog.start();
  t.teardown(() => syslog.dispose());
  const cluster = await startCluster(t, [{}], { allowedDestinations: [`127.0.0.1:${syslog.tcpPort}`, `127.0.0.1:${syslog.udpPort}`] });
  const cli = await Cli.create(t);
  await cli.ok(['login', cluster.controller.url, '--user', 'admin', '--password-stdin'], { stdin: `${TEST_ADMIN_PASSWORD}\n` });
  await cli.ok(['target', '--router', cluster.controller.routerAddress]);
  const dir = await mkdtemp(join(tmpdir(), 'platform-cli-drain-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  await writeFile(join(dir, 'server.js'), TICKER);
  await writeFile(join(dir, 'package.json'), '{"name":"ticker","main":"server.js"}');
  const deployed = await cli.json<{ job: { uuid: string } }>(['app', 'deploy', dir, '--name', 'ticker', '--memory', '128M']);

  const bad = await cli.run(['drain', 'add', 'ticker', 'http://127.0.0.1:514']);
  t.is(bad.code, 1);
  t.regex(bad.stderr, /HTTP 400, request id /);
  t.is((await cli.run(['drain', 'add', 'ticker', `syslog://127.0.0.1:${syslog.udpPort}`, '--protocol', 'sctp'])).code, 2, 'a usage mistake');

  const url = `syslog://127.0.0.1:${syslog.tcpPort}`;
  const added = await cli.json<{ uuid: string; url: string; conf: { protocol: string; priority: number } }>(['drain', 'add', 'ticker', url, '--priority', '13']);
  t.like(added, { url, conf: { protocol: 'tcp', priority: 13 } });
  const listed = await cli.json<unknown[]>(['drain', 'list', 'ticker']);
  t.deepEqual(listed, [added]);
  const validator = await OpenApiValidator.load(cluster.controller.url);
  t.deepEqual(validator.check('GET', `/v1/jobs/${deployed.job.uuid}/logs/drains`, 200, 'application/json', JSON.stringify(listed)), []);
  t.regex(await cli.ok(['drain', 'list', 'ticker']), new RegExp(`^URL\\s+PROTOCOL\\s+PRIORITY\\s+MAX SIZE\\s+UUID\\n${url}\\s+tcp\\s+13\\s+2048\\s+${added.uuid}$`, 'm'));

  await eventually(async () => (await syslog.lines()).some((l) => l.includes(` ${deployed.job.uuid} `) && / tick \d+$/.test(l)), {
    timeoutMs: 60_000,
    what: 'a tick of the app at rsyslogd',
  });

  t.regex(await cli.ok(['drain', 'remove', 'ticker', url]), /no longer drains to syslog:\/\/127\.0\.0\.1:\d+ \(version \d+\)/);
  t.deepEqual(await cli.json(['drain', 'list', 'ticker']), []);
  const again = await cli.run(['drain', 'remove', 'ticker', added.uuid]);
  t.is(again.code, 1);
  t.regex(again.stderr, /has no drain/);
});
