/** What users see of running instances: logs (tail and resume), files, and refused archives. */
import test from 'ava';
import { spawnSync } from 'node:child_process';
import type { Job, Package } from '@platform/controller';
import { commandJob, HTTP_APP, httpAppArchive, httpAppJob, tarGz, uploadPackage } from '../harness/apps.js';
import { callInstance, instancesOf, runningInstances, startCluster } from '../harness/cluster.js';
import { unique } from '../harness/fixtures.js';
import { eventually } from '../harness/wait.js';
import { request } from 'node:http';

/** GET with the path exactly as given (no dot resolution on the client). */
function rawGet(hostname: string, port: number, path: string, headers: Record<string, string>): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ hostname, port, path, headers }, (res) => {
      const parts: Buffer[] = [];
      res.on('data', (d: Buffer) => parts.push(d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(parts).toString('utf8') }));
    });
    req.on('error', reject);
    req.end();
  });
}

interface LogEvent {
  id: number;
  data: { seq: number; line: string; stream: string; instance_uuid: string };
}

/** Reads SSE events from a streaming response until `stop` says so; then closes the stream. */
async function readEvents(res: Response, stop: (events: LogEvent[]) => boolean, timeoutMs = 30_000): Promise<LogEvent[]> {
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  const events: LogEvent[] = [];
  let buffer = '';
  const deadline = setTimeout(() => void reader.cancel(), timeoutMs);
  try {
    while (!stop(events)) {
      const { value, done } = await reader.read();
      if (done) break;
      buffer += decoder.decode(value, { stream: true });
      let end;
      while ((end = buffer.indexOf('\n\n')) >= 0) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const id = /^id: (\d+)$/m.exec(block)?.[1];
        const data = /^data: (.*)$/m.exec(block)?.[1];
        if (id && data) events.push({ id: Number(id), data: JSON.parse(data) as LogEvent['data'] });
      }
    }
  } finally {
    clearTimeout(deadline);
    await reader.cancel().catch(() => undefined);
  }
  return events;
}

test('logs: tail streams new lines as events; a client resumes after a disconnect with Last-Event-ID', async (t) => {
  const { api } = await startCluster(t, [{}]);
  const ns = `/logs/${unique()}`;
  const pkg = await uploadPackage(api, ns, httpAppArchive());
  const job = (await api.post<Job>('/jobs', httpAppJob(`job::${ns}::talker`, pkg.uuid, { state: 'started' }))).body;
  const [instance] = await runningInstances(api, job.uuid, 1);

  const first = await api.fetch(`/jobs/${job.uuid}/logs?tail&lines=10`);
  t.is(first.status, 200);
  t.regex(first.headers.get('content-type') ?? '', /text\/event-stream/);
  const pending = readEvents(first, (e) => e.some((x) => x.data.line === 'request /one'));
  await callInstance(instance!, '/one');
  const seen = await pending;
  t.true(seen.some((e) => /listening on/.test(e.data.line)), 'the backlog came first');
  const lastId = seen.at(-1)!.id;
  t.is(seen.at(-1)!.data.instance_uuid, instance!.uuid);

  // Disconnected: these lines happen while nobody listens.
  await callInstance(instance!, '/two');
  await callInstance(instance!, '/three');
  await eventually(async () => (await api.get(`/jobs/${job.uuid}/logs`, { headers: { accept: 'text/plain' } })).text.includes('request /three'));

  const resumed = await api.fetch(`/jobs/${job.uuid}/logs?tail`, { headers: { 'Last-Event-ID': String(lastId) } });
  const missed = await readEvents(resumed, (e) => e.some((x) => x.data.line === 'request /three'));
  t.deepEqual(missed.map((e) => e.data.line).filter((l) => l.startsWith('request')), ['request /two', 'request /three']);
  t.deepEqual(missed.map((e) => e.id), missed.map((_, i) => lastId + 1 + i), 'ids continue without a gap');
  const viaQuery = await api.fetch(`/jobs/${job.uuid}/logs?tail&lastEventId=${lastId}`);
  const same = await readEvents(viaQuery, (e) => e.some((x) => x.data.line === 'request /three'));
  t.deepEqual(same.map((e) => e.id), missed.map((e) => e.id));
  t.is((await api.get(`/jobs/${job.uuid}/logs?lastEventId=abc`)).status, 400);
});

test('files: lists an instance root and its folders, never outside it', async (t) => {
  const { api } = await startCluster(t, [{}]);
  const ns = `/files/${unique()}`;
  const pkg = await uploadPackage(api, ns, tarGz({ 'app/server.js': HTTP_APP, 'app/public/index.html': '<h1>hi</h1>' }));
  const job = (await api.post<Job>('/jobs', httpAppJob(`job::${ns}::files`, pkg.uuid, { state: 'started' }))).body;
  await runningInstances(api, job.uuid, 1);

  const root = await api.get<{ name: string; size: number | string }[]>(`/jobs/${job.uuid}/files/`);
  t.is(root.status, 200, root.text);
  t.true(root.body.some((e) => e.name === 'app/' && e.size === '-'));
  const app = await api.get<{ name: string; size: number | string }[]>(`/jobs/${job.uuid}/files/app`);
  t.is(app.status, 200, app.text);
  t.true(app.body.some((e) => e.name === 'server.js' && typeof e.size === 'number' && e.size > 100));
  t.true(app.body.some((e) => e.name === 'public/'));
  // Sent as written: a URL parser (fetch) would resolve the dots before sending.
  const { hostname, port } = new URL(api.base);
  for (const bad of ['..', '../..', 'app/../../etc', '%2e%2e/%2e%2e', '..%2f..%2fetc']) {
    const r = await rawGet(hostname, Number(port), `/jobs/${job.uuid}/files/${bad}`, api.defaultHeaders);
    t.true(r.status === 400 || r.status === 404, `${bad}: ${r.status} ${r.body}`);
    t.false(/passwd|shadow/.test(r.body));
  }
  t.is((await api.get(`/jobs/${job.uuid}/files/app/missing`)).status, 404);
});

test('archives: a package that tries to escape the instance root fails the instance with the reason', async (t) => {
  const { api } = await startCluster(t, [{}]);
  const ns = `/escape/${unique()}`;
  // A tar whose member path climbs out of the root (GNU tar writes it so with -P).
  const evil = tarGz({ 'app/ok.txt': 'fine', 'escape.txt': 'gotcha' }, ['-P', '--transform', 's,^escape.txt,../../escape.txt,']);
  const pkg = await uploadPackage(api, ns, evil);
  const job = (await api.post<Job>('/jobs', commandJob(`job::${ns}::evil`, pkg.uuid, 'sleep 60', { restart: { restart_mode: 'no' }, state: 'started' }))).body;
  const failed = await eventually(async () => (await instancesOf(api, job.uuid)).find((i) => i.state === 'REMOVED' && i.failed), {
    timeoutMs: 30_000,
    what: 'the instance failed',
  });
  t.regex(failed.reason ?? '', /escape|outside|\.\./i);
});

test('logs: the text form starts each line with the instance short id; ?instance= keeps one instance', async (t) => {
  const { api } = await startCluster(t, [{}]);
  const ns = `/shortid/${unique()}`;
  const pkg = await uploadPackage(api, ns, tarGz({ 'app/x.txt': 'x' }));
  const job = (await api.post<Job>('/jobs', commandJob(`job::${ns}::pair`, pkg.uuid, 'echo "hello from $INSTANCE_UUID"; echo second; sleep 600', { num_instances: 2, state: 'started' }))).body;
  const [a, b] = await runningInstances(api, job.uuid, 2);
  const text = await eventually(async () => {
    const r = (await api.get(`/jobs/${job.uuid}/logs?lines=100`, { headers: { accept: 'text/plain' } })).text;
    return r.split('\n').filter((l) => l.endsWith('second')).length === 2 ? r : undefined;
  }, { what: 'both instances logged' });
  const lines = text.trimEnd().split('\n');
  for (const line of lines) t.regex(line, /^\[[0-9a-f]{8}\] /, line);
  t.true(lines.includes(`[${a!.uuid.slice(0, 8)}] second`));
  t.true(lines.includes(`[${b!.uuid.slice(0, 8)}] second`));
  for (const filter of [a!.uuid, a!.uuid.slice(0, 8)]) {
    const only = (await api.get(`/jobs/${job.uuid}/logs?instance=${filter}`, { headers: { accept: 'text/plain' } })).text.trimEnd().split('\n');
    t.true(only.length >= 1);
    t.true(only.every((l) => l.startsWith(`[${a!.uuid.slice(0, 8)}] `)), only.join('\n'));
  }
  t.is((await api.get(`/jobs/${job.uuid}/logs?instance=zz`)).status, 400);
});

test('instance snapshot: a package of the files the instance changed below a directory; failures say why', async (t) => {
  const { api } = await startCluster(t, [{}]);
  const ns = `/snap/${unique()}`;
  const pkg = await uploadPackage(api, ns, tarGz({ 'app/run.sh': 'mkdir -p /app/data; echo made > /app/data/out.txt; echo other > /app/other.txt; exec sleep 600' }));
  const job = (await api.post<Job>('/jobs', commandJob(`job::${ns}::writer`, pkg.uuid, 'sh /app/run.sh', { state: 'started' }))).body;
  const [instance] = await runningInstances(api, job.uuid, 1);
  const fqn = `package::${ns}::snap`;
  // The instance writes its file as it starts; a listing shows it before the snapshot is taken.
  await eventually(async () => (await api.get<{ name: string }[]>(`/jobs/${job.uuid}/files/app/data`)).body.some?.((e) => e.name === 'out.txt'));
  const r = await api.post<Package>(`/jobs/${job.uuid}/instances/${instance!.uuid}/snapshot?pkgFQN=${encodeURIComponent(fqn)}&directory=/app/data`);
  t.is(r.status, 200, r.text);
  t.is(r.body.state, 'uploading');
  t.is(r.body.fqn, fqn);
  const location = r.headers.get('location')!;
  t.regex(location, new RegExp(`/v1/packages/${r.body.uuid}$`));
  const ready = await eventually(async () => {
    const p = (await api.get<Package>(new URL(location).pathname)).body;
    return p.state === 'ready' || p.state === 'failed' ? p : undefined;
  }, { what: 'the snapshot package settles' });
  t.is(ready.state, 'ready', ready.error_message);
  t.is(ready.resources.length, 1);
  const archive = Buffer.from(await (await api.fetch(`/packages/${ready.uuid}/resources/${ready.resources[0]!.uuid}`)).arrayBuffer());
  const listing = spawnSync('tar', ['-tzf', '-'], { input: archive }).stdout.toString();
  t.regex(listing, /app\/data\/out\.txt/);
  t.notRegex(listing, /other\.txt|run\.sh/);
  const audit = (await api.get<{ event_type: string }[]>(`/audit?fqn=${encodeURIComponent(job.fqn)}&event_type=job.instancesnapshot`)).body;
  t.is(audit.length, 1);

  // A directory without changes fails the package with the reason; a taken FQN, no pkgFQN, an unknown instance are refused.
  const empty = await api.post<Package>(`/jobs/${job.uuid}/instances/${instance!.uuid}/snapshot?pkgFQN=${encodeURIComponent(`package::${ns}::empty`)}&directory=/nowhere`);
  t.is(empty.status, 200);
  const failed = await eventually(async () => {
    const p = (await api.get<Package>(`/packages/${empty.body.uuid}`)).body;
    return p.state === 'failed' ? p : undefined;
  }, { what: 'the empty snapshot fails' });
  t.true(failed.error_message.length > 0);
  t.is((await api.post(`/jobs/${job.uuid}/instances/${instance!.uuid}/snapshot?pkgFQN=${encodeURIComponent(fqn)}`)).status, 409);
  t.is((await api.post(`/jobs/${job.uuid}/instances/${instance!.uuid}/snapshot`)).status, 400);
  t.is((await api.post(`/jobs/${job.uuid}/instances/${job.uuid}/snapshot?pkgFQN=${encodeURIComponent(`package::${ns}::x`)}`)).status, 404);
});

test('templates: a relative template path is rendered under the package\'s START_PATH', async (t) => {
  const { api } = await startCluster(t, [{}]);
  const ns = `/tpl/${unique()}`;
  const pkg = await uploadPackage(api, ns, tarGz({ 'srv/conf/app.conf': 'greeting={{ env "GREETING" }}\n', 'srv/abs.conf': 'abs={{ .Env.GREETING }}\n' }), {
    environment: { START_PATH: '/srv' },
    templates: [{ path: 'conf/app.conf' }, { path: '/srv/abs.conf' }],
  });
  const job = (
    await api.post<Job>('/jobs', commandJob(`job::${ns}::tpl`, pkg.uuid, 'cat conf/app.conf abs.conf; exec sleep 600', {
      processes: { app: { start_command: 'cat conf/app.conf abs.conf; exec sleep 600', environment: { GREETING: 'hello' } } },
      state: 'started',
    }))
  ).body;
  await runningInstances(api, job.uuid, 1);
  const text = await eventually(async () => {
    const r = (await api.get(`/jobs/${job.uuid}/logs`, { headers: { accept: 'text/plain' } })).text;
    return r.includes('abs=') ? r : undefined;
  }, { what: 'the rendered files' });
  t.regex(text, /greeting=hello/);
  t.regex(text, /abs=hello/);
});
