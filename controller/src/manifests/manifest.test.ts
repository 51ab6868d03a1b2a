import test from 'ava';
import { parseJobInput } from '../model/job.js';
import { checkSupported, JOBS_ONLY } from './kinds.js';
import { deploymentOrder, expandVariables, jobBodyOf, parseBitRate, parseBytes, parseManifest, splitBody } from './manifest.js';

test('manifests: ${VAR} fills strings and keys; an unset variable is an error naming it', (t) => {
  const { manifest, variables } = splitBody({ manifest: { jobs: { 'job::/${NS}::web': { env: { A: '${GREETING}, ${NAME}', B: '$${LITERAL}' } } } }, variables: { NS: 'dev', GREETING: 'hi', NAME: 'x' } });
  t.deepEqual(expandVariables(manifest, variables), { jobs: { 'job::/dev::web': { env: { A: 'hi, x', B: '${LITERAL}' } } } });
  const err = t.throws(() => expandVariables({ jobs: { 'job::/dev::web': { env: { A: '${MISSING}' } } } }, {}));
  t.regex(err.message, /\$\{MISSING\} \(in jobs\.job::\/dev::web\.env\.A\)/);
  // The body may be the manifest itself.
  t.deepEqual(splitBody({ jobs: {} }), { manifest: { jobs: {} }, variables: {} });
  t.throws(() => splitBody({ manifest: {}, extra: 1 }), { message: /unknown key/ });
});

test('manifests: resource strings with unit suffixes', (t) => {
  t.is(parseBytes('256MiB', 'm'), 268435456);
  t.is(parseBytes('256MB', 'm'), 268435456);
  t.is(parseBytes('1GiB', 'd'), 1073741824);
  t.is(parseBytes('1.5G', 'd'), 1610612736);
  t.is(parseBytes(1024, 'd'), 1024);
  t.is(parseBitRate('5Mbps', 'n'), 5_000_000);
  t.is(parseBitRate('1Gbps', 'n'), 1_000_000_000);
  t.throws(() => parseBytes('12 parsecs', 'jobs.x.resources.memory'), { message: /jobs\.x\.resources\.memory: "12 parsecs" is not a size/ });
});

test('manifests: unknown keys, wrong types, a job without docker or packages are refused', (t) => {
  t.throws(() => parseManifest({ jobs: { 'job::/a::b': { packages: [{ fqn: 'package::/a::p' }], colour: 'red' } } }), { message: /colour/ });
  t.throws(() => parseManifest({ jobs: { 'job::/a::b': { packages: [{ fqn: 'package::/a::p' }], instances: 'two' } } }), { message: /instances/ });
  t.throws(() => parseManifest({ jobs: { 'job::/a::b': { env: {} } } }), { message: /neither "docker" nor "packages"/ });
  t.throws(() => parseManifest({ jobs: {}, volumes: {} }), { message: /volumes/ });
  const { warnings } = parseManifest({ jobs: { 'job::/a::b': { docker: { image: 'x' }, packages: [{ fqn: 'package::/a::p' }] } } });
  t.regex(warnings[0]!, /docker" wins/);
});

test('manifests: kinds not deployed yet are refused naming the field, never ignored', (t) => {
  const { manifest } = parseManifest({
    jobs: { 'job::/a::b': { packages: [{ fqn: 'package::/a::p' }], links: { DB: { fqn: 'job::/a::db', port: 5432 } } } },
  });
  t.throws(() => checkSupported(manifest, JOBS_ONLY), { message: /jobs\."job::\/a::b"\.links: job links are not yet supported/ });
  t.notThrows(() => checkSupported(manifest, { links: { validate: async () => undefined, apply: async () => undefined } }));
  const services = parseManifest({ jobs: { 'job::/a::b': { packages: [{ fqn: 'package::/a::p' }] } }, services: { 'service::/a::db': { type: 'postgres' } } }).manifest;
  t.throws(() => checkSupported(services, JOBS_ONLY), { message: /services: services are not yet supported/ });
});

test('manifests: link targets deploy first; a cycle is refused', (t) => {
  const { manifest } = parseManifest({
    jobs: {
      'job::/a::web': { packages: [{ fqn: 'package::/a::p' }], links: { API: { fqn: 'job::/a::api' } } },
      'job::/a::api': { packages: [{ fqn: 'package::/a::p' }], links: { DB: { fqn: 'job::/a::db' } } },
      'job::/a::db': { packages: [{ fqn: 'package::/a::p' }] },
    },
  });
  t.deepEqual(deploymentOrder(manifest), ['job::/a::db', 'job::/a::api', 'job::/a::web']);
  const cyclic = parseManifest({
    jobs: { 'job::/a::x': { packages: [{ fqn: 'package::/a::p' }], links: { Y: { fqn: 'job::/a::y' } } }, 'job::/a::y': { packages: [{ fqn: 'package::/a::p' }], links: { X: { fqn: 'job::/a::x' } } } },
  }).manifest;
  t.throws(() => deploymentOrder(cyclic), { message: /cycle/ });
});

test('manifests: every job field becomes the job body the API takes', (t) => {
  const { manifest } = parseManifest({
    jobs: {
      'job::/a::web': {
        packages: [{ fqn: 'package::/a::p' }],
        env: { MODE: 'prod' },
        exposed_ports: [8080, 9090],
        exposed_udp_ports: [5353],
        required_ports: [8080],
        instances: 3,
        resources: { cpu: '250ms', memory: '128MiB', disk_space: '2GiB', network_bandwidth: '10Mbps', network_max: '100Mbps' },
        restart_mode: 'failure',
        routes: [
          { type: 'http', endpoint: 'web.example.com', config: { '/': [{ port: 8080, weight: 100 }], '/api': [{ port: 9090, https_only: true }] } },
          { type: 'tcp', endpoint: 'tcp://auto', config: [{ port: 9090 }] },
        ],
        scheduling_tags: { hard: ['ssd'], soft: ['eu'] },
        start: { cmd: './run.sh', timeout: 20 },
        stop: { cmd: './stop.sh', timeout: 3 },
        user: 'app',
        group: 'app',
        monitoring: { rps: { type: 'http_metric', config: { url: 'http://localhost/metrics' } } },
        state: 'started',
      },
    },
  });
  const body = jobBodyOf('job::/a::web', manifest.jobs['job::/a::web']!, ['00000000-0000-4000-8000-000000000001']);
  const parsed = parseJobInput(body, () => '00000000-0000-4000-8000-00000000000f');
  t.is(parsed.stateRequest, 'start');
  t.is(parsed.spec.num_instances, 3);
  t.deepEqual(parsed.spec.resources, { cpu: 250, memory: 134217728, disk: 2147483648, network: 10_000_000, netmax: 100_000_000 });
  t.is(parsed.spec.restart.restart_mode, 'failure');
  const app = parsed.spec.processes['app']!;
  t.is(app.start_command, './run.sh');
  t.is(app.start_command_timeout, 20);
  t.is(app.stop_command, './stop.sh');
  t.is(app.user, 'app');
  t.deepEqual(app.environment, { MODE: 'prod' });
  t.deepEqual(
    parsed.spec.ports.map((p) => [p.number, p.optional, p.routes.map((r) => `${r.type} ${r.endpoint}`)]),
    [
      [8080, false, ['http web.example.com']],
      [9090, true, ['http web.example.com/api', 'tcp tcp://auto']],
    ],
  );
  t.deepEqual(parsed.spec.udp_ports.map((p) => p.number), [5353]);
  t.deepEqual(parsed.spec.scheduling_tags, [{ hard: ['ssd'], soft: ['eu'] }]);
  t.truthy(parsed.spec.monitoring['rps']);
  // A docker job takes the image's start command and ports unless the manifest gives its own.
  const docker = parseManifest({ jobs: { 'job::/a::img': { docker: { image: 'r.example:5000/x' } } } }).manifest;
  const fromImage = jobBodyOf('job::/a::img', docker.jobs['job::/a::img']!, ['00000000-0000-4000-8000-000000000002'], { startCommand: ['node', 'server.js'], user: 'node', exposedPorts: [3000], udpPorts: [] });
  t.deepEqual((fromImage['processes'] as Record<string, Record<string, unknown>>)['app']!['start_command_raw'], ['node', 'server.js']);
  t.deepEqual((fromImage['ports'] as { number: number }[]).map((p) => p.number), [3000]);
  // An undeclared field is left out, so that an update keeps it (rule 1).
  const minimal = jobBodyOf('job::/a::b', parseManifest({ jobs: { 'job::/a::b': { packages: [{ fqn: 'package::/a::p' }] } } }).manifest.jobs['job::/a::b']!, []);
  t.false('num_instances' in minimal);
  t.false('ports' in minimal);
  t.false('state' in minimal);
});
