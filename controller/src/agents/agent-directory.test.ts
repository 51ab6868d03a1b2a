import { Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import test from 'ava';
import type { Hello } from '@platform/proto';
import { IllegalTransitionError, silentLogger } from '@platform/proto/common';
import { MemoryStore } from '../store/memory-store.js';
import { ManualClock } from '../util/clock.js';
import { AGENT_MACHINE, AgentDirectory, type AgentConnection, type ClusterEvents } from './agent-directory.js';

const LOST_AFTER = 4000;
const GRACE = 5000;

function events(lost: string[]): ClusterEvents {
  return {
    hello: async () => ({ adopt: [], stop: [] }),
    report: () => undefined,
    logs: () => undefined,
    lost: (agent) => lost.push(agent),
    capacityChanged: () => undefined,
  };
}

const connection: AgentConnection = { send: () => true, close: () => undefined };

function directory(store: MemoryStore, clock: ManualClock): AgentDirectory {
  return new AgentDirectory({ store, clock, log: silentLogger, heartbeatIntervalMs: 1000, lostAfterMs: LOST_AFTER, reconnectGraceMs: GRACE });
}

async function knownAgent(store: MemoryStore, clock: ManualClock, uuid: string): Promise<void> {
  const first = directory(store, clock);
  await first.start(events([]));
  await first.hello({ agentUuid: uuid, hostname: 'h' } as Hello, connection);
  first.stop();
}

test('agent directory: a connected agent silent for lostAfterMs is lost, once', async (t) => {
  const clock = new ManualClock();
  const lost: string[] = [];
  const d = directory(new MemoryStore(), clock);
  await d.start(events(lost));
  d.watch();
  const { sessionId } = await d.hello({ agentUuid: 'a1', hostname: 'h' } as Hello, connection);
  clock.advance(LOST_AFTER - 1);
  d.sweep();
  t.is(d.get('a1')?.status, 'connected');
  t.true(d.heard('a1', sessionId));
  clock.advance(LOST_AFTER - 1);
  d.sweep();
  t.deepEqual(lost, []);
  clock.advance(1);
  d.sweep();
  d.sweep();
  t.deepEqual(lost, ['a1']);
  t.is(d.get('a1')?.status, 'lost');
  d.stop();
});

test('agent directory: a restarted controller counts a known agent\'s silence from when agents can connect, plus the reconnect grace', async (t) => {
  const store = new MemoryStore();
  const clock = new ManualClock();
  await knownAgent(store, clock, 'a1');
  const lost: string[] = [];
  const d = directory(store, clock);
  await d.start(events(lost));
  t.is(d.get('a1')?.status, 'disconnected');
  // Restoring state and probing built-ins took a while before the gRPC port listened.
  clock.advance(30_000);
  d.sweep();
  t.deepEqual(lost, [], 'nobody is lost before agents can connect');
  d.watch();
  clock.advance(LOST_AFTER + GRACE - 1);
  d.sweep();
  t.deepEqual(lost, [], 'an agent in its longest backoff still has time');
  clock.advance(1);
  d.sweep();
  t.deepEqual(lost, ['a1']);
  d.stop();
});

test('agent directory: a known agent that says Hello after the restart is held to lostAfterMs again', async (t) => {
  const store = new MemoryStore();
  const clock = new ManualClock();
  await knownAgent(store, clock, 'a1');
  const lost: string[] = [];
  const d = directory(store, clock);
  await d.start(events(lost));
  d.watch();
  clock.advance(GRACE);
  await d.hello({ agentUuid: 'a1', hostname: 'h' } as Hello, connection);
  t.is(d.get('a1')?.status, 'connected');
  sweepFor(d, clock, LOST_AFTER - 1000);
  t.deepEqual(lost, []);
  sweepFor(d, clock, 1000);
  t.deepEqual(lost, ['a1']);
  d.stop();
});

test('agent directory: an agent whose Hello is being handled after a restart is not lost meanwhile, however long it takes; one that comes back unchanged is not written again', async (t) => {
  const store = new MemoryStore();
  const clock = new ManualClock();
  // Known from an earlier run (an agent tells when it started: the same in its Hellos until it restarts).
  const first = directory(store, clock);
  await first.start(events([]));
  for (const uuid of ['a1', 'a2']) await first.hello({ agentUuid: uuid, hostname: 'h', startedAtMs: 1 } as Hello, connection);
  first.stop();
  // The store's writes wait while `held` (a thousand agents saying Hello at once).
  let release: () => void = () => {};
  let held: Promise<void> = Promise.resolve();
  let writes = 0;
  const batch = store.batch.bind(store);
  store.batch = async (ops) => {
    writes++;
    await held;
    return batch(ops);
  };
  const lost: string[] = [];
  const d = directory(store, clock);
  await d.start(events(lost));
  d.watch();
  clock.advance(GRACE);
  // a1 comes back unchanged: nothing to write. a2 comes back with another hostname: written.
  const unchanged = await d.hello({ agentUuid: 'a1', hostname: 'h', startedAtMs: 1 } as Hello, connection);
  t.is(writes, 0, 'an agent that comes back as it was is not written again');
  held = new Promise((r) => (release = r));
  const changed = d.hello({ agentUuid: 'a2', hostname: 'h2', startedAtMs: 1 } as Hello, connection);
  sweepFor(d, clock, LOST_AFTER + GRACE);
  t.deepEqual(lost, ['a1'], 'a1 said nothing after its Welcome; a2, whose Hello is still being handled, is not lost');
  release();
  await changed;
  t.is(writes, 1);
  t.is(d.get('a2')?.status, 'connected');
  t.truthy(unchanged.sessionId);
  sweepFor(d, clock, LOST_AFTER - 1000);
  t.deepEqual(lost, ['a1'], 'its silence counts from its Welcome');
  d.stop();
});

/** Lets `ms` pass as the sweep's timer does: a sweep every second. */
function sweepFor(d: AgentDirectory, clock: ManualClock, ms: number): void {
  for (let left = ms; left > 0; left -= 1000) {
    clock.advance(Math.min(1000, left));
    d.sweep();
  }
}

test('agent directory: a sweep that comes after a stall of the controller declares nobody lost; the next one decides', async (t) => {
  const clock = new ManualClock();
  const lost: string[] = [];
  const d = directory(new MemoryStore(), clock);
  await d.start(events(lost));
  d.watch();
  const a1 = await d.hello({ agentUuid: 'a1', hostname: 'h' } as Hello, connection);
  await d.hello({ agentUuid: 'a2', hostname: 'h' } as Hello, connection);
  sweepFor(d, clock, 2000);
  // The event loop is blocked for 20 s (a disk stall in a commit): both agents kept sending
  // heartbeats, which wait in the sockets; the timer's sweep runs before they are read.
  clock.advance(20_000);
  d.sweep();
  t.deepEqual(lost, [], 'the late sweep is put off');
  t.true(d.heard('a1', a1.sessionId)); // then the I/O is read: a1's heartbeat; a2 had really gone
  sweepFor(d, clock, 1000);
  t.deepEqual(lost, ['a2']);
  t.is(d.get('a1')?.status, 'connected');
  // Stalls one after another (every sweep late): every other sweep decides.
  for (let i = 0; i < 2; i++) {
    clock.advance(20_000);
    d.sweep();
  }
  t.deepEqual(lost, ['a2', 'a1'], 'a late sweep after a put-off one decides');
  d.stop();
});

test('agent directory: a snapshot that fails before anyone reads it keeps its error for the reader (no uncaught error)', async (t) => {
  const agents = directory(new MemoryStore(), new ManualClock());
  // No such agent: the stream fails at once, before a reader is attached (a reader first prepares a temporary directory).
  const stream = agents.requestSnapshot('6f1c2a9e-3b4d-4e5f-8a7b-9c0d1e2f3a4b', 'instance', '');
  await sleep(20);
  await t.throwsAsync(pipeline(stream, new Writable({ write: (_c, _e, cb) => cb() })), { message: /not connected/ });
});

test('agent directory: the status table refuses what the diagram does not draw, with a typed error', (t) => {
  t.is(AGENT_MACHINE.check('lost', 'connected'), 'connected');
  t.is(AGENT_MACHINE.check('connected', 'connected'), 'connected', 'a new session replaces the old one');
  for (const [from, to] of [['lost', 'disconnected'], ['lost', 'lost'], ['disconnected', 'disconnected']] as const) {
    const err = t.throws(() => AGENT_MACHINE.check(from, to), { instanceOf: IllegalTransitionError });
    t.is(err.machine, 'agent');
    t.is(err.from, from);
    t.is(err.to, to);
  }
});

test('agent directory: each agent gets a block of its own from the instance subnet pool, kept across its sessions and a controller restart; none when the pool is used up', async (t) => {
  const store = new MemoryStore();
  const clock = new ManualClock();
  const make = () => new AgentDirectory({ store, clock, log: silentLogger, heartbeatIntervalMs: 1000, lostAfterMs: LOST_AFTER, instanceSubnets: { pool: '10.9.0.0/23', prefix: 24 } });
  const first = make();
  await first.start(events([]));
  const a = await first.hello({ agentUuid: 'a1', hostname: 'h' } as Hello, connection);
  const b = await first.hello({ agentUuid: 'a2', hostname: 'h' } as Hello, connection);
  t.is(a.instanceSubnet, '10.9.0.0/24');
  t.is(b.instanceSubnet, '10.9.1.0/24');
  t.is((await first.hello({ agentUuid: 'a1', hostname: 'h' } as Hello, connection)).instanceSubnet, '10.9.0.0/24', 'a new session keeps it');
  t.is((await first.hello({ agentUuid: 'a3', hostname: 'h' } as Hello, connection)).instanceSubnet, '', 'the pool is used up');
  first.stop();
  const again = make();
  await again.start(events([]));
  t.is((await again.hello({ agentUuid: 'a2', hostname: 'h' } as Hello, connection)).instanceSubnet, '10.9.1.0/24', 'kept in the store');
  t.is(again.get('a2')?.record.instance_subnet, '10.9.1.0/24');
  again.stop();
});

test('agent directory: agents registering at the same time get blocks of their own; a block of another size, from an earlier setting, is not given again', async (t) => {
  const store = new MemoryStore();
  const clock = new ManualClock();
  const make = (prefix: number) => new AgentDirectory({ store, clock, log: silentLogger, heartbeatIntervalMs: 1000, lostAfterMs: LOST_AFTER, instanceSubnets: { pool: '10.9.0.0/21', prefix } });
  const first = make(23);
  await first.start(events([]));
  t.is((await first.hello({ agentUuid: 'a0', hostname: 'h' } as Hello, connection)).instanceSubnet, '10.9.0.0/23');
  first.stop();
  const d = make(24);
  await d.start(events([]));
  // Their registrations are written at once: none is in the directory while the others choose.
  const welcomes = await Promise.all(['a1', 'a2', 'a3', 'a4', 'a5', 'a6', 'a7'].map((agentUuid) => d.hello({ agentUuid, hostname: 'h' } as Hello, connection)));
  t.deepEqual(
    welcomes.map((w) => w.instanceSubnet),
    ['10.9.2.0/24', '10.9.3.0/24', '10.9.4.0/24', '10.9.5.0/24', '10.9.6.0/24', '10.9.7.0/24', ''],
  );
  d.stop();
});
