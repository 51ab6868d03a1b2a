import test from 'ava';
import { InvalidRequestError } from '../errors.js';
import { fqnMatcher, formatFqn, namespaceWithin, parseFqn } from './fqn.js';

test('fqn: parses type, namespace and local name', (t) => {
  t.deepEqual(parseFqn('job::/sandbox/admin::my-app'), { type: 'job', namespace: '/sandbox/admin', localName: 'my-app' });
  t.deepEqual(parseFqn('policydoc::/::main'), { type: 'policydoc', namespace: '/', localName: 'main' });
  t.deepEqual(parseFqn('package::/platform/runtimes::node/20', { type: 'package' }).localName, 'node/20');
  t.deepEqual(parseFqn('job::/a/b', { localName: 'optional' }), { type: 'job', namespace: '/a/b' });
  t.is(formatFqn(parseFqn('stagpipe::/platform::nodejs')), 'stagpipe::/platform::nodejs');
});

test('fqn: refuses malformed names with the reason', (t) => {
  const cases: [string, RegExp, Parameters<typeof parseFqn>[1]?][] = [
    ['', /must not be empty/],
    ['job', /not of the form/],
    ['job::a::b', /must start with "\/"/],
    ['job:://a::b', /empty segment/],
    ['job::/a/../b::c', /".." segment/],
    ['job::/a', /has no name/],
    ['job::/a::', /empty name/],
    ['thing::/a::b', /not a resource type/],
    ['package::/a::b', /expected a job FQN/, { type: 'job' }],
    ['job::/a::b c', /characters other than/],
    ['job::/a b::c', /characters other than/],
    ['job::/a::b::c::d', /not of the form/],
    [`job::/a::${'x'.repeat(600)}`, /longer than/],
  ];
  for (const [input, message, options] of cases) {
    const err = t.throws(() => parseFqn(input, options), { instanceOf: InvalidRequestError }, input);
    t.regex(err.message, message, input);
  }
});

test('fqn: namespace containment respects segment boundaries', (t) => {
  t.true(namespaceWithin('/a/b', '/a'));
  t.true(namespaceWithin('/a', '/a'));
  t.true(namespaceWithin('/anything', '/'));
  t.false(namespaceWithin('/ab', '/a'));
});

test('fqn: partial matching takes a namespace and its children, or a name prefix', (t) => {
  const ns = fqnMatcher(parseFqn('job::/a', { localName: 'optional' }), true);
  t.true(ns(parseFqn('job::/a::x')));
  t.true(ns(parseFqn('job::/a/b::y')));
  t.false(ns(parseFqn('job::/ab::z')));
  t.false(ns(parseFqn('package::/a::x')));
  const prefix = fqnMatcher(parseFqn('job::/a::we'), true);
  t.true(prefix(parseFqn('job::/a::web')));
  t.false(prefix(parseFqn('job::/a/b::web')));
  const exact = fqnMatcher(parseFqn('job::/a::web'), false);
  t.true(exact(parseFqn('job::/a::web')));
  t.false(exact(parseFqn('job::/a::web2')));
});
