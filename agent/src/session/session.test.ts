import test from 'ava';
import { createAgentServiceClient, type Hello, type Welcome } from '@platform/proto';
import { silentLogger } from '@platform/proto/common';
import { FakeController } from '../test-support/fake-controller.js';
import { eventually } from '../test-support/wait.js';
import { Session, SessionStateError, sessionTransition, type SessionHandler, type SessionOptions } from './session.js';

interface Recorded {
  hellos: number;
  welcomes: Welcome[];
  starts: string[];
}

function handler(recorded: Recorded, instances: () => string[] = () => []): SessionHandler {
  return {
    hello: (): Hello => {
      recorded.hellos++;
      return { agentUuid: 'agent-1', hostname: 'h', instances: instances().map((instanceUuid) => ({ instanceUuid })) };
    },
    welcome: (w) => void recorded.welcomes.push(w),
    start: (m) => void recorded.starts.push(m.spec?.instanceUuid ?? ''),
    stop: () => undefined,
    listFiles: () => undefined,
    snapshot: () => undefined,
    flushLogs: () => undefined,
    usage: () => ({}),
  };
}

async function setup(options: Partial<SessionOptions> = {}, instances?: () => string[]) {
  const controller = new FakeController();
  await controller.start();
  const recorded: Recorded = { hellos: 0, welcomes: [], starts: [] };
  const client = createAgentServiceClient(controller.address, undefined, { 'grpc.initial_reconnect_backoff_ms': 50, 'grpc.max_reconnect_backoff_ms': 200 });
  const session = new Session({
    client, joinToken: controller.secret, handler: handler(recorded, instances), log: silentLogger,
    random: () => 0, maxBackoffMs: 400, welcomeTimeoutMs: 500, ...options,
  });
  const done = async (): Promise<void> => {
    session.stop();
    client.close();
    await controller.stop();
  };
  return { controller, recorded, session, done };
}

test('session: connects, writes Hello first, and is welcomed', async (t) => {
  const { controller, recorded, session, done } = await setup();
  t.is(session.state, 'idle');
  session.start();
  await eventually(() => session.state === 'welcomed', 'the Welcome');
  t.is(recorded.welcomes.length, 1);
  t.is(controller.received[0]?.msg.hello?.agentUuid, 'agent-1');
  t.true(session.canSend());
  await done();
});

test('session: after the controller goes away it reconnects with a fresh Hello listing what runs now', async (t) => {
  let running = ['i1'];
  const { controller, recorded, session, done } = await setup({}, () => running);
  session.start();
  await eventually(() => session.state === 'welcomed', 'the first Welcome');
  const port = controller.port;
  await controller.stop();
  await eventually(() => session.state === 'connecting', 'the session to notice');
  t.false(session.send({ heartbeat: {} }), 'nothing is written while no stream is open');
  running = ['i1', 'i2'];
  await controller.start(port);
  await eventually(() => recorded.welcomes.length === 2 && session.state === 'welcomed', 'the second Welcome', 20_000);
  t.deepEqual(controller.hellos.at(-1)?.instances?.map((i) => i.instanceUuid), ['i1', 'i2']);
  t.true(recorded.hellos >= 2);
  // Messages after the Welcome reach the handler on the new stream.
  controller.send({ start: { spec: { instanceUuid: 'i3' } } });
  await eventually(() => recorded.starts.includes('i3'), 'the start on the new stream');
  await done();
});

test('session: a refused Welcome is not a session; it retries and is welcomed once accepted', async (t) => {
  const { controller, recorded, session, done } = await setup();
  let refuse = true;
  controller.welcome = () => (refuse ? { refused: 'not yet' } : { heartbeatIntervalMs: 200, controllerId: 'c' });
  session.start();
  await eventually(() => controller.hellos.length >= 2, 'a second Hello after the refusal');
  t.not(session.state, 'welcomed');
  t.is(recorded.welcomes.length, 0, 'the handler hears no refused Welcome');
  refuse = false;
  await eventually(() => session.state === 'welcomed', 'the Welcome after the refusal');
  t.is(recorded.welcomes.length, 1);
  await done();
});

test('session: without a Welcome within welcomeTimeoutMs the call is ended and tried again', async (t) => {
  const { controller, session, done } = await setup();
  let answer = false;
  controller.welcome = () => (answer ? { heartbeatIntervalMs: 200, controllerId: 'c' } : undefined);
  session.start();
  await eventually(() => controller.hellos.length >= 1, 'the first Hello');
  answer = true;
  await eventually(() => controller.hellos.length >= 2, 'a second Hello after the timeout');
  await eventually(() => session.state === 'welcomed', 'the Welcome');
  t.pass();
  await done();
});

test('session: stop ends the stream and it does not reconnect', async (t) => {
  const { session, done } = await setup();
  session.start();
  await eventually(() => session.state === 'welcomed', 'the Welcome');
  session.stop();
  t.is(session.state, 'stopped');
  t.false(session.send({ heartbeat: {} }));
  session.start();
  t.is(session.state, 'stopped', 'a stopped session does not start again');
  await done();
});

test('session: the transition table refuses what the diagram does not draw, with a typed error', (t) => {
  t.is(sessionTransition('idle', 'connecting'), 'connecting');
  t.is(sessionTransition('open', 'welcomed'), 'welcomed');
  t.is(sessionTransition('welcomed', 'connecting'), 'connecting');
  for (const [from, to] of [['idle', 'welcomed'], ['connecting', 'welcomed'], ['stopped', 'connecting'], ['welcomed', 'open']] as const) {
    const err = t.throws(() => sessionTransition(from, to), { instanceOf: SessionStateError });
    t.is(err.from, from);
    t.is(err.to, to);
  }
});
