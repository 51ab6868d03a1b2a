import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import { JsonLogger, MemorySink } from '@platform/proto/common';
import { Controller } from './controller.js';
import { RocksStore } from './store/rocks-store.js';
import { createControllerMetrics } from './telemetry/controller-metrics.js';
import { PartStartError } from './util/parts.js';

function listening(port = 0): Promise<Server> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve(server));
  });
}

const portOf = (s: Server) => (s.address() as { port: number }).port;
const close = (s: Server) => new Promise<void>((resolve) => s.close(() => resolve()));

test('controller: a part that fails to start (the API\'s port is taken) stops the parts started before it: the agents\' port is free again, the store closed', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'controller-start-'));
  const taken = await listening();
  // A port known free now, for the agents' endpoint: the check below binds it again.
  const probe = await listening();
  const grpcPort = portOf(probe);
  await close(probe);
  t.teardown(async () => {
    await close(taken);
    await rm(dir, { recursive: true, force: true });
  });
  const sink = new MemorySink();
  const err = await t.throwsAsync(
    Controller.start({
      dataDir: join(dir, 'data'),
      listen: { host: '127.0.0.1', port: portOf(taken) },
      grpcListen: { host: '127.0.0.1', port: grpcPort },
      routerListen: 'none',
      adminPassword: 'test-password',
      sync: false,
      builtins: false,
      log: new JsonLogger(sink, 'info'),
      metrics: createControllerMetrics(),
    }),
    { instanceOf: PartStartError },
  );
  t.is(err!.part, 'api');
  t.is((err!.cause as NodeJS.ErrnoException).code, 'EADDRINUSE');
  // The agents' endpoint had started: it stopped, and its port can be bound again.
  await close(await listening(grpcPort));
  // And the store is closed: RocksDB's lock is free for another opener.
  const store = await RocksStore.open(join(dir, 'data', 'db'), { sync: false });
  await store.close();
  t.false(sink.lines.some((l) => l['msg'] === 'controller ready'));
});
