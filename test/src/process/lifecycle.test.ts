import { spawnSync } from 'node:child_process';
import { stat, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import test from 'ava';
import type { Job } from '@platform/controller';
import { CONTROLLER_BIN, ControllerProcess } from '../harness/controller-process.js';
import { unique } from '../harness/fixtures.js';
import { createPackage } from '../harness/packages.js';
import { eventually } from '../harness/wait.js';

function metric(text: string, name: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(name + ' '));
  return line === undefined ? undefined : Number(line.slice(name.length + 1));
}

test('lifecycle: SIGTERM stops the controller gracefully with exit code 0', async (t) => {
  const ctl = await ControllerProcess.start();
  t.teardown(() => ctl.dispose());
  const exit = await ctl.stop();
  t.is(exit.code, 0);
  t.truthy(ctl.lines.find((l) => l['msg'] === 'controller stopped'));
  t.truthy(ctl.lines.find((l) => l['msg'] === 'signal received: stopping' && l['signal'] === 'SIGTERM'));
});

test('lifecycle: the command line answers --help and --version, and refuses unknown flags', (t) => {
  const help = spawnSync(process.execPath, [CONTROLLER_BIN, '--help'], { encoding: 'utf8' });
  t.is(help.status, 0);
  for (const flag of ['--data-dir', '--listen', '--grpc-listen', '--domain', 'PLATFORM_ADMIN_PASSWORD']) t.true(help.stdout.includes(flag), flag);
  const version = spawnSync(process.execPath, [CONTROLLER_BIN, '--version'], { encoding: 'utf8' });
  t.regex(version.stdout, /^\d+\.\d+\.\d+\n$/);
  const bad = spawnSync(process.execPath, [CONTROLLER_BIN, '--bogus'], { encoding: 'utf8' });
  t.is(bad.status, 2);
  t.regex(bad.stderr, /Unknown option/);
  const badListen = spawnSync(process.execPath, [CONTROLLER_BIN, '--listen', 'nowhere'], { encoding: 'utf8' });
  t.is(badListen.status, 2);
  t.regex(badListen.stderr, /not host:port/);
  for (const address of ['router.example', '0.0.0.0']) {
    const badAdvertise = spawnSync(process.execPath, [CONTROLLER_BIN, '--router-advertise-address', address], { encoding: 'utf8' });
    t.is(badAdvertise.status, 2, address);
    t.regex(badAdvertise.stderr, /--router-advertise-address .* is not an IP address that clients can reach/);
  }
  const badCompression = spawnSync(process.execPath, [CONTROLLER_BIN], { encoding: 'utf8', env: { ...process.env, PLATFORM_IMAGE_ARCHIVE_COMPRESSION: 'zstd' } });
  t.is(badCompression.status, 2);
  t.regex(badCompression.stderr, /PLATFORM_IMAGE_ARCHIVE_COMPRESSION="zstd" is neither huffman nor stored/);
});

test('lifecycle: a second controller on the same data directory is refused', async (t) => {
  const ctl = await ControllerProcess.start();
  t.teardown(() => ctl.dispose());
  const error = await t.throwsAsync(ControllerProcess.start({ dataDir: ctl.dataDir }));
  t.regex(error.message, /another controller holds its lock/);
});

test('lifecycle: a generated admin password is printed once and kept readable only by its owner', async (t) => {
  const ctl = await ControllerProcess.start({ env: { PLATFORM_ADMIN_PASSWORD: '' } });
  t.teardown(() => ctl.dispose());
  const file = join(ctl.dataDir, 'admin-password');
  const password = (await readFile(file, 'utf8')).trim();
  t.regex(password, /^[A-Za-z0-9]{24}$/);
  t.is((await stat(file)).mode & 0o777, 0o600);
  t.true(ctl.stderr.join('\n').includes(password));
  await ctl.stop();
  const again = await ctl.restart();
  t.teardown(() => again.dispose());
  t.false(again.stderr.join('\n').includes(password));
  t.is((await readFile(file, 'utf8')).trim(), password);
});

test('lifecycle: idle actors are passivated and come back on use; started jobs stay live and are restored at start', async (t) => {
  const ctl = await ControllerProcess.start({ env: { PLATFORM_ACTOR_IDLE_MS: '200' } });
  t.teardown(() => ctl.dispose());
  const api = await ctl.admin();
  const pkg = await createPackage(api, '/life', { upload: true });
  const idle = (await api.post<Job>('/jobs', { fqn: `job::/life::${unique()}` })).body;
  const started = (await api.post<Job>('/jobs', { fqn: `job::/life::${unique()}`, packages: [{ uuid: pkg.uuid }], state: 'started' })).body;
  t.is(started.state, 'started');
  await eventually(
    async () => {
      const text = (await api.get('/metrics')).text;
      // The started job keeps its actor: it watches its instances (waiting for an agent here).
      return metric(text, 'platform_actors_live{kind="job"}') === 1 && metric(text, 'platform_actors_live{kind="package"}') === 0;
    },
    { what: 'every idle actor passivated' },
  );
  const text = (await api.get('/metrics')).text;
  t.true((metric(text, 'platform_actor_passivations_total{kind="job"}') ?? 0) >= 1);
  const updated = await api.put<Job>(`/jobs/${idle.uuid}`, { fqn: idle.fqn, num_instances: 3 });
  t.is(updated.body.version_id, 2);
  t.is(updated.body.created_at, idle.created_at);

  await ctl.stop();
  const again = await ctl.restart();
  t.teardown(() => again.dispose());
  t.truthy(again.lines.find((l) => l['msg'] === 'state restored' && l['started_jobs'] === 1));
  const restoredMetrics = (await (await again.admin()).get('/metrics')).text;
  t.true((metric(restoredMetrics, 'platform_actor_activations_total{kind="job"}') ?? 0) >= 1);
});
