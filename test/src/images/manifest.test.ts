/**
 * Manifests end to end: a controller, a real agent, a real registry. One document with
 * variables deploys a job from a package and a job from an image, both run and answer HTTP;
 * deploying it again updates them (rule 1); a failure half way names the job and keeps what was
 * done; validation refuses before anything changes.
 */
import test from 'ava';
import type { Job } from '@platform/controller';
import { httpAppArchive, uploadPackage } from '../harness/apps.js';
import { callInstance, runningInstances, startCluster, testIsolation } from '../harness/cluster.js';
import { unique } from '../harness/fixtures.js';
import type { ApiClient } from '../harness/http.js';
import { busyboxAvailable, busyboxLayer, IMAGE_HTTP_SCRIPT, Registry, registryAvailable } from '../harness/registry.js';
import { taskEnd } from '../harness/tasks.js';

interface Task {
  state: string;
  errored: string;
  events: { task_event_type: string; stage: string; thread: string; subtask: { name: string }; payload: Record<string, string> }[];
}


async function jobNamed(api: ApiClient, fqn: string): Promise<Job | undefined> {
  return (await api.get<Job[]>(`/jobs?fqn=${encodeURIComponent(fqn)}`)).body[0];
}

test('manifests: a document with variables deploys a package job and an image job that run; again, it updates them; a failure half way names the job and keeps what was done', async (t) => {
  if (!registryAvailable(t) || !busyboxAvailable(t)) return t.pass();
  if (testIsolation(t) !== 'bwrap') {
    t.log('skipped: an image runs as its own root only with the bwrap driver (apt-get install bubblewrap)');
    return t.pass();
  }
  const registry = await Registry.start();
  t.teardown(() => registry.dispose());
  // An image with its own userland: its shell and httpd answer.
  const app = [{ path: 'app/', type: 'dir' as const }, { path: 'app/start.sh', content: IMAGE_HTTP_SCRIPT, mode: 0o755 }];
  await registry.pushImage('team/api', 'v2', { layers: [busyboxLayer(), app], config: { Env: ['PATH=/bin'], Entrypoint: ['/bin/sh', '/app/start.sh'] } });
  const cluster = await startCluster(t, [{}], { allowedRegistries: [registry.address] });
  const { api } = cluster;
  const ns = `/sandbox/admin/${unique('m')}`;
  const pkg = await uploadPackage(api, ns, httpAppArchive());
  const manifest = {
    jobs: {
      'job::${NS}::web': {
        packages: [{ fqn: pkg.fqn }],
        start: { cmd: 'node /app/server.js', timeout: 30 },
        exposed_ports: [0],
        env: { ROLE: '${ROLE}' },
        resources: { memory: '64MiB', disk_space: '64MiB' },
        state: 'started',
      },
      'job::${NS}::api': {
        docker: { image: `${registry.address}/team/api:v2` },
        exposed_ports: [0],
        resources: { memory: '64MiB', disk_space: '64MiB' },
        state: 'started',
      },
    },
  };

  // Validation before anything changes.
  const unset = await api.post('/manifests', { manifest, variables: { NS: ns } });
  t.is(unset.status, 400);
  t.regex(unset.text, /\$\{ROLE\}/);
  const unknownPackage = await api.post('/manifests', { jobs: { [`job::${ns}::x`]: { packages: [{ fqn: `package::${ns}::nope` }] } } });
  t.is(unknownPackage.status, 400, unknownPackage.text);
  const linked = await api.post('/manifests', { jobs: { [`job::${ns}::x`]: { packages: [{ fqn: pkg.fqn }], links: { API: { fqn: `job::${ns}::api`, port: 80 } } } } });
  t.is(linked.status, 400);
  t.regex(linked.text, /job::.*::api does not exist and is not declared in the manifest/);
  t.is(await jobNamed(api, `job::${ns}::x`), undefined);

  // The expansion changes nothing.
  const expansion = await api.post<{ expanded_manifest: string; expanded_json: string; warnings: string }>('/manifests/expansion', { manifest, variables: { NS: ns, ROLE: 'front' } });
  t.is(expansion.status, 200, expansion.text);
  t.true(JSON.parse(expansion.body.expanded_manifest).jobs[`job::${ns}::web`] !== undefined);
  t.is((JSON.parse(expansion.body.expanded_json) as { jobs: { action: string }[] }).jobs.length, 2);
  t.is(await jobNamed(api, `job::${ns}::web`), undefined);

  const r = await api.post<{ location: string }>('/manifests', { manifest, variables: { NS: ns, ROLE: 'front' } });
  t.is(r.status, 200, r.text);
  const task = await taskEnd<Task>(api, r.body.location);
  t.is(task.state, 'complete', JSON.stringify(task.events.at(-1)));
  const names = task.events.map((e) => e.subtask.name);
  t.true(names.includes(`created job::${ns}::api`));
  t.true(names.includes(`created job::${ns}::web`));
  t.true(task.events.every((e) => e.thread === 'manifest'));
  for (const name of ['web', 'api']) {
    const job = (await jobNamed(api, `job::${ns}::${name}`))!;
    t.is(job.state, 'started');
    const [instance] = await runningInstances(api, job.uuid, 1, 90_000);
    t.is((await callInstance<{ job: string }>(instance!)).job, job.uuid);
  }
  t.is((await jobNamed(api, `job::${ns}::web`))!.processes['app']!.environment?.['ROLE'], 'front');

  // Again, with another value: updated (rule 1), not created twice.
  const again = await api.post<{ location: string }>('/manifests', { manifest, variables: { NS: ns, ROLE: 'back' } });
  const updated = await taskEnd<Task>(api, again.body.location);
  t.is(updated.state, 'complete', JSON.stringify(updated.events.at(-1)));
  t.true(updated.events.some((e) => e.subtask.name === `updated job::${ns}::web`));
  t.is((await jobNamed(api, `job::${ns}::web`))!.processes['app']!.environment?.['ROLE'], 'back');

  // A failure half way: the first job is made, the second's image does not exist.
  const broken = await api.post<{ location: string }>('/manifests', {
    jobs: {
      [`job::${ns}::a-first`]: { packages: [{ fqn: pkg.fqn }], start: { cmd: 'node /app/server.js' } },
      [`job::${ns}::b-second`]: { docker: { image: `${registry.address}/team/missing:v1` } },
    },
  });
  const failed = await taskEnd<Task>(api, broken.body.location);
  t.is(failed.errored, 'errored');
  t.regex(failed.events.at(-1)!.payload['error']!, new RegExp(`job::${ns}::b-second failed: image .* not found.*done before it: job::${ns}::a-first`));
  t.truthy(await jobNamed(api, `job::${ns}::a-first`));
  t.true(failed.events.some((e) => e.subtask.name === `created job::${ns}::a-first`));
  t.is(await jobNamed(api, `job::${ns}::b-second`), undefined);
});
