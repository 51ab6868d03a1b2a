import test, { type ExecutionContext } from 'ava';
import { createServer, get as httpGet, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { silentLogger } from '@platform/proto/common';
import { tempDir } from '../test-support/temp.js';
import { LinkProxies } from './link-proxies.js';

/** A real HTTP server on 127.0.0.1 answering `name`. */
async function backend(t: ExecutionContext, name: string): Promise<{ address: string; server: Server }> {
  const server = createServer((_q, r) => r.end(name));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => server.close());
  return { address: `127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

/** GET / on a connection of its own (links spread connections, not requests). */
function get(uri: string): Promise<string> {
  const [host, port] = uri.slice('tcp://'.length).split(':') as [string, string];
  return new Promise((resolve, reject) => {
    httpGet({ host, port: Number(port), path: '/', agent: false }, (res) => {
      let text = '';
      res.on('data', (d: Buffer) => (text += d.toString('utf8')));
      res.on('end', () => resolve(text));
    }).on('error', reject);
  });
}

test('links: connections go round the target\'s addresses, follow updates, skip one that refuses; listeners are shared and closed with their last instance', async (t) => {
  const dir = tempDir(t, 'links-');
  const links = new LinkProxies(join(dir, 'links.json'), silentLogger);
  t.teardown(() => links.close());
  const a = await backend(t, 'a');
  const b = await backend(t, 'b');
  const spec = { bindingUuid: 'l1', envVars: ['API_URI', 'L1_URI'], targetJobUuid: 'job-t', targetPort: 0, addresses: [a.address] };
  const env1 = await links.open('i1', [spec]);
  t.regex(env1['API_URI']!, /^tcp:\/\/127\.0\.0\.1:\d+$/);
  t.is(env1['L1_URI'], env1['API_URI']);
  t.is(await get(env1['API_URI']!), 'a');
  const env2 = await links.open('i2', [spec]);
  t.is(env2['API_URI'], env1['API_URI'], 'one listener per target on an agent');

  links.update({ targetJobUuid: 'job-t', targetPort: 0, addresses: [a.address, b.address] });
  const seen = new Set<string>();
  for (let n = 0; n < 4; n++) seen.add(await get(env1['API_URI']!));
  t.deepEqual([...seen].sort(), ['a', 'b']);
  a.server.close();
  for (let n = 0; n < 3; n++) t.is(await get(env1['API_URI']!), 'b', 'a closed address is passed over');

  links.release('i1');
  t.is(await get(env1['API_URI']!), 'b', 'still used by i2');
  links.release('i2');
  await t.throwsAsync(get(env1['API_URI']!));
});

test('links: a bound address is listened on as given; taken by another target it is refused; a restarted agent listens again where it did', async (t) => {
  const dir = tempDir(t, 'links-');
  const file = join(dir, 'links.json');
  const first = new LinkProxies(file, silentLogger);
  const b = await backend(t, 'b');
  const env = await first.open('i1', [{ envVars: ['B_URI'], targetJobUuid: 'job-b', targetPort: 8080, boundIp: '127.0.0.1', boundPort: 0, addresses: [b.address] }, { envVars: ['AUTO_URI'], targetJobUuid: 'job-b', targetPort: 8080, addresses: [b.address] }]);
  t.is(await get(env['AUTO_URI']!), 'b');
  const auto = env['AUTO_URI']!.slice('tcp://'.length);
  const port = Number(auto.split(':')[1]);
  await t.throwsAsync(first.open('i2', [{ envVars: ['X_URI'], targetJobUuid: 'job-other', targetPort: 0, boundIp: '127.0.0.1', boundPort: port }]), { message: /used by a link to another job port/ });
  first.close();
  await t.throwsAsync(get(env['AUTO_URI']!));

  const second = new LinkProxies(file, silentLogger);
  t.teardown(() => second.close());
  await second.restore(new Set(['i1']));
  second.update({ targetJobUuid: 'job-b', targetPort: 8080, addresses: [b.address] });
  t.is(await get(env['AUTO_URI']!), 'b', 'the same address as before the restart');
});
