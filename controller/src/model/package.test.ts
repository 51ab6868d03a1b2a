import test from 'ava';
import { IllegalTransitionError } from '@platform/proto/common';
import { PACKAGE_MACHINE } from './package.js';

test('package: the state table refuses what the diagram does not draw, with a typed error', (t) => {
  t.is(PACKAGE_MACHINE.check('uploading', 'staging'), 'staging');
  t.is(PACKAGE_MACHINE.check('uploading', 'uploading'), 'uploading', 'one archive of several');
  t.is(PACKAGE_MACHINE.check('staging', 'failed'), 'failed');
  for (const [from, to] of [['ready', 'staging'], ['failed', 'ready'], ['staging', 'uploading'], ['ready', 'ready']] as const) {
    const err = t.throws(() => PACKAGE_MACHINE.check(from, to), { instanceOf: IllegalTransitionError });
    t.is(err.machine, 'package');
    t.is(err.from, from);
    t.is(err.to, to);
  }
});
