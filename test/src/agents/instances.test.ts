/** What users see of running instances: logs (tail and resume), files, and refused archives. */
import test from 'ava';
import type { Job } from '@platform/controller';
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
