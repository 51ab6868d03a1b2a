import test from 'ava';
import { JsonLogger, MemorySink, silentLogger } from '@platform/proto/common';
import { ReleaseError, SetupAbortedError, StepError, StepRunner, type Step } from './step.js';

/** Steps that record what they were asked, in a shared journal; `fail` names steps that throw. */
function steps(names: string[], journal: string[], fail: { prepare?: string[]; release?: string[]; started?: string[] } = {}): Step<string>[] {
  return names.map((name) => ({
    name,
    async prepare(ctx) {
      journal.push(`prepare ${name} (${ctx})`);
      await Promise.resolve();
      if (fail.prepare?.includes(name)) throw new Error(`${name} broke`);
    },
    restore: () => void journal.push(`restore ${name}`),
    started() {
      journal.push(`started ${name}`);
      if (fail.started?.includes(name)) throw new Error(`${name} missed the start`);
    },
    release() {
      journal.push(`release ${name}`);
      if (fail.release?.includes(name)) throw new Error(`${name} stuck`);
    },
  }));
}

test('steps: prepare runs every step in order; release lets go of them in reverse order, once', async (t) => {
  const journal: string[] = [];
  const runner = new StepRunner(steps(['a', 'b', 'c'], journal), silentLogger);
  await runner.prepare('ctx');
  t.deepEqual(runner.held, ['a', 'b', 'c']);
  t.deepEqual(Object.keys(runner.timings), ['a', 'b', 'c'], 'each step\'s prepare is timed, in order');
  t.true(Object.values(runner.timings).every((ms) => ms >= 0));
  runner.started('ctx');
  await runner.release('ctx');
  await runner.release('ctx');
  t.deepEqual(journal, ['prepare a (ctx)', 'prepare b (ctx)', 'prepare c (ctx)', 'started a', 'started b', 'started c', 'release c', 'release b', 'release a']);
  t.deepEqual(runner.held, []);
});

test('steps: setup stops at the first failure, names the step, and releases only what was prepared', async (t) => {
  const journal: string[] = [];
  const runner = new StepRunner(steps(['a', 'b', 'c', 'd'], journal, { prepare: ['b'] }), silentLogger);
  const err = await t.throwsAsync(runner.prepare('ctx'), { instanceOf: StepError });
  t.is(err.step, 'b');
  t.is(err.message, 'b broke', 'the message is the step\'s own (it becomes the instance\'s reason)');
  t.true(err.cause instanceof Error);
  t.deepEqual(runner.held, ['a', 'b'], 'the failed step is held: it may have done part of its work');
  await runner.release('ctx');
  t.deepEqual(journal, ['prepare a (ctx)', 'prepare b (ctx)', 'release b', 'release a']);
});

test('steps: an aborted signal stops the setup between two steps', async (t) => {
  const journal: string[] = [];
  const abort = new AbortController();
  const list = steps(['a', 'b'], journal);
  list[0] = { ...list[0]!, prepare: () => void (journal.push('prepare a'), abort.abort()) };
  const runner = new StepRunner(list, silentLogger);
  const err = await t.throwsAsync(runner.prepare('ctx', abort.signal), { instanceOf: SetupAbortedError });
  t.is(err.before, 'b');
  t.deepEqual(runner.held, ['a']);
});

test('steps: release runs every step even when some fail, and throws all their errors together, each logged', async (t) => {
  const journal: string[] = [];
  const sink = new MemorySink();
  const runner = new StepRunner(steps(['a', 'b', 'c'], journal, { release: ['c', 'a'] }), new JsonLogger(sink, 'debug'));
  await runner.prepare('ctx');
  const err = await t.throwsAsync(runner.release('ctx'), { instanceOf: ReleaseError });
  t.true(err instanceof AggregateError);
  t.deepEqual(err.errors.map((e) => [e.step, e.message]), [['c', 'c stuck'], ['a', 'a stuck']]);
  t.is(err.message, '2 step(s) failed to release: c: c stuck; a: a stuck');
  t.deepEqual(journal.filter((l) => l.startsWith('release')), ['release c', 'release b', 'release a']);
  t.deepEqual(sink.lines.map((l) => [l['msg'], l['step']]), [['setup step failed to release', 'c'], ['setup step failed to release', 'a']]);
  t.deepEqual(runner.held, [], 'a step that failed to release is not released again');
});

test('steps: hold takes every step as held and restores each; adopt holds one; a failing started hook does not stop the others', async (t) => {
  const journal: string[] = [];
  const runner = new StepRunner(steps(['a', 'b', 'c'], journal, { started: ['a'] }), silentLogger);
  runner.adopt('b');
  t.deepEqual(runner.held, ['b']);
  runner.hold('ctx');
  t.deepEqual(runner.held, ['a', 'b', 'c']);
  runner.started('ctx');
  await runner.release('ctx');
  t.deepEqual(journal, ['restore a', 'restore b', 'restore c', 'started a', 'started b', 'started c', 'release c', 'release b', 'release a']);
  t.throws(() => new StepRunner(steps(['a', 'a'], []), silentLogger), { message: /distinct names/ });
});
