import { createServer, connect, type AddressInfo, type Server } from 'node:net';
import { createSocket } from 'node:dgram';
import test from 'ava';
import { DestinationListError, DestinationPolicy, DestinationRefusedError, destinationRefusal, parseAllowList, type DestinationPolicyOptions, type RefusalReason } from './destinations.js';
import { SyslogSender } from './syslog.js';

const policy = (o: Partial<DestinationPolicyOptions> = {}, allow = '') =>
  new DestinationPolicy({ purpose: 'test pulls', setting: '--allowed-test', allow: parseAllowList(allow), interfaces: () => ['192.0.2.10', '2001:db8::10'], ...o });

test('destinations: loopback, unspecified, link-local, metadata, multicast and reserved addresses are refused by default; public and private ones are not', (t) => {
  const p = policy();
  const cases: [string, RefusalReason | undefined][] = [
    ['127.0.0.1', 'loopback'],
    ['127.255.0.9', 'loopback'],
    ['::1', 'loopback'],
    ['0.0.0.0', 'unspecified'],
    ['0.1.2.3', 'unspecified'],
    ['::', 'unspecified'],
    ['169.254.169.254', 'link-local'],
    ['fe80::1', 'link-local'],
    ['fe80::1%eth0', 'link-local'],
    ['febf:ffff::1', 'link-local'],
    ['fd00:ec2::254', 'metadata'],
    ['100.100.100.200', 'metadata'],
    ['192.0.0.192', 'metadata'],
    ['224.0.0.1', 'multicast'],
    ['ff02::1', 'multicast'],
    ['255.255.255.255', 'reserved'],
    ['240.0.0.1', 'reserved'],
    ['::7f00:1', 'reserved'],
    ['10.1.2.3', undefined],
    ['172.16.0.1', undefined],
    ['192.168.1.1', undefined],
    ['100.64.0.1', undefined],
    ['fd12::1', undefined],
    ['8.8.8.8', undefined],
    ['2001:4860::8888', undefined],
    ['fec0::1', undefined],
  ];
  for (const [address, reason] of cases) t.is(p.refusal(address, 443), reason, address);
});

test('destinations: IPv4-mapped and NAT64 IPv6 addresses are judged as their IPv4 address, in every spelling', (t) => {
  const p = policy();
  for (const a of ['::ffff:127.0.0.1', '::ffff:7f00:1', '0:0:0:0:0:ffff:7f00:0001', '[::ffff:127.0.0.1]', '64:ff9b::127.0.0.1', '64:ff9b::a9fe:a9fe']) t.truthy(p.refusal(a, 80), a);
  t.is(p.refusal('::ffff:169.254.169.254', 80), 'link-local');
  t.is(p.refusal('::ffff:8.8.8.8', 80), undefined);
  // The allow-list's IPv4 entries cover the mapped forms, and a mapped entry the IPv4 address.
  const allowed = policy({}, '127.0.0.1');
  t.is(allowed.refusal('::ffff:127.0.0.1', 80), undefined);
  t.is(policy({}, '::ffff:127.0.0.0/104').refusal('127.9.9.9', 80), undefined);
});

test('destinations: refusePrivate refuses RFC 1918, shared and ULA addresses', (t) => {
  const p = policy({ refusePrivate: true }, '10.9.0.0/16');
  for (const a of ['10.1.2.3', '172.31.255.255', '192.168.0.1', '100.127.0.1', 'fd00::1', '::ffff:10.0.0.1']) t.is(p.refusal(a, 80), 'private', a);
  t.is(p.refusal('172.32.0.1', 80), undefined, 'just past 172.16/12');
  t.is(p.refusal('10.9.200.1', 80), undefined, 'listed');
});

test('destinations: allow-list entries: addresses and CIDR blocks (v4, v6), host names and subdomains, each with or without a port', (t) => {
  const p = policy({}, '127.0.0.1:5000, 169.254.0.0/16 [::1]:6000 [fe80::/10] localhost:7000 *.internal.example');
  t.is(p.refusal('127.0.0.1', 5000), undefined);
  t.is(p.refusal('127.0.0.1', 5001), 'loopback', 'another port');
  t.is(p.refusal('127.0.0.2', 5000), 'loopback', 'another address');
  t.is(p.refusal('169.254.169.254', 80), undefined);
  t.is(p.refusal('::1', 6000), undefined);
  t.is(p.refusal('::1', 6001), 'loopback');
  t.is(p.refusal('fe80::99', 1), undefined);
  t.is(p.refusal('127.0.0.1', 7000, 'localhost'), undefined, 'a listed name, whatever it resolves to');
  t.is(p.refusal('127.0.0.1', 7000, 'LOCALHOST.'), undefined, 'names compare without case and final dot');
  t.is(p.refusal('127.0.0.1', 7000), 'loopback', 'the name entry does not cover the address given as such');
  t.is(p.refusal('127.0.0.1', 7001, 'localhost'), 'loopback');
  t.is(p.refusal('127.0.0.1', 80, 'registry.internal.example'), undefined);
  t.is(p.refusal('127.0.0.1', 80, 'internal.example'), 'loopback', '*. is for subdomains only');
  t.is(p.refusal('127.0.0.1', 80, 'evilinternal.example'), 'loopback');
  t.deepEqual(p.allowed, ['127.0.0.1:5000', '169.254.0.0/16', '[::1]:6000', '[fe80::/10]', 'localhost:7000', '*.internal.example']);
});

test('destinations: malformed allow-lists are refused with the entry named', (t) => {
  for (const [bad, why] of [
    ['127.0.0.1:0', /port "0"/],
    ['127.0.0.1:70000', /port "70000"/],
    ['10.0.0.1/8', /bits set past its prefix length \(the block is 10\.0\.0\.0\/8\)/],
    ['fd00::1/8', /the block is fd00::\/8/],
    ['10.0.0.0/33', /prefix length "33"/],
    ['[10.0.0.1]:5', /brackets are for IPv6/],
    ['999.1.1.1', /not a host name, an address/],
    ['bad_host!', /not a host name/],
    ['[::1', /not a host name/],
  ] as const) {
    t.throws(() => parseAllowList(bad), { instanceOf: DestinationListError, message: why }, bad);
  }
  t.deepEqual(parseAllowList(' ,\n'), []);
});

test("destinations: the process's own addresses are refused at every port, its listening sockets unless listed with their port", (t) => {
  const listeners = [{ host: '127.0.0.1', port: 8080 }, { host: '203.0.113.5', port: 7070 }];
  const p = policy({ listeners: () => listeners, platformAddresses: () => ['198.51.100.7'] }, '127.0.0.0/8 203.0.113.5 198.51.100.7');
  t.is(p.refusal('127.0.0.1', 5000), undefined, 'a listed loopback port');
  t.is(p.refusal('127.0.0.1', 8080), 'own-listener', 'the API port: an entry without a port does not cover it');
  t.is(p.refusal('203.0.113.5', 22), undefined, 'its address is listed');
  t.is(p.refusal('203.0.113.5', 7070), 'own-listener');
  t.is(p.refusal('::ffff:203.0.113.5', 7070), 'own-listener');
  t.is(policy({ listeners: () => listeners }).refusal('203.0.113.5', 22), 'own-address', 'unlisted: every port of an address it listens on');
  t.is(policy({ platformAddresses: () => ['198.51.100.7'] }).refusal('198.51.100.7', 514), 'own-address');
  t.is(p.refusal('198.51.100.7', 514), undefined);
  t.is(policy({ listeners: () => listeners }, '127.0.0.1:8080').refusal('127.0.0.1', 8080), undefined, 'listed with its port');
  // A wildcard listener: every address of this host, loopback included.
  const wild = policy({ listeners: () => [{ host: '0.0.0.0', port: 9000 }] }, '127.0.0.0/8 192.0.2.10');
  t.is(wild.refusal('192.0.2.10', 9000), 'own-listener');
  t.is(wild.refusal('127.0.0.5', 9000), 'own-listener');
  t.is(wild.refusal('192.0.2.10', 9001), undefined);
  t.is(wild.refusal('2001:db8::10', 9000), undefined, '0.0.0.0 takes IPv4 only');
  t.is(policy({ listeners: () => [{ host: '::', port: 9000 }] }).refusal('2001:db8::10', 9000), 'own-listener');
  t.is(policy({ listeners: () => [{ host: '::', port: 9000 }] }).refusal('2001:db8::10', 1), 'own-address');
});

test("destinations: the platform's other sockets (etcd's members) are refused as its own listeners, their hosts reachable at other ports", (t) => {
  const sockets = [{ host: '10.0.0.5', port: 2379 }, { host: '127.0.0.1', port: 2379 }];
  const p = policy({ platformSockets: () => sockets }, '127.0.0.1 10.0.0.5');
  t.is(p.refusal('10.0.0.5', 2379), 'own-listener', 'a private address allowed by default, but not its etcd port');
  t.is(p.refusal('10.0.0.5', 5432), undefined, 'the same host at another port');
  t.is(p.refusal('127.0.0.1', 2379), 'own-listener', 'a listed address does not cover the socket');
  t.is(p.refusal('::ffff:127.0.0.1', 2379), 'own-listener');
  t.is(p.refusal('127.0.0.1', 5432), undefined);
  t.is(policy({ platformSockets: () => sockets }, '10.0.0.5:2379').refusal('10.0.0.5', 2379), undefined, 'listed with its port');
});

test('destinations: check() resolves a name and refuses it when any address is refused, naming the address; a literal address is judged as it is', async (t) => {
  const names: Record<string, string[]> = { 'mixed.test': ['93.184.216.34', '127.0.0.1'], 'public.test': ['93.184.216.34', '2606:2800:220:1::1'] };
  const p = policy({
    resolve: async (name) => {
      const list = names[name];
      if (!list) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${name}`), { code: 'ENOTFOUND' });
      return list.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
    },
  });
  t.deepEqual(await p.check('public.test', 443), ['93.184.216.34', '2606:2800:220:1::1']);
  const mixed = await t.throwsAsync(p.check('mixed.test', 5000), { instanceOf: DestinationRefusedError });
  t.like(mixed, { host: 'mixed.test', address: '127.0.0.1', port: 5000, reason: 'loopback', code: 'EDESTINATIONREFUSED' });
  t.is(mixed.message, 'test pulls may not reach mixed.test:5000: it resolves to 127.0.0.1, a loopback address (an operator allows it by listing it in --allowed-test)');
  const literal = await t.throwsAsync(p.check('[::1]', 80), { instanceOf: DestinationRefusedError });
  t.is(literal.message, 'test pulls may not reach [::1]:80: ::1 is a loopback address (an operator allows it by listing it in --allowed-test)');
  await t.throwsAsync(p.check('nowhere.test', 80), { code: 'ENOTFOUND' });
  t.throws(() => p.connectOptions('169.254.169.254', 80), { instanceOf: DestinationRefusedError, message: /link-local/ });
  t.is(destinationRefusal(new Error('wrapped', { cause: mixed })), mixed);
  t.is(destinationRefusal(new Error('other')), undefined);
});

test("destinations: a connection through connectOptions() judges the address it connects to: a name resolving to loopback never reaches the server", async (t) => {
  let accepted = 0;
  const server: Server = createServer((s) => {
    accepted++;
    s.destroy();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  t.teardown(() => server.close());
  const port = (server.address() as AddressInfo).port;
  const dial = (p: DestinationPolicy, host: string) =>
    new Promise<string>((resolve) => {
      const s = connect({ host, port, ...p.connectOptions(host, port) });
      s.on('connect', () => {
        s.destroy();
        resolve('connected');
      });
      s.on('error', (err) => resolve((err as NodeJS.ErrnoException).code ?? err.message));
    });
  // The system resolver: `localhost` is loopback.
  t.is(await dial(policy(), 'localhost'), 'EDESTINATIONREFUSED');
  // A name that a check saw public and the connection sees as loopback (DNS rebinding): refused at the connection.
  let answers = 0;
  const rebinding = policy({ resolve: async () => [{ address: answers++ === 0 ? '93.184.216.34' : '127.0.0.1', family: 4 }] });
  t.deepEqual(await rebinding.check('rebind.test', port), ['93.184.216.34']);
  t.is(await dial(rebinding, 'rebind.test'), 'EDESTINATIONREFUSED');
  t.is(accepted, 0, 'the server saw no connection');
  // Listed (by name, whatever it resolves to; by address and port): it connects.
  t.is(await dial(policy({}, `localhost:${port}`), 'localhost'), 'connected');
  t.is(await dial(policy({}, `127.0.0.1:${port}`), '127.0.0.1'), 'connected');
  t.is(await dial(policy({}, `127.0.0.1:${port + 1}`), '127.0.0.1').catch((err: Error) => err.name), 'DestinationRefusedError', 'another port listed');
  t.is(accepted, 2);
});

test('destinations: the syslog sender refuses a drain to a refused address over TCP and UDP, sending nothing', async (t) => {
  let tcpConnections = 0;
  const server = createServer((s) => {
    tcpConnections++;
    s.destroy();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const udp = createSocket('udp4');
  let datagrams = 0;
  udp.on('message', () => datagrams++);
  await new Promise<void>((r) => udp.bind(0, '127.0.0.1', r));
  t.teardown(() => {
    server.close();
    udp.close();
  });
  const errors: string[] = [];
  const events = { sent: () => undefined, dropped: () => undefined, connected: () => undefined, error: (err: Error) => errors.push(err.message) };
  const p = policy({}, '');
  const tcp = new SyslogSender('127.0.0.1', (server.address() as AddressInfo).port, 'tcp', events, 10, p);
  const named = new SyslogSender('localhost', (server.address() as AddressInfo).port, 'tcp', events, 10, p);
  const dgram = new SyslogSender('127.0.0.1', udp.address().port, 'udp', events, 10, p);
  t.teardown(() => [tcp, named, dgram].forEach((s) => s.close()));
  for (const s of [tcp, named, dgram]) s.send(Buffer.from('hello'));
  const end = Date.now() + 10_000;
  while (errors.length < 3 && Date.now() < end) await new Promise((r) => setTimeout(r, 20));
  t.true(errors.filter((e) => /^test pulls may not reach 127\.0\.0\.1:\d+: 127\.0\.0\.1 is a loopback address/.test(e)).length >= 2, errors.join('\n'));
  t.true(errors.some((e) => /^test pulls may not reach localhost:\d+: it resolves to /.test(e)), errors.join('\n'));
  t.is(tcpConnections, 0);
  t.is(datagrams, 0);
});
