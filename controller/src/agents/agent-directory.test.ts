import { Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import test from 'ava';
import { silentLogger } from '../log/logger.js';
import { MemoryStore } from '../store/memory-store.js';
import { ManualClock } from '../util/clock.js';
import { AgentDirectory } from './agent-directory.js';

test('agent directory: a snapshot that fails before anyone reads it keeps its error for the reader (no uncaught error)', async (t) => {
  const agents = new AgentDirectory({ store: new MemoryStore(), clock: new ManualClock(), log: silentLogger, heartbeatIntervalMs: 1000, lostAfterMs: 5000 });
  // No such agent: the stream fails at once, before a reader is attached (a reader first prepares a temporary directory).
  const stream = agents.requestSnapshot('6f1c2a9e-3b4d-4e5f-8a7b-9c0d1e2f3a4b', 'instance', '');
  await sleep(20);
  await t.throwsAsync(pipeline(stream, new Writable({ write: (_c, _e, cb) => cb() })), { message: /not connected/ });
});
