import test from 'ava';
import { containerJobBody } from './container-routes.js';
import { planOf } from './image-config.js';
import { parseImageRef } from './image-ref.js';

const ref = parseImageRef('127.0.0.1:5000/team/web:v1');
const body = (user: string, req: { user?: string; group?: string } = {}) =>
  containerJobBody({ image_url: '127.0.0.1:5000/team/web:v1', job_fqn: 'job::/sandbox::web', ...req }, ref, planOf({ config: { Cmd: ['/bin/sh'], User: user } }), 'pkg-uuid') as {
    processes: { app: { user?: string; group?: string } };
  };

test('container jobs: the image User (name, uid, name:group, uid:gid) becomes the process user and group; the request wins', (t) => {
  t.false('user' in body('').processes.app || 'group' in body('').processes.app, 'no User: root (nothing set)');
  t.like(body('web').processes.app, { user: 'web', group: undefined });
  t.like(body('4321:4322').processes.app, { user: '4321', group: '4322' });
  t.like(body('web:staff').processes.app, { user: 'web', group: 'staff' });
  t.like(body('web:staff', { user: 'other' }).processes.app, { user: 'other', group: undefined }, "the request's user does not take the image's group");
  t.like(body('web:staff', { group: 'wheel' }).processes.app, { user: 'web', group: 'wheel' });
});
