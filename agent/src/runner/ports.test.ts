import test from 'ava';
import { createServer } from 'node:net';
import { listeningPorts, listeningPortsOf, NAMESPACE_READS, parseListening, PortAllocator } from './ports.js';
import { eventually } from '../test-support/wait.js';

test('ports: allocated ports are free and distinct while held', async (t) => {
  const a = new PortAllocator();
  const ports = await Promise.all(Array.from({ length: 20 }, () => a.allocate()));
  t.is(new Set(ports).size, 20);
  for (const p of ports) t.true(p > 0 && p < 65536);
});

test('ports: listening sockets are seen in /proc/net', async (t) => {
  const srv = createServer();
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', () => r()));
  const port = (srv.address() as { port: number }).port;
  // Reads are shared for 20 ms: wait for a fresh one rather than asserting at once.
  await eventually(async () => (await listeningPorts()).has(port), 'listening');
  await new Promise((r) => srv.close(r));
  await eventually(async () => !(await listeningPorts()).has(port), 'closed');
  t.pass();
});

test('ports: parseListening reads LISTEN rows only', (t) => {
  const text = `  sl  local_address rem_address   st
   0: 0100007F:1F90 00000000:0000 0A 00000000
   1: 0100007F:0050 0100007F:1234 01 00000000`;
  t.deepEqual([...parseListening(text)], [0x1f90]);
});

test('ports: reads of a namespace\'s listening ports, many at once, all answer (at most NAMESPACE_READS run together), and one of a process gone fails without holding its turn', async (t) => {
  const srv = createServer();
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', () => r()));
  t.teardown(() => new Promise<void>((r) => srv.close(() => r())));
  const port = (srv.address() as { port: number }).port;
  const gone = 2 ** 22 + 1; // above Linux's pid_max: never a process
  const reads = Array.from({ length: 3 * NAMESPACE_READS + 1 }, (_, i) => (i % 3 === 0 ? listeningPortsOf(gone) : listeningPortsOf(process.pid)));
  const settled = await Promise.allSettled(reads);
  settled.forEach((r, i) => {
    if (i % 3 === 0) t.is(r.status, 'rejected');
    else t.true(r.status === 'fulfilled' && r.value.has(port));
  });
  // Every turn was given back: as many reads again still run.
  const again = await Promise.all(Array.from({ length: NAMESPACE_READS + 1 }, () => listeningPortsOf(process.pid)));
  t.true(again.every((s) => s.has(port)));
});
