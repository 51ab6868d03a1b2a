/**
 * Request bodies that break after their head, stall, or never end, and heads that dribble, at a
 * real controller whose HTTP limits are shortened (PLATFORM_HTTP_*): each is answered with an
 * APIError (400, 408 or 413) within its bound and the connection closed; no handler is left
 * waiting; nothing changes. A body still arriving, or breaking, after its request was answered
 * ends the connection (one request, one answer); idle keep-alive connections close at their limit.
 */
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import test, { type ExecutionContext } from 'ava';
import type { ApiErrorBody, Package } from '@platform/controller';
import { sendBroken } from '../harness/broken-bodies.js';
import { ControllerProcess } from '../harness/controller-process.js';
import { digestOf, unique } from '../harness/fixtures.js';
import { rawExchange } from '../harness/raw-http.js';
import { useController } from '../harness/suite.js';
import { eventually } from '../harness/wait.js';

const BODY_IDLE_MS = 1_000;
const REQUEST_MS = 4_000;
const HEADERS_MS = 1_500;
const KEEP_ALIVE_MS = 1_500;
const suite = useController(test, {
  env: {
    PLATFORM_SYNC: 'false',
    PLATFORM_HTTP_BODY_IDLE_TIMEOUT_MS: String(BODY_IDLE_MS),
    PLATFORM_HTTP_REQUEST_TIMEOUT_MS: String(REQUEST_MS),
    PLATFORM_HTTP_HEADERS_TIMEOUT_MS: String(HEADERS_MS),
    PLATFORM_HTTP_KEEP_ALIVE_TIMEOUT_MS: String(KEEP_ALIVE_MS),
  },
});

/** Bound of each wait for a close: the longest timeout, and room for a busy machine. */
const CLOSE_WITHIN_MS = REQUEST_MS + 8_000;

const target = () => {
  const { hostname, port } = new URL(suite.controller().url);
  return { host: hostname, port: Number(port) };
};
const auth = () => ({ authorization: suite.api().defaultHeaders['authorization']! });

function apiError(t: ExecutionContext, a: { status: number; headers: Map<string, string>; body: string }, status: number, message: RegExp): ApiErrorBody {
  t.is(a.status, status, a.body);
  t.regex(a.headers.get('content-type') ?? '', /^application\/vnd\.platform\.apierror/);
  t.is(a.headers.get('connection'), 'close');
  const body = JSON.parse(a.body) as ApiErrorBody;
  t.is(body.code, status);
  t.regex(body.message, message);
  t.is(a.headers.get('x-request-id'), body.request_id);
  return body;
}

/** The handlers running now, the scrape's own included (platform_http_requests_in_flight). */
async function inFlight(): Promise<number> {
  const text = await (await suite.api().fetch('/metrics')).text();
  return Number(/^platform_http_requests_in_flight\{listener="api"\} (\d+)$/m.exec(text)?.[1] ?? NaN);
}

test.serial('bodies: a malformed chunk size after an authenticated head is answered 400 at once, and the connection closed', async (t) => {
  const { host, port } = target();
  const exact = `POST /v1/jobs HTTP/1.1\r\nHost: x\r\nAuthorization: ${auth().authorization}\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n{}\r\n0\r\n\r\n`;
  const r = await rawExchange(host, port, exact, { halfClose: false, deadlineMs: 5_000 });
  const body = apiError(t, r, 400, /^malformed HTTP request: Invalid character in chunk size/);
  t.true(body.client_side);
  t.true(r.ms < 3_000, `answered after ${r.ms} ms`);
  // Without a token it is refused for that, as before.
  const anonymous = await rawExchange(host, port, exact.replace(/Authorization: [^\r]*\r\n/, ''), { halfClose: false, deadlineMs: 5_000 });
  t.is(anonymous.status, 401);
  // Mid-stream: a good chunk first, the bad one once the handler reads.
  const later = await sendBroken(host, port, { method: 'POST', path: '/v1/jobs', headers: auth(), mode: 'malformed', later: true }, 5_000);
  apiError(t, later, 400, /^malformed HTTP request/);
  await eventually(async () => (await inFlight()) === 1, { what: 'no handler left running', timeoutMs: 10_000 });
});

test.serial('bodies: a body that stalls mid-stream is answered 408 after the body timeout, and the connection closed; nothing is made', async (t) => {
  const { host, port } = target();
  const fqn = `job::/bodies::${unique('stall')}`;
  for (const framing of ['chunked', 'length'] as const) {
    const text = JSON.stringify({ fqn });
    const head = `POST /v1/jobs HTTP/1.1\r\nHost: x\r\nAuthorization: ${auth().authorization}\r\nContent-Type: application/json\r\n`;
    const bytes =
      framing === 'chunked' ? `${head}Transfer-Encoding: chunked\r\n\r\n${(10).toString(16)}\r\n${text.slice(0, 10)}\r\n` : `${head}Content-Length: ${text.length}\r\n\r\n${text.slice(0, 10)}`;
    const r = await rawExchange(host, port, bytes, { halfClose: false, deadlineMs: CLOSE_WITHIN_MS });
    const body = apiError(t, r, 408, /^the request body stalled: no byte of it arrived for 1 s$/);
    t.true(body.retry, framing);
    t.true(r.ms >= BODY_IDLE_MS, `${framing}: ${r.ms} ms`);
  }
  t.deepEqual((await suite.api().get<unknown[]>(`/v1/jobs?fqn=${encodeURIComponent(fqn)}`)).body, []);
});

test.serial('bodies: a body that never ends is refused at the size limit (413), or at the request timeout when it trickles (408)', async (t) => {
  const { host, port } = target();
  const flood = await sendBroken(host, port, { method: 'POST', path: '/v1/jobs', headers: auth(), mode: 'endless' }, CLOSE_WITHIN_MS);
  apiError(t, flood, 413, /over the limit of 1048576 bytes/);
  const trickle = await sendBroken(host, port, { method: 'POST', path: '/v1/jobs', headers: auth(), mode: 'endless', dripMs: BODY_IDLE_MS / 5 }, CLOSE_WITHIN_MS);
  apiError(t, trickle, 408, /did not arrive in time/);
  t.true(trickle.ms >= REQUEST_MS, `${trickle.ms} ms`);
});

test.serial('bodies: an archive upload that stalls, never ends or breaks is refused, leaves the package waiting for it, and nothing in blobs/tmp', async (t) => {
  const api = suite.api();
  const data = Buffer.alloc(1000, 1);
  const pkg = (await api.post<Package>('/v1/packages', { fqn: `package::/bodies::${unique('up')}`, resource: { length: data.length, digest: digestOf(data) } })).body;
  const { host, port } = target();
  const path = `/v1/packages/resources/${pkg.uuid}`;
  const headers = { ...auth(), 'content-type': 'application/octet-stream' };
  const expected = { stall: [408, /stalled/], endless: [400, /longer than the 1000 bytes declared/], malformed: [400, /malformed HTTP request/] } as const;
  for (const mode of ['stall', 'endless', 'malformed'] as const) {
    const r = await sendBroken(host, port, { method: 'PUT', path, headers, mode, first: 'x'.repeat(100) }, CLOSE_WITHIN_MS);
    apiError(t, r, expected[mode][0], expected[mode][1]);
  }
  const reset = await sendBroken(host, port, { method: 'PUT', path, headers, mode: 'reset', first: 'x'.repeat(100) }, CLOSE_WITHIN_MS);
  t.is(reset.status, 0);
  const after = (await api.get<Package>(`/v1/packages/${pkg.uuid}`)).body;
  t.is(after.state, pkg.state, 'the package still waits for its archive');
  await eventually(async () => (await readdir(join(suite.controller().dataDir, 'blobs', 'tmp'))).length === 0, { what: 'blobs/tmp to be empty' });
  // And the upload still works.
  const ok = await api.put(path, data, { headers: { 'content-type': 'application/octet-stream' } });
  t.is(ok.status, 200, ok.text);
  await eventually(async () => (await inFlight()) === 1, { what: 'no handler left running', timeoutMs: 10_000 });
});

test.serial('bodies: a head that dribbles in is answered 408 at the headers timeout, and the connection closed', async (t) => {
  const { host, port } = target();
  const r = await rawExchange(host, port, 'GET /v1/jobs HTTP/1.1\r\nHost: x\r\n', { halfClose: false, deadlineMs: CLOSE_WITHIN_MS, drip: 'X-Slow: a\r\n', dripMs: 100 });
  apiError(t, r, 408, /did not arrive in time/);
  t.true(r.ms >= HEADERS_MS, `${r.ms} ms`);
});


const getWithBody = () => `GET /v1/version HTTP/1.1\r\nHost: x\r\nAuthorization: ${auth().authorization}\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n`;

test.serial('bodies: a body that breaks after its request was answered ends the connection, with no second answer for the one request', async (t) => {
  const { host, port } = target();
  const r = await rawExchange(host, port, getWithBody(), { halfClose: false, deadlineMs: CLOSE_WITHIN_MS, afterAnswer: (s) => s.write('zz\r\n{}\r\n0\r\n\r\n') });
  t.is(r.status, 200, r.text);
  t.deepEqual(r.text.match(/HTTP\/1\.1 \d{3}/g), ['HTTP/1.1 200'], r.text);
});

test.serial('bodies: a body that keeps coming after its request was answered ends the connection, not the request timeout (and gets no second answer)', async (t) => {
  const { host, port } = target();
  const r = await rawExchange(host, port, getWithBody(), {
    halfClose: false,
    deadlineMs: CLOSE_WITHIN_MS,
    afterAnswer: (s) => {
      const drip = setInterval(() => s.writable && s.write('4\r\nmore\r\n'), 20);
      s.once('close', () => clearInterval(drip));
    },
  });
  t.deepEqual(r.text.match(/HTTP\/1\.1 \d{3}/g), ['HTTP/1.1 200'], r.text);
  t.true(r.ms < REQUEST_MS, `closed after ${r.ms} ms, before the request timeout`);
});

test.serial('bodies: an idle keep-alive connection closes after PLATFORM_HTTP_KEEP_ALIVE_TIMEOUT_MS', async (t) => {
  const { host, port } = target();
  const r = await rawExchange(host, port, `GET /v1/version HTTP/1.1\r\nHost: x\r\nAuthorization: ${auth().authorization}\r\n\r\n`, { halfClose: false, deadlineMs: KEEP_ALIVE_MS + 10_000 });
  t.is(r.status, 200);
  t.regex(r.text, /\r\nKeep-Alive: timeout=1\r\n/);
  t.true(r.ms >= KEEP_ALIVE_MS, `${r.ms} ms`);
});

test('bodies: a keep-alive limit of 0 or one that is no number stops the start with a clear message', async (t) => {
  const zero = await t.throwsAsync(ControllerProcess.start({ env: { PLATFORM_HTTP_KEEP_ALIVE_TIMEOUT_MS: '0' } }));
  t.regex(zero.message, /PLATFORM_HTTP_KEEP_ALIVE_TIMEOUT_MS must be above 0/);
  const word = await t.throwsAsync(ControllerProcess.start({ env: { PLATFORM_HTTP_KEEP_ALIVE_TIMEOUT_MS: 'soon' } }));
  t.regex(word.message, /PLATFORM_HTTP_KEEP_ALIVE_TIMEOUT_MS="soon" is not a whole number of milliseconds/);
});
