import test from 'ava';
import { InvalidRequestError } from '../errors.js';
import { JOB_DEFAULTS, parseJobInput } from './job.js';

let n = 0;
const newUuid = () => `00000000-0000-4000-8000-${String(++n).padStart(12, '0')}`;

test('job input: omitted parts take the documented defaults', (t) => {
  const { spec, localName } = parseJobInput({ fqn: 'job::/a::web', processes: { app: { start_command: 'x' } } }, newUuid);
  t.is(localName, 'web');
  t.is(spec.num_instances, 1);
  t.deepEqual(spec.resources, { cpu: 0, memory: 268435456, disk: 1073741824, network: 5000000, netmax: 0 });
  t.deepEqual(spec.restart, { restart_mode: 'always', maximum_attempts: 0 });
  t.is(spec.rollout.force_stop_old_instances_after, 120);
  t.is(spec.rollout.flapping_percent, 0.5);
  t.deepEqual(spec.logs, JOB_DEFAULTS.logs);
  t.is(spec.processes['app']?.start_command_timeout, 30);
  t.is(spec.processes['app']?.stop_timeout, 5);
});

test('job input: unknown and server-assigned fields are dropped, nulls are absent', (t) => {
  const { spec } = parseJobInput(
    {
      fqn: 'job::/a::web',
      uuid: 'whatever',
      version_id: 9,
      created_at: '0001-01-01T00:00:00Z',
      surprise: { deep: true },
      tags: null,
      resources: { memory: 1024, bogus: 1 },
    },
    newUuid,
  );
  t.false('uuid' in spec);
  t.false('surprise' in spec);
  t.deepEqual(spec.tags, {});
  t.is(spec.resources.memory, 1024);
  t.false('bogus' in spec.resources);
});

test('job input: equal specs normalize equally whatever the key order', (t) => {
  const a = parseJobInput({ fqn: 'job::/a::w', tags: { b: '2', a: '1' }, processes: { y: {}, x: {} } }, newUuid).spec;
  const b = parseJobInput({ processes: { x: {}, y: {} }, tags: { a: '1', b: '2' }, fqn: 'job::/a::w' }, newUuid).spec;
  t.is(JSON.stringify(a), JSON.stringify(b));
});

test('job input: bad values are refused with the field named', (t) => {
  const cases: [unknown, RegExp][] = [
    [{}, /fqn/],
    [{ fqn: 'job::/a::w', num_instances: -1 }, /num_instances: must be at least 0/],
    [{ fqn: 'job::/a::w', num_instances: '2' }, /num_instances: expected an integer, got string/],
    [{ fqn: 'job::/a::w', num_instances: 1.5 }, /num_instances/],
    [{ fqn: 'job::/a::w', packages: [{ uuid: 'nope' }] }, /packages\.0\.uuid: expected a UUID/],
    [{ fqn: 'job::/a::w', packages: [{ uuid: '11111111-1111-4111-8111-111111111111', source: 'other' }] }, /source/],
    [{ fqn: 'job::/a::w', restart: { restart_mode: 'sometimes' } }, /restart_mode/],
    [{ fqn: 'job::/a::w', ports: [{ number: 70000 }] }, /ports\.0\.number/],
    [{ fqn: 'job::/a::w', name: 'other' }, /does not match/],
    [{ fqn: 'job::/a::w', state: 'flying' }, /not a job state/],
    [{ fqn: 'job::/a::w', drains: [{ url: 'http://x' }] }, /syslog/],
    [{ fqn: 'job::/a::w', autoscaling: { min_instances: 5, max_instances: 3 } }, /min_instances must not exceed/],
    [{ fqn: 'job::/a::w', autoscaling: { rule: { type: 'pid', metric: 'nope' } } }, /monitoring map/],
  ];
  for (const [body, message] of cases) {
    const err = t.throws(() => parseJobInput(body, newUuid), { instanceOf: InvalidRequestError }, JSON.stringify(body));
    t.regex(err.message, message, JSON.stringify(body));
  }
});

test('job input: system packages are ignored, user packages kept', (t) => {
  const id = '11111111-1111-4111-8111-111111111111';
  const { spec } = parseJobInput(
    {
      fqn: 'job::/a::w',
      packages: [
        { uuid: id.toUpperCase(), source: 'user', state: 'ready' },
        { uuid: '22222222-2222-4222-8222-222222222222', source: 'system' },
      ],
    },
    newUuid,
  );
  t.deepEqual(spec.packages, [{ uuid: id, source: 'user' }]);
});

test('job input: an environment that no process could be given as written is refused (name empty, with = or NUL; value with NUL)', (t) => {
  const body = (environment: Record<string, string>) => ({ fqn: 'job::/a::b', processes: { app: { start_command: 'x', environment } } });
  const bad: Record<string, string>[] = [{ '': 'x' }, { 'A=B': 'x' }, { 'A\0--bind': 'x' }, { A: 'x\0y' }];
  for (const environment of bad) {
    const err = t.throws(() => parseJobInput(body(environment), () => 'u'), { instanceOf: InvalidRequestError }, JSON.stringify(environment));
    t.regex(err.message, /environment/);
  }
  // Names that dash would drop, a binding's <UUID>_URI, newlines in values: kept as they are.
  const ok = parseJobInput(body({ 'MY-VAR': '1', '3F2A9C_URI': 'x', BASH_ENV: '$(id)', MULTI: 'a\nb' }), () => 'u');
  t.deepEqual(ok.spec.processes['app']!.environment, { '3F2A9C_URI': 'x', BASH_ENV: '$(id)', MULTI: 'a\nb', 'MY-VAR': '1' });
});

test('job input: a package install_path with a ".." component is refused', (t) => {
  const body = (install_path: string) => ({ fqn: 'job::/a::b', packages: [{ uuid: '00000000-0000-4000-8000-000000000001', install_path }], processes: { app: { start_command: 'x' } } });
  for (const bad of ['/../etc', '/app/../../x', '..']) t.throws(() => parseJobInput(body(bad), () => 'u'), { instanceOf: InvalidRequestError, message: /install_path/ }, bad);
  t.is(parseJobInput(body('/opt/app..v2/x'), () => 'u').spec.packages[0]!.install_path, '/opt/app..v2/x');
});
