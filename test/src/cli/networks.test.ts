/**
 * The `network` commands as a user runs them: the built client as a subprocess against a real
 * controller (no agent: the members' addresses come with instances, networks.test.ts of the
 * agents covers those). What `--json` prints is the API's answer, checked against the document.
 */
import test from 'ava';
import { Cli } from '../harness/cli.js';
import { ControllerProcess, TEST_ADMIN_PASSWORD } from '../harness/controller-process.js';
import { OpenApiValidator } from '../harness/openapi.js';

interface Network {
  uuid: string;
  fqn: string;
  subnet_info: { Subnet: string };
  network_end_points: { fqn: string; discovery_address: string; broadcast_enable: boolean; multicast_addresses: string[] }[];
}

test('cli: network create/list/show/join/leave/delete', async (t) => {
  const controller = await ControllerProcess.start();
  t.teardown(() => controller.dispose());
  const cli = await Cli.create(t);
  const validator = await OpenApiValidator.load(controller.url);
  const answers: [string, string, unknown][] = [];
  const answer = <T>(method: string, path: string, value: T): T => (answers.push([method, path, value]), value);
  await cli.ok(['login', controller.url, '--user', 'admin', '--password-stdin'], { stdin: `${TEST_ADMIN_PASSWORD}\n` });
  const api = await controller.admin();
  t.is((await api.post('/jobs', { fqn: 'job::/sandbox/admin::web' })).status, 200);

  const made = answer('POST', '/v1/networks', await cli.json<Network>(['network', 'create', 'lan', '--subnet', '10.123.4.0/24', '--description', 'the LAN']));
  t.is(made.fqn, 'network::/sandbox/admin::lan');
  t.is(made.subnet_info.Subnet, '10.123.4.0/24');
  t.regex(await cli.ok(['network', 'list']), /^FQN\s+SUBNET\s+JOBS\s+UUID\nnetwork::\/sandbox\/admin::lan\s+10\.123\.4\.0\/24\s+0\s/m);
  answer('GET', '/v1/networks', await cli.json(['network', 'list']));

  const joined = answer('POST', '/v1/networks/{uuid}/join', await cli.json<Network>(['network', 'join', 'lan', 'web', '--discovery-address', 'Web', '--no-broadcast', '--multicast', '239.1.0.0/16']));
  t.like(joined.network_end_points[0], { fqn: 'job::/sandbox/admin::web', discovery_address: 'web', broadcast_enable: false, multicast_addresses: ['239.1.0.0/16'] });
  t.regex(await cli.ok(['network', 'show', 'network::/sandbox/admin::lan']), /job::\/sandbox\/admin::web\s+web\.platform\.local\s+no\s+239\.1\.0\.0\/16/);
  answer('GET', '/v1/networks/{uuid}', await cli.json(['network', 'show', made.uuid]));

  // Refusals exit 1 with the API's message; nothing changed.
  const bad = await cli.run(['network', 'join', 'lan', 'web', '--multicast', '10.0.0.0/8']);
  t.is(bad.code, 1);
  t.regex(bad.stderr, /not a multicast block/);
  const busy = await cli.run(['network', 'delete', 'lan']);
  t.is(busy.code, 1);
  t.regex(busy.stderr, /member job/);

  t.regex(await cli.ok(['network', 'leave', 'lan', 'web']), /job::\/sandbox\/admin::web left network::\/sandbox\/admin::lan/);
  t.regex(await cli.ok(['network', 'delete', 'lan']), /network::\/sandbox\/admin::lan deleted/);
  t.is((await cli.run(['network', 'show', 'lan'])).code, 1);
  t.deepEqual(answers.flatMap(([method, path, value]) => validator.check(method, path, 200, 'application/json', JSON.stringify(value))), []);
});
