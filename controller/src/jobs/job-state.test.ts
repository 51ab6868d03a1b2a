import test from 'ava';
import { ConflictError } from '../errors.js';
import { initialJobState, nextJobState } from './job-state.js';

test('job state: a new job is ready with packages, created without, started when asked', (t) => {
  t.is(initialJobState(true, undefined), 'ready');
  t.is(initialJobState(false, undefined), 'created');
  t.is(initialJobState(true, 'start'), 'started');
  t.throws(() => initialJobState(false, 'start'), { instanceOf: ConflictError });
});

test('job state: start and stop', (t) => {
  t.is(nextJobState('ready', true, 'start'), 'started');
  t.is(nextJobState('stopped', true, 'start'), 'started');
  t.is(nextJobState('errored', true, 'start'), 'started');
  t.is(nextJobState('started', true, 'start'), 'started');
  t.is(nextJobState('started', true, 'stop'), 'stopped');
  t.is(nextJobState('errored', true, 'stop'), 'stopped');
  t.is(nextJobState('ready', true, 'stop'), 'ready');
  t.throws(() => nextJobState('staging', true, 'start'), { instanceOf: ConflictError });
});

test('job state: packages added or removed move between created and ready', (t) => {
  t.is(nextJobState('created', true, undefined), 'ready');
  t.is(nextJobState('ready', false, undefined), 'created');
  t.is(nextJobState('stopped', false, undefined), 'created');
  t.throws(() => nextJobState('started', false, undefined), { instanceOf: ConflictError });
  t.is(nextJobState('started', false, 'stop'), 'created');
});
