/**
 * Smaller holes found by probing: a deleted account's tokens, file paths that reached the agent,
 * and malformed HTTP answered without an APIError.
 */
import test from 'ava';
import { connect } from 'node:net';
import type { ApiErrorBody, Job } from '@platform/controller';
import { commandJob, tarGz, uploadPackage } from '../harness/apps.js';
import { runningInstances, startCluster } from '../harness/cluster.js';
import { appJob, unique } from '../harness/fixtures.js';
import { ApiClient } from '../harness/http.js';
import { useController } from '../harness/suite.js';

const suite = useController(test);
const PASSWORD = 'a long enough password';

interface RawAnswer {
  status: number;
  headers: Map<string, string>;
  body: string;
}

/**
 * Sends `bytes` as they are on a new connection and reads the answer until the server closes it.
 * `halfClose: false` keeps the sending side open (a client that waits for its answers).
 */
function rawExchange(base: string, bytes: string | Buffer, halfClose = true): Promise<RawAnswer> {
  const { hostname, port } = new URL(base);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname);
    const parts: Buffer[] = [];
    socket.on('data', (d: Buffer) => parts.push(d));
    socket.on('error', (err: NodeJS.ErrnoException) => {
      // The server may close while a long head is still being written: the answer is what counts.
      if (err.code !== 'EPIPE' && err.code !== 'ECONNRESET') reject(err);
    });
    socket.on('close', () => {
      const text = Buffer.concat(parts).toString('utf8');
      const [head = '', ...rest] = text.split('\r\n\r\n');
      const [statusLine = '', ...lines] = head.split('\r\n');
      const headers = new Map(lines.map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]));
      resolve({ status: Number(statusLine.split(' ')[1] ?? 0), headers, body: rest.join('\r\n\r\n') });
    });
    if (halfClose) socket.end(bytes);
    else socket.write(bytes);
  });
}

test('tokens: a deleted account\'s tokens stay refused when an account of the same name is created', async (t) => {
  const admin = suite.api();
  const name = unique('reborn');
  const first = await admin.createUser(name, PASSWORD);
  t.is((await first.get('/v1/jobs')).status, 200);
  t.is((await admin.delete(`/v1/users/${name}`)).status, 200);
  t.is((await first.get('/v1/jobs')).status, 401);
  const second = await admin.createUser(name, PASSWORD);
  const old = await first.get<ApiErrorBody>('/v1/jobs');
  t.is(old.status, 401, 'the old account\'s token does not work for the new account');
  t.true(old.body.token_invalid);
  t.is((await second.get('/v1/jobs')).status, 200, 'the new account\'s token works');
  // A password change keeps the account, and still ends its earlier tokens (as before).
  const third = await ApiClient.login(admin.base, name, PASSWORD);
  t.is((await admin.put(`/v1/users/${name}`, { password: `${PASSWORD}!` })).status, 200);
  t.is((await third.get('/v1/jobs')).status, 401);
});

test('http: malformed requests get an APIError with a request id, and the 16 KB head limit stays', async (t) => {
  const base = suite.controller().url;
  const cases: [string, string | Buffer, number][] = [
    ['bad request line', 'GARBAGE\r\n\r\n', 400],
    ['Content-Length: 1e3', 'POST /v1/jobs HTTP/1.1\r\nHost: x\r\nContent-Length: 1e3\r\n\r\n', 400],
    ['Content-Length with Transfer-Encoding', 'POST /v1/jobs HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n', 400],
    ['a header over 16 KB', `GET /v1/jobs HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(17 * 1024)}\r\n\r\n`, 431],
    ['a NUL in a header', 'GET /v1/jobs HTTP/1.1\r\nHost: x\r\nX-Bad: a\0b\r\n\r\n', 400],
  ];
  for (const [what, bytes, status] of cases) {
    const r = await rawExchange(base, bytes);
    t.is(r.status, status, `${what}: ${r.status} ${r.body}`);
    t.regex(r.headers.get('content-type') ?? '', /^application\/vnd\.platform\.apierror/, what);
    const body = JSON.parse(r.body) as ApiErrorBody;
    t.is(body.code, status, what);
    t.true(body.client_side, what);
    t.is(typeof body.request_id, 'string', what);
    t.true(body.request_id.length > 0, what);
    t.is(r.headers.get('x-request-id'), body.request_id, what);
  }
  // Just under the limit is still served (401 without a token: it reached the API).
  const near = await rawExchange(base, `GET /v1/jobs HTTP/1.1\r\nHost: x\r\nConnection: close\r\nX-Big: ${'a'.repeat(15 * 1024)}\r\n\r\n`);
  t.is(near.status, 401);
});

test('http: bytes that follow a request unframed are refused after its answer, never in its place', async (t) => {
  const api = suite.api();
  const job = (await api.post<Job>('/v1/jobs', appJob(`job::/smuggle::${unique('j')}`))).body;
  // A DELETE whose "body" has no Content-Length: the server reads it as the next request, which does not parse.
  const raw = await rawExchange(
    api.base,
    `DELETE /v1/jobs/${job.uuid} HTTP/1.1\r\nHost: x\r\n${Object.entries(api.defaultHeaders).map(([k, v]) => `${k}: ${v}`).join('\r\n')}\r\n\r\n{"stagers":[]}`,
    false,
  );
  t.is(raw.status, 200, 'the first answer is the DELETE\'s own');
  t.regex(raw.body, /HTTP\/1\.1 400 Bad Request/, 'then the refusal of the bytes after it');
  t.is((await api.get(`/v1/jobs/${job.uuid}`)).status, 404, 'and the DELETE did what its answer said');
});

test('files: a NUL, an overlong name or path answers 400 at the controller, naming no host path', async (t) => {
  const { api, agents } = await startCluster(t, [{}]);
  const ns = `/paths/${unique()}`;
  const pkg = await uploadPackage(api, ns, tarGz({ 'app/run.sh': 'sleep 600\n' }));
  const job = (await api.post<Job>('/jobs', commandJob(`job::${ns}::paths`, pkg.uuid, 'sh /app/run.sh', { state: 'started' }))).body;
  await runningInstances(api, job.uuid, 1);
  const dataDir = agents[0]!.dataDir;
  for (const path of ['app%00', `app/${'x'.repeat(5000)}`, 'a'.repeat(300), 'app/%01x', `${'abc/'.repeat(1100)}`]) {
    const r = await api.get<ApiErrorBody>(`/v1/jobs/${job.uuid}/files/${path}`);
    t.is(r.status, 400, `${path.slice(0, 20)}: ${r.status} ${r.text.slice(0, 300)}`);
    t.false(r.body.retry);
    t.false(r.text.includes(dataDir), 'no host path in the answer');
    t.false(/\/tmp\/|\/var\//.test(r.text), r.text.slice(0, 300));
  }
  // A good path still lists.
  t.is((await api.get(`/v1/jobs/${job.uuid}/files/app`)).status, 200);
});

test('files: the path is checked before anything else only for a job the caller may read', async (t) => {
  const mallory = await suite.api().createUser(unique('m'), PASSWORD);
  const job = (await suite.api().post<Job>('/v1/jobs', appJob(`job::/hidden::${unique('j')}`))).body;
  const r = await mallory.get<ApiErrorBody>(`/v1/jobs/${job.uuid}/files/app%00`);
  t.is(r.status, 404, 'not a 400 that would confirm the job exists');
});
