/**
 * TCP and UDP routes through the embedded router, to real apps on a real agent: a TCP echo over
 * `tcp://auto` (a port from the controller's range, stored on the job), a taken port refused
 * with 409, and a UDP echo kept on one instance per client.
 */
import dgram from 'node:dgram';
import net from 'node:net';
import test from 'ava';
import type { ApiErrorBody, Job } from '@platform/controller';
import { tarGz, uploadPackage } from '../harness/apps.js';
import { runningInstances, startCluster } from '../harness/cluster.js';
import { unique } from '../harness/fixtures.js';
import { freePort } from '../harness/net.js';
import { eventually } from '../harness/wait.js';

const STREAM_APP = `
const net = require('node:net');
const dgram = require('node:dgram');
const port = Number(process.env.PORT);
const me = process.env.PLATFORM_INSTANCE_UUID;
if (process.env.MODE === 'udp') {
  const s = dgram.createSocket('udp4');
  s.on('message', (m, r) => s.send('echo from ' + me + ': ' + m, r.port, r.address));
  s.bind(port);
} else {
  net.createServer((c) => c.on('data', (d) => c.write('echo from ' + me + ': ' + d))).listen(port);
}
process.on('SIGTERM', () => process.exit(0));
`;

function tcpEcho(port: number, text: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect({ host: '127.0.0.1', port }, () => socket.write(text));
    socket.once('data', (d) => {
      resolve(d.toString());
      socket.end();
    });
    socket.once('error', reject);
    socket.once('close', () => reject(new Error('closed without an answer')));
  });
}

function udpEcho(port: number, text: string, socket: dgram.Socket): Promise<string> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('no answer')), 1_000);
    socket.once('message', (m) => {
      clearTimeout(timer);
      resolve(m.toString());
    });
    socket.send(text, port, '127.0.0.1');
  });
}

test('router: TCP echo over tcp://auto (endpoint at the advertised address), a taken port refused; UDP echo on one instance per client', async (t) => {
  const tcpPort = await freePort();
  // Clients would reach the routers at 198.51.100.7 (behind NAT, say): tcp://auto endpoints name it.
  const cluster = await startCluster(t, [{}], { args: ['--router-tcp-ports', `${tcpPort}-${tcpPort}`, '--router-advertise-address', '198.51.100.7'] });
  const { api } = cluster;
  const pkg = await uploadPackage(api, '/sandbox/admin', tarGz({ 'app/server.js': STREAM_APP }));
  const job = (routes: unknown[], extra: Record<string, unknown> = {}, optional = false) => ({
    fqn: `job::/sandbox/admin::${unique('s')}`,
    packages: [{ uuid: pkg.uuid }],
    processes: { app: { start_command: 'node /app/server.js' } },
    ports: [{ number: 0, optional, routes }],
    resources: { memory: 64 * 1024 * 1024, disk: 64 * 1024 * 1024 },
    state: 'started',
    ...extra,
  });

  const tcp = await api.post<Job>('/jobs', job([{ type: 'tcp', endpoint: 'tcp://auto' }]));
  t.is(tcp.status, 200, tcp.text);
  const endpoint = tcp.body.ports[0]!.routes[0]!.endpoint;
  t.is(endpoint, `tcp://198.51.100.7:${tcpPort}`, 'the chosen endpoint, at the advertised address, is stored on the job');
  const [instance] = await runningInstances(api, tcp.body.uuid, 1, 90_000);
  const answer = await eventually(() => tcpEcho(tcpPort, 'hello').catch(() => undefined), { what: 'the TCP route answering' });
  t.is(answer, `echo from ${instance!.uuid}: hello`);
  t.deepEqual((await api.get<Record<string, string[]>>('/jobs/routes')).body[endpoint], [tcp.body.uuid]);
  // A PUT that still says tcp://auto keeps the port.
  const again = await api.put<Job>(`/jobs/${tcp.body.uuid}`, { ...tcp.body, ports: [{ number: 0, routes: [{ type: 'tcp', endpoint: 'tcp://auto' }] }] });
  t.is(again.status, 200, again.text);
  t.is(again.body.ports[0]!.routes[0]!.endpoint, endpoint);

  // Taken: the same endpoint, or auto when the range is used up; bad TCP/UDP endpoints: 400.
  const taken = await api.post<ApiErrorBody>('/jobs', job([{ type: 'tcp', endpoint }]));
  t.is(taken.status, 409, taken.text);
  const full = await api.post<ApiErrorBody>('/jobs', job([{ type: 'tcp', endpoint: 'tcp://auto' }]));
  t.is(full.status, 409, full.text);
  for (const bad of [{ type: 'tcp', endpoint: '127.0.0.1:80' }, { type: 'tcp', endpoint: 'tcp://host.example:80' }, { type: 'tcp', endpoint: 'tcp://127.0.0.1:70000' }, { type: 'udp', endpoint: 'auto' }, { type: 'tcp', endpoint: 'tcp://auto', https_only: true }]) {
    const r = await api.post<ApiErrorBody>('/jobs', job([bad]));
    t.is(r.status, 400, `${JSON.stringify(bad)}: ${r.text}`);
  }

  // UDP: datagrams to the routed port reach an instance listening on its PORT and come back.
  const udpPort = await freePort();
  const udp = await api.post<Job>('/jobs', job([{ type: 'udp', endpoint: `127.0.0.1:${udpPort}` }], { num_instances: 2, processes: { app: { start_command: 'node /app/server.js', environment: { MODE: 'udp' } } } }, true));
  t.is(udp.status, 200, udp.text);
  await runningInstances(api, udp.body.uuid, 2, 90_000);
  const client = dgram.createSocket('udp4');
  t.teardown(() => client.close());
  const first = await eventually(() => udpEcho(udpPort, 'ping', client).catch(() => undefined), { what: 'the UDP route answering' });
  t.regex(first, /^echo from [0-9a-f-]{36}: ping$/);
  // The same client stays on the same instance within the flow timeout.
  for (let i = 0; i < 5; i++) t.is((await udpEcho(udpPort, 'ping', client)).split(':')[0], first.split(':')[0]);
});
