import test from 'ava';
import { JsonLogger, type LogSink } from '@platform/proto/common';
import { PartStartError, Parts, PartsStopError, startParts } from './parts.js';

function quiet(): JsonLogger {
  const sink: LogSink = { write: () => undefined, flush: () => undefined };
  return new JsonLogger(sink, 'error');
}

/** A part that notes its start and stop in `events`; `fail` makes its stop throw. */
function part(events: string[], name: string, o: { fail?: boolean; delayMs?: number } = {}) {
  return {
    name,
    stop: async (graceful: boolean) => {
      events.push(`${name} stopping${graceful ? '' : ' (hurried)'}`);
      if (o.delayMs) await new Promise((resolve) => setTimeout(resolve, o.delayMs));
      events.push(`${name} stopped`);
      if (o.fail) throw new Error(`${name} broke`);
    },
  };
}

test('parts: the written phases stop first, each phase together; the rest in the reverse of their start', async (t) => {
  const events: string[] = [];
  const parts = new Parts(quiet());
  for (const name of ['store-users', 'agents', 'staging', 'api', 'router']) parts.started(part(events, name, name === 'router' ? { delayMs: 20 } : {}));
  t.deepEqual(parts.names, ['store-users', 'agents', 'staging', 'api', 'router']);
  await parts.stop([['staging'], ['router', 'api']]);
  t.deepEqual(events, [
    'staging stopping', 'staging stopped',
    // Together: the API starts stopping before the router has stopped.
    'router stopping', 'api stopping', 'api stopped', 'router stopped',
    'agents stopping', 'agents stopped',
    'store-users stopping', 'store-users stopped',
  ]);
});

test('parts: a part that fails to stop does not keep the others running; the errors come together', async (t) => {
  const events: string[] = [];
  const parts = new Parts(quiet());
  parts.started(part(events, 'a'));
  parts.started(part(events, 'b', { fail: true }));
  parts.started(part(events, 'c', { fail: true }));
  const err = await t.throwsAsync(parts.stop(), { instanceOf: PartsStopError });
  t.deepEqual(err!.parts, ['c', 'b']);
  t.regex(err!.message, /2 part\(s\) failed to stop: c: c broke; b: b broke/);
  t.deepEqual(events.filter((e) => e.endsWith('stopped')), ['c stopped', 'b stopped', 'a stopped']);
  // Stopping again is the same stop: nothing is stopped twice.
  await t.throwsAsync(parts.stop(), { instanceOf: PartsStopError });
  t.is(events.length, 6);
});

test('parts: a start that failed stops what started, hurried; names are unique; none starts once they stop', async (t) => {
  const events: string[] = [];
  const parts = new Parts(quiet());
  parts.started(part(events, 'a'));
  t.throws(() => parts.started(part(events, 'a')), { message: /two parts are named a/ });
  parts.started(part(events, 'b'));
  await parts.stop([['never-started'], ['a']], false);
  t.deepEqual(events, ['a stopping (hurried)', 'a stopped', 'b stopping (hurried)', 'b stopped']);
  t.throws(() => parts.started(part(events, 'late')), { message: /started while the parts stop/ });
});

/** A part that notes its start and stop; `failStart` makes its start throw. */
function startable(events: string[], name: string, o: { failStart?: boolean } = {}) {
  return {
    name,
    start: async () => {
      events.push(`${name} starting`);
      await new Promise((resolve) => setImmediate(resolve));
      if (o.failStart) throw new Error(`${name}: port in use`);
      events.push(`${name} started`);
    },
    stop: (graceful: boolean) => void events.push(`${name} stopped${graceful ? '' : ' (hurried)'}`),
  };
}

test('parts: startAll starts one part after the other in the written order; stop goes the other way', async (t) => {
  const events: string[] = [];
  const parts = new Parts(quiet());
  await parts.startAll(['store', 'actors', 'api'].map((n) => startable(events, n)));
  t.deepEqual(events, ['store starting', 'store started', 'actors starting', 'actors started', 'api starting', 'api started']);
  t.deepEqual(parts.names, ['store', 'actors', 'api']);
  events.length = 0;
  await parts.stop();
  t.deepEqual(events, ['api stopped', 'actors stopped', 'store stopped']);
});

test('parts: a part that fails to start: those started stop, hurried, in the reverse order; the later ones never start', async (t) => {
  const events: string[] = [];
  const err = await t.throwsAsync(
    startParts(quiet(), [startable(events, 'store'), startable(events, 'actors'), startable(events, 'agents', { failStart: true }), startable(events, 'api')]),
    { instanceOf: PartStartError },
  );
  t.is(err!.part, 'agents');
  t.is(err!.message, 'agents failed to start: agents: port in use');
  t.is((err!.cause as Error).message, 'agents: port in use');
  t.deepEqual(events, [
    'store starting', 'store started', 'actors starting', 'actors started', 'agents starting',
    'actors stopped (hurried)', 'store stopped (hurried)',
  ]);
});

test('parts: startWith gives what the start made, and hands it to the stop; a group started again is new', async (t) => {
  const stopped: string[] = [];
  const parts = new Parts(quiet());
  const port = await parts.startWith('listener', () => 8123, (p, graceful) => void stopped.push(`${p} ${graceful}`));
  t.is(port, 8123);
  await t.throwsAsync(parts.startWith('listener', () => 1, () => undefined), { message: /two parts are named listener/ });
  const group = await startParts(quiet(), [{ name: 'a', stop: () => void stopped.push('a') }]);
  t.deepEqual(group.names, ['a']);
  await parts.stop();
  await group.stop();
  t.deepEqual(stopped, ['8123 true', 'a']);
});
