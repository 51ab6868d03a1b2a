import test from 'ava';
import { JsonLogger, MemorySink } from './logger.js';
import { IllegalTransitionError, StateMachine, type TransitionTable } from './state-machine.js';

type Light = 'red' | 'green' | 'amber' | 'off';
const TABLE: TransitionTable<Light> = { red: ['green', 'off'], green: ['amber', 'off'], amber: ['red', 'amber', 'off'], off: [] };
const light = new StateMachine('light', TABLE);

test('state machine: check returns the target of an allowed transition and refuses the others with a typed error', (t) => {
  t.is(light.check('red', 'green'), 'green');
  t.true(light.allows('amber', 'amber'));
  t.false(light.allows('green', 'red'));
  const err = t.throws(() => light.check('green', 'red'), { instanceOf: IllegalTransitionError });
  t.is(err.machine, 'light');
  t.is(err.from, 'green');
  t.is(err.to, 'red');
  t.is(err.name, 'IllegalTransitionError');
  t.is(err.message, 'light cannot go from green to red');
  t.throws(() => light.check('off', 'off'), { instanceOf: IllegalTransitionError }, 'a state may stay only when its row lists it');
});

test('state machine: the guarded state logs every change with its fields and keeps its state after a refusal', (t) => {
  const sink = new MemorySink();
  const state = light.start('red', new JsonLogger(sink, 'debug'), { crossing: 'a' });
  t.is(state.set('green'), 'red');
  state.set('amber', { why: 'timer' });
  state.set('amber'); // allowed, not a change: not logged
  t.throws(() => state.set('green'), { instanceOf: IllegalTransitionError });
  t.is(state.current, 'amber');
  t.deepEqual(
    sink.lines.map(({ msg, crossing, from, to, why }) => ({ msg, crossing, from, to, why })),
    [
      { msg: 'light state', crossing: 'a', from: 'red', to: 'green', why: undefined },
      { msg: 'light state', crossing: 'a', from: 'green', to: 'amber', why: 'timer' },
    ],
  );
});

test('state machine: transition checks and logs a state kept in a record of its own', (t) => {
  const sink = new MemorySink();
  const log = new JsonLogger(sink, 'debug');
  const record = { light: 'green' as Light };
  record.light = light.transition(record.light, 'amber', log, { crossing: 'b' });
  t.is(record.light, 'amber');
  t.throws(() => (record.light = light.transition(record.light, 'green', log)), { instanceOf: IllegalTransitionError });
  t.is(record.light, 'amber');
  t.deepEqual(sink.lines.map(({ msg, from, to, crossing }) => ({ msg, from, to, crossing })), [{ msg: 'light state', from: 'green', to: 'amber', crossing: 'b' }]);
});
