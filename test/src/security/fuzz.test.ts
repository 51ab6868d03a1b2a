/**
 * Fuzzing every endpoint of a real controller: a fixed number of requests from a seeded
 * generator (the same requests on every run), as the administrator, as an ordinary user, with
 * no or a broken token; malformed and mistyped bodies, huge strings, bad uuids and FQNs, wrong
 * methods, odd headers and query strings, and now and then bytes that are not HTTP at all.
 *
 * What must hold:
 * - no answer is a 5xx, and every refusal (4xx) carries an APIError body with a request id
 *   (the stager API excepted: its refusals are the stager status codes of its own spec);
 * - a refused request changes nothing: the state the listings show (jobs, packages, pipelines,
 *   users, policy) is compared before and after every run of requests in which no change was
 *   accepted. Requests meant to succeed (creates that keep the uuids fresh) are run between
 *   two snapshots of their own, so that the runs around them are compared too.
 *
 * PLATFORM_FUZZ_REQUESTS and PLATFORM_FUZZ_SEED change the count and the seed (the failure
 * message prints the seed and the request that failed, to replay it).
 *
 * Broken bodies, on every route that may read one (the POST, PUT and PATCH operations of the
 * controller's own OpenAPI document): a malformed chunk, a connection cut mid-body, a body that
 * stalls and one that never ends. Each gets its answer (a 4xx APIError) and its connection
 * closed within a bound, no handler is left running, and nothing changes. The seeded run draws
 * such requests too (a malformed chunk with the head or after it, a reset), and the same ways
 * of breaking go through the embedded router to every route an app has in the route table:
 * answered, closed, and no request left half sent to the app.
 */
import test from 'ava';
import { Agent, request } from 'node:http';
import { connect, type Socket } from 'node:net';
import type { ApiErrorBody, Job, Package, StagingPipeline } from '@platform/controller';
import { uploadPackage } from '../harness/apps.js';
import { BREAK_MODES, sendBroken, type BrokenRequest } from '../harness/broken-bodies.js';
import { runningInstances, startCluster } from '../harness/cluster.js';
import { archive, digestOf, unique } from '../harness/fixtures.js';
import type { ApiClient } from '../harness/http.js';
import type { OpenApiDocument } from '../harness/openapi.js';
import { createPackage } from '../harness/packages.js';
import { routerAppArchive, splitAddress } from '../harness/router-app.js';
import { useController } from '../harness/suite.js';
import { eventually } from '../harness/wait.js';

/** How long the controller waits for the next byte of a body, and for a whole request (short, for the broken bodies). */
const BODY_IDLE_MS = 500;
const REQUEST_MS = 4_000;
/** Largest package archive: a body that never ends on an upload route passes it soon. */
const MAX_PACKAGE_BYTES = 4 * 1024 * 1024;

// Durability is not what this test is about: without fsync per write, the requests cost what their handling costs.
const suite = useController(test, {
  env: {
    PLATFORM_SYNC: 'false',
    PLATFORM_HTTP_BODY_IDLE_TIMEOUT_MS: String(BODY_IDLE_MS),
    PLATFORM_HTTP_REQUEST_TIMEOUT_MS: String(REQUEST_MS),
    PLATFORM_MAX_PACKAGE_BYTES: String(MAX_PACKAGE_BYTES),
  },
});

const TOTAL = Number(process.env['PLATFORM_FUZZ_REQUESTS'] ?? 10_000);
/**
 * A busy machine may not get through TOTAL in reasonable time: the run then stops after this
 * long, at the end of a run of requests (the requests sent are still the seed's, a prefix of them).
 */
const BUDGET_MS = Number(process.env['PLATFORM_FUZZ_BUDGET_MS'] ?? 45_000);
const SEED = Number(process.env['PLATFORM_FUZZ_SEED'] ?? 20261123);
/** Requests between two comparisons of the state. */
const RUN = 100;
/** Requests in flight at once. */
const LANES = 4;
const USER = 'fuzzer';
const OTHER = 'fuzzvictim';
const PASSWORD = 'a long enough password';

/** mulberry32: small, fast, and the same sequence for the same seed everywhere. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

interface FuzzRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string | Buffer;
  /** Built to succeed: run between two snapshots of its own. */
  valid?: 'job' | 'package' | 'pipeline';
  /** Bytes sent on a raw connection instead of an HTTP request. */
  raw?: Buffer;
  /** A request whose body breaks after its head (its method, path and headers are the request's). */
  broken?: Pick<BrokenRequest, 'mode' | 'first' | 'later'>;
}

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
}

const agent = new Agent({ keepAlive: true, maxSockets: 8 });

function send(base: string, r: FuzzRequest): Promise<Answer> {
  const { hostname, port } = new URL(base);
  if (r.raw) return sendRaw(hostname, Number(port), r.raw);
  if (r.broken) {
    return sendBroken(hostname, Number(port), { method: r.method, path: r.path, headers: r.headers, ...r.broken }, REQUEST_MS + 15_000).then((a) => ({
      status: a.status,
      headers: Object.fromEntries(a.headers),
      text: a.body,
    }));
  }
  return new Promise((resolve, reject) => {
    const req = request(
      { hostname, port, method: r.method, path: r.path, headers: r.headers, agent, timeout: 15_000 },
      (res) => {
        const parts: Buffer[] = [];
        res.on('data', (d: Buffer) => parts.push(d));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text: Buffer.concat(parts).toString('utf8') }));
        res.on('error', reject);
      },
    );
    req.on('timeout', () => req.destroy(new Error(`no answer within 15 s: ${r.method} ${r.path.slice(0, 200)}`)));
    req.on('error', (err: NodeJS.ErrnoException) => {
      // A refusal may close the connection before the whole body is written; the answer decides.
      if (err.code === 'EPIPE' || err.code === 'ECONNRESET') resolve({ status: -1, headers: {}, text: err.code });
      else reject(err);
    });
    req.end(r.body);
  });
}

function sendRaw(host: string, port: number, bytes: Buffer): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, host);
    const parts: Buffer[] = [];
    const timer = setTimeout(() => socket.destroy(), 5_000);
    socket.on('data', (d: Buffer) => parts.push(d));
    socket.on('error', (err: NodeJS.ErrnoException) => {
      if (err.code !== 'EPIPE' && err.code !== 'ECONNRESET') reject(err);
    });
    socket.on('close', () => {
      clearTimeout(timer);
      const text = Buffer.concat(parts).toString('utf8');
      const [head = '', ...rest] = text.split('\r\n\r\n');
      const [statusLine = '', ...lines] = head.split('\r\n');
      const headers = Object.fromEntries(lines.map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]));
      // A request that is still incomplete when the bytes end gets no answer (status 0): the server waits for more.
      resolve({ status: Number(statusLine.split(' ')[1] ?? 0) || 0, headers, text: rest.join('\r\n\r\n') });
    });
    socket.end(bytes);
  });
}

/** What the listings show, as the administrator sees it: one entry per resource, by kind and id. */
type State = Map<string, string>;

async function snapshot(api: ApiClient): Promise<State> {
  const lists: [string, string, (item: Record<string, unknown>) => string][] = [
    ['jobs', '/v1/jobs', (i) => String(i['uuid'])],
    ['packages', '/v1/packages', (i) => String(i['uuid'])],
    ['pipelines', '/v1/stagingpipelines', (i) => String(i['uuid'])],
    ['users', '/v1/users', (i) => String(i['name'])],
    ['policy', '/v1/policy', (i) => String(i['name'])],
  ];
  const state: State = new Map();
  await Promise.all(
    lists.map(async ([kind, path, key]) => {
      const r = await api.get<Record<string, unknown>[]>(path);
      if (r.status !== 200) throw new Error(`snapshot ${path}: ${r.status} ${r.text}`);
      for (const item of r.body) state.set(`${kind}/${key(item)}`, JSON.stringify(item));
    }),
  );
  return state;
}

/** The entries that differ between two states, leaving out those a request was allowed to change. */
function differences(before: State, after: State, touched: ReadonlySet<string>): string[] {
  const out: string[] = [];
  for (const key of new Set([...before.keys(), ...after.keys()])) {
    if (touched.has(key) || before.get(key) === after.get(key)) continue;
    out.push(`${key}: ${before.get(key)?.slice(0, 300) ?? '(absent)'} -> ${after.get(key)?.slice(0, 300) ?? '(absent)'}`);
  }
  return out;
}

/**
 * The entries an accepted change may have changed, or undefined when that is not known
 * (then the run it belongs to is not compared).
 */
function touchedBy(r: FuzzRequest, answer: Answer): string[] | undefined {
  const path = r.path.replace(/^\/v1/, '').replace(/\?.*$/, '');
  const parts = path.split('/');
  const created = (): string | undefined => {
    try {
      return (JSON.parse(answer.text) as { uuid?: string }).uuid;
    } catch {
      return undefined;
    }
  };
  const kinds: Record<string, string> = { jobs: 'jobs', packages: 'packages', stagingpipelines: 'pipelines' };
  const kind = kinds[parts[1] ?? ''];
  if (r.method === 'POST' && kind && parts.length === 2) {
    const uuid = created();
    return uuid ? [`${kind}/${uuid}`] : undefined;
  }
  // A change of a job or a pipeline shows in its own entry only; a package's state shows in the jobs that use it too.
  if ((r.method === 'PUT' || r.method === 'DELETE') && (kind === 'jobs' || kind === 'pipelines') && parts.length === 3) return [`${kind}/${decodeURIComponent(parts[2]!)}`];
  if ((r.method === 'PUT' || r.method === 'DELETE') && parts[1] === 'users' && parts.length === 3) return [`users/${decodeURIComponent(parts[2]!)}`];
  if (r.method === 'PUT' && parts[1] === 'policy' && parts.length === 2) {
    try {
      return (JSON.parse(String(r.body)) as { docs: { name: string }[] }).docs.map((d) => `policy/${d.name}`);
    } catch {
      return undefined;
    }
  }
  return undefined;
}

/** The generator: every choice comes from `rnd`, so a seed names one sequence of requests. */
class Generator {
  #n = 0;
  constructor(
    private readonly rnd: () => number,
    private readonly pools: {
      tokens: { admin: string; user: string };
      uuids: string[];
      own: { jobs: string[]; packages: string[]; pipelines: string[] };
      fqns: string[];
      digest: string;
      length: number;
      /** The routes that take a body, from the OpenAPI document (bodyRoutes). */
      bodyRoutes: BodyRoute[];
    },
  ) {}

  int(n: number): number {
    return Math.floor(this.rnd() * n);
  }
  pick<T>(items: readonly T[]): T {
    return items[this.int(items.length)]!;
  }
  chance(p: number): boolean {
    return this.rnd() < p;
  }

  /** A well-formed uuid that names nothing (from the seed, not from the system's randomness). */
  randomUuid(): string {
    const hex = Array.from({ length: 32 }, () => this.int(16).toString(16)).join('');
    return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-a${hex.slice(17, 20)}-${hex.slice(20)}`;
  }

  badUuid(): string {
    return this.pick([
      '',
      'x',
      'not-a-uuid',
      '00000000-0000-0000-0000-000000000000',
      '00000000-0000-0000-0000-00000000000g',
      '123e4567-e89b-12d3-a456-426614174000-extra',
      'ABCDEF01-2345-6789-ABCD-EF0123456789',
      '%00',
      '..',
      '%2e%2e%2f%2e%2e',
      'a'.repeat(5000),
      '💥',
      '%ZZ',
      "'; DROP TABLE jobs; --",
    ]);
  }
  uuid(): string {
    const r = this.rnd();
    if (r < 0.45) return this.pick(this.pools.uuids);
    if (r < 0.6) return this.randomUuid();
    return this.badUuid();
  }
  /** A path segment: a uuid most of the time, else anything. */
  segment(): string {
    // Characters a request line cannot carry are escaped; escapes written on purpose (%00, %ZZ) stay.
    return this.chance(0.9) ? this.uuid().replace(/[^A-Za-z0-9\-._~%!$&'()*+,;=:@]/gu, (c) => encodeURIComponent(c)) : encodeURIComponent(this.string());
  }
  string(): string {
    return this.pick([
      '',
      ' ',
      'a',
      'x'.repeat(this.pick([256, 513, 1025, 5000, 70_000])),
      'job::/sandbox/fuzzer::ok',
      'job::/sandbox/fuzzvictim::theirs',
      'job::',
      'job:://::',
      'package::/platform',
      'stagpipe::/platform::nodejs',
      'bogus::/a::b',
      '/sandbox/../etc',
      '\u0000',
      '\u202e\ufeff',
      '%s%n%x',
      '${jndi:ldap://x}',
      '<script>',
      '1e309',
      'null',
      'true',
      '-1',
      this.pick(this.pools.fqns),
    ]);
  }
  /** Any JSON value of at most `depth` levels (nesting deeper than that is the body parser's own test). */
  value(depth: number): unknown {
    const r = this.int(depth > 0 ? 12 : 9);
    switch (r) {
      case 0: return null;
      case 1: return this.chance(0.5);
      case 2: return this.pick([0, -1, 1.5, 1e308, -1e308, 2 ** 53 + 1, 65536, 4294967296]);
      case 3: return this.string();
      case 4: return this.uuid();
      case 5: return this.pick(this.pools.fqns);
      case 6: return this.pick(['started', 'stopped', 'ready', 'user', 'system', 'http', 'tcp']);
      case 7: return '';
      case 8: return this.pick([{}, [], '[]', '{}']);
      case 9: return Array.from({ length: this.int(4) }, () => this.value(depth - 1));
      default: {
        const o: Record<string, unknown> = {};
        for (let i = this.int(4); i > 0; i--) o[this.pick(FIELD_NAMES)] = this.value(depth - 1);
        return o;
      }
    }
  }
  /** A body close to a valid one of `kind`, with a few fields replaced, dropped or added. */
  mutated(kind: 'job' | 'package' | 'pipeline' | 'policy' | 'user' | 'deps'): unknown {
    const base = this.validBody(kind);
    for (let i = 1 + this.int(3); i > 0; i--) {
      const keys = Object.keys(base);
      const op = this.int(3);
      if (op === 0 && keys.length > 0) delete base[this.pick(keys)];
      else if (op === 1 && keys.length > 0) base[this.pick(keys)] = this.value(3);
      else base[this.pick(FIELD_NAMES)] = this.value(3);
    }
    return base;
  }
  validBody(kind: 'job' | 'package' | 'pipeline' | 'policy' | 'user' | 'deps'): Record<string, unknown> {
    const n = `f${this.#n++}x${this.int(1e9).toString(36)}`;
    switch (kind) {
      case 'job':
        return {
          fqn: `job::/sandbox/${USER}::${n}`,
          num_instances: 1,
          processes: { app: { start_command: 'true' } },
          ...(this.chance(0.5) && this.pools.own.packages.length > 0 ? { packages: [{ uuid: this.pick(this.pools.own.packages) }] } : {}),
        };
      case 'package':
        return { fqn: `package::/sandbox/${USER}::${n}`, resources: [{ length: this.pools.length, digest: this.pools.digest }] };
      case 'pipeline':
        return { fqn: `stagpipe::/sandbox/${USER}::${n}`, stagers: this.chance(0.5) && this.pools.own.jobs.length > 0 ? [{ uuid: this.pick(this.pools.own.jobs) }] : [] };
      case 'policy':
        return { docs: [{ name: `fuzz-${this.int(5)}`, for_version: this.int(3), text: this.pick(['job::/fuzz { permit read }', 'nonsense {', 'on job::/x { role nobody }']) }] };
      case 'user':
        return { password: this.pick(['short', PASSWORD, '']) };
      case 'deps':
        return { dependencies: [{ type: 'runtime', name: 'node' }], job_target: `job::/sandbox/${USER}::x` };
    }
  }

  headers(): Record<string, string> {
    const h: Record<string, string> = {};
    const who = this.rnd();
    if (who < 0.45) h['authorization'] = `Bearer ${this.pools.tokens.admin}`;
    else if (who < 0.9) h['authorization'] = `Bearer ${this.pools.tokens.user}`;
    else if (who < 0.95) {
      h['authorization'] = this.pick([
        'Bearer',
        'Bearer x.y.z',
        `Bearer ${this.pools.tokens.user.slice(0, -3)}abc`,
        'Basic YWRtaW46d3Jvbmc=',
        'bearer  ' + 'a'.repeat(3000),
        `Bearer ${this.pools.tokens.admin}x`,
      ]);
    }
    if (this.chance(0.2)) {
      h['accept'] = this.pick([
        '*/*',
        'application/json',
        'application/vnd.platform.job;version=99',
        'application/vnd.platform.jobs;version=1',
        'text/html',
        'application/vnd.platform.job;version=abc',
        ';;;',
        'application/*;q=0',
      ]);
    }
    if (this.chance(0.1)) h['x-request-id'] = this.pick(['ok-id-1', 'a'.repeat(300), 'bad id with spaces', '../../x']);
    if (this.chance(0.05)) h['host'] = this.pick(['api.example.com', 'evil.example', '[::1]:1', 'a'.repeat(300)]);
    if (this.chance(0.05)) h['x-forwarded-for'] = this.pick(['1.2.3.4', 'not an address', '127.0.0.1, 10.0.0.1']);
    if (this.chance(0.05)) h['accept-version'] = this.pick(['0', '999', 'x']);
    return h;
  }

  query(): string {
    if (!this.chance(0.3)) return '';
    const keys = ['fqn', 'matchPartialFQN', 'ids', 'count', 'page', 'name', 'tag', 'package_id', 'health', 'instance', 'lines', 'version',
      'event_type', 'start_time', 'end_time', 'limit', 'offset', 'provides_type', 'provides_name', 'excluded_tags', 'BindingFQN', 'lastEventId'];
    const parts: string[] = [];
    for (let i = 1 + this.int(3); i > 0; i--) {
      const v = this.pick([this.string(), this.uuid(), String(this.pick([-1, 0, 1, 1e9, 2 ** 53])), 'true', 'maybe', '']);
      parts.push(`${encodeURIComponent(this.pick(keys))}=${encodeURIComponent(v)}`);
    }
    return `?${parts.join('&')}`;
  }

  body(kind: BodyKind): { body?: string | Buffer; contentType?: string } {
    const r = this.rnd();
    if (kind === 'none' && r < 0.8) return {};
    if (kind === 'bytes') {
      const size = this.pick([0, 1, 17, this.pools.length, this.pools.length + 1]);
      return { body: Buffer.alloc(size, this.int(256)), contentType: this.pick(['application/octet-stream', 'application/json']) };
    }
    if (kind === 'form') {
      return { body: this.pick(['', 'grant_type=password', 'grant_type=%ZZ', 'a'.repeat(5000), '{"json":true}']), contentType: 'application/x-www-form-urlencoded' };
    }
    const jsonType = this.pick(['application/json', 'application/json; charset=utf-8', 'text/plain', 'application/xml', 'application/json; charset=latin1', '']);
    if (r < 0.1) return { body: this.pick(['{', '{"a":', '[1,2', 'nul', '\u0000', '{"a":1}{"b":2}', '{"fqn":"\\ud800"}', '\ufeff{}']), contentType: jsonType };
    if (r < 0.15) return { body: JSON.stringify(this.value(4)), contentType: jsonType };
    if (r < 0.153) return { body: JSON.stringify({ fqn: 'x'.repeat(this.pick([600_000, 1_100_000])) }), contentType: jsonType };
    if (r < 0.18) return { body: `${'['.repeat(40)}${']'.repeat(40)}`, contentType: jsonType };
    const k = kind === 'none' ? this.pick(['job', 'package', 'pipeline', 'policy', 'user', 'deps'] as const) : kind;
    return { body: JSON.stringify(this.mutated(k)), contentType: jsonType };
  }

  rawBytes(): Buffer {
    return Buffer.from(
      this.pick([
        'GET\r\n\r\n',
        'GET /v1/jobs HTTP/9.9\r\nHost: x\r\n\r\n',
        'GET /v1/jobs HTTP/1.1\r\nHost: x\r\nContent-Length: -1\r\n\r\n',
        'POST /v1/jobs HTTP/1.1\r\nHost: x\r\nContent-Length: 1e3\r\n\r\n',
        'POST /v1/jobs HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\nContent-Length: 3\r\n\r\nab',
        'POST /v1/jobs HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\nContent-Length: 3\r\n\r\n0\r\n\r\n',
        'POST /v1/jobs HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n',
        `GET /v1/jobs HTTP/1.1\r\nHost: x\r\nX: ${'a'.repeat(17_000)}\r\n\r\n`,
        'GET /v1/jobs HTTP/1.1\r\nHo st: x\r\n\r\n',
        'GET /v1/jobs HTTP/1.1\r\nHost: x\r\nX: a\rb\r\n\r\n',
        '\u0016\u0003\u0001\u0000\u00a5\u0001\u0000\u0000\u00a1\u0003\u0003',
        'GET /v1/jobs\u0000 HTTP/1.1\r\nHost: x\r\n\r\n',
        'FOO /v1/jobs HTTP/1.1\r\nHost: x\r\n\r\n',
        'GET http://evil/v1/jobs HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n',
      ]),
      'latin1',
    );
  }

  /** A request to a route that takes a body, whose body breaks after its head. */
  broken(): FuzzRequest {
    const route = this.pick(this.pools.bodyRoutes);
    const headers = this.headers();
    headers['content-type'] = route.media;
    return {
      method: route.method,
      path: route.path.replace(/\{[^}]+\}/g, () => this.segment()),
      headers,
      broken: { mode: this.pick(['malformed', 'reset'] as const), first: firstBytes(route.media), later: this.chance(0.5) },
    };
  }

  next(): FuzzRequest {
    if (this.chance(0.01)) return { method: 'RAW', path: '', headers: {}, raw: this.rawBytes() };
    if (this.chance(0.02)) return this.broken();
    if (this.chance(0.02)) {
      const kind = this.pick(['job', 'package', 'pipeline'] as const);
      const path = { job: '/v1/jobs', package: '/v1/packages', pipeline: '/v1/stagingpipelines' }[kind];
      return {
        method: 'POST',
        path,
        headers: { authorization: `Bearer ${this.pools.tokens.user}`, 'content-type': 'application/json' },
        body: JSON.stringify(this.validBody(kind)),
        valid: kind,
      };
    }
    const route = this.pick(ROUTES);
    let method = route.method;
    if (this.chance(0.08)) method = this.pick(['GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'HEAD', 'OPTIONS']);
    let path = route.path.replace(/:[a-z]+/g, () => this.segment()).replace('*', () => this.pick(['', 'app', 'app/x', encodeURIComponent(this.string()), '..', 'a/'.repeat(100)]));
    if (route.path.startsWith('/users/')) path = `/users/${encodeURIComponent(this.pick(['nobody', 'x', 'A', '..', 'a'.repeat(100), 'fuzzvictim2', '%']))}`;
    if (route.path === '/policy/:name') path = `/policy/${encodeURIComponent(this.pick(['bootstrap', 'nope', '..', 'a'.repeat(200)]))}`;
    if (this.chance(0.5)) path = `/v1${path}`;
    if (!path.startsWith('/stager/')) path += this.query();
    const headers = this.headers();
    const { body, contentType } = method === 'HEAD' ? {} : method === 'GET' ? (this.chance(0.05) ? this.body('none') : {}) : this.body(route.body);
    if (contentType) headers['content-type'] = contentType;
    // Framed, so that every request is one request (bytes without framing are the raw cases' business).
    if (body !== undefined) headers['content-length'] = String(Buffer.byteLength(body));
    return { method, path, headers, ...(body === undefined ? {} : { body }) };
  }
}

type BodyKind = 'none' | 'job' | 'package' | 'pipeline' | 'policy' | 'user' | 'deps' | 'bytes' | 'form';

/** A route that takes a body: its method, its path as the document writes it (`/v1/jobs/{uuid}`), and a media type it reads. */
interface BodyRoute {
  method: string;
  path: string;
  media: string;
}

/**
 * The routes that take a body, from the served OpenAPI document (which lists every route the
 * API serves): those that declare a request body, and every POST, PUT and PATCH besides.
 */
function bodyRoutes(doc: OpenApiDocument): BodyRoute[] {
  const routes: BodyRoute[] = [];
  for (const [path, operations] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(operations)) {
      const media = Object.keys(op.requestBody?.content ?? {});
      if (media.length === 0 && !['post', 'put', 'patch'].includes(method)) continue;
      routes.push({ method: method.toUpperCase(), path, media: media.find((m) => m !== 'application/x-www-form-urlencoded' || media.length === 1) ?? 'application/json' });
    }
  }
  return routes;
}

/** The bytes a body of `media` starts with, before it breaks. */
function firstBytes(media: string): string {
  if (media === 'application/octet-stream') return 'x'.repeat(100);
  if (media === 'application/x-www-form-urlencoded') return 'grant_type=password&username=';
  return '{"fqn":"job::/fuzz::';
}

/** Every endpoint, and the kind of body it takes. */
const ROUTES: { method: string; path: string; body: BodyKind }[] = [
  { method: 'GET', path: '/jobs', body: 'none' },
  { method: 'POST', path: '/jobs', body: 'job' },
  { method: 'GET', path: '/jobs/health', body: 'none' },
  { method: 'GET', path: '/jobs/:uuid', body: 'none' },
  { method: 'PUT', path: '/jobs/:uuid', body: 'job' },
  { method: 'DELETE', path: '/jobs/:uuid', body: 'none' },
  { method: 'GET', path: '/jobs/:uuid/instances', body: 'none' },
  { method: 'DELETE', path: '/jobs/:uuid/instances/:instance', body: 'none' },
  { method: 'GET', path: '/jobs/:uuid/files', body: 'none' },
  { method: 'GET', path: '/jobs/:uuid/files/*', body: 'none' },
  { method: 'GET', path: '/jobs/:uuid/logs', body: 'none' },
  { method: 'GET', path: '/packages', body: 'none' },
  { method: 'POST', path: '/packages', body: 'package' },
  { method: 'POST', path: '/packages/dependencies', body: 'deps' },
  { method: 'GET', path: '/packages/:uuid', body: 'none' },
  { method: 'PUT', path: '/packages/:uuid', body: 'package' },
  { method: 'DELETE', path: '/packages/:uuid', body: 'none' },
  { method: 'GET', path: '/packages/:uuid/logs', body: 'none' },
  { method: 'GET', path: '/packages/resources/:uuid', body: 'none' },
  { method: 'PUT', path: '/packages/resources/:uuid', body: 'bytes' },
  { method: 'GET', path: '/packages/:uuid/resources/:resource', body: 'none' },
  { method: 'PUT', path: '/packages/:uuid/resources/:resource', body: 'bytes' },
  { method: 'GET', path: '/stagingpipelines', body: 'none' },
  { method: 'POST', path: '/stagingpipelines', body: 'pipeline' },
  { method: 'GET', path: '/stagingpipelines/:uuid', body: 'none' },
  { method: 'PUT', path: '/stagingpipelines/:uuid', body: 'pipeline' },
  { method: 'DELETE', path: '/stagingpipelines/:uuid', body: 'none' },
  { method: 'GET', path: '/runtimes', body: 'none' },
  { method: 'GET', path: '/gateways', body: 'none' },
  { method: 'POST', path: '/gateways', body: 'job' },
  { method: 'DELETE', path: '/gateways/:name', body: 'none' },
  { method: 'GET', path: '/providers', body: 'none' },
  { method: 'POST', path: '/providers', body: 'job' },
  { method: 'GET', path: '/providers/:uuid', body: 'none' },
  { method: 'DELETE', path: '/providers/:uuid', body: 'none' },
  { method: 'GET', path: '/services', body: 'none' },
  { method: 'POST', path: '/services', body: 'job' },
  { method: 'GET', path: '/services/:uuid', body: 'none' },
  { method: 'DELETE', path: '/services/:uuid', body: 'none' },
  { method: 'POST', path: '/bindings', body: 'job' },
  { method: 'POST', path: '/unbind', body: 'job' },
  { method: 'POST', path: '/unlink', body: 'job' },
  { method: 'GET', path: '/instance_managers', body: 'none' },
  { method: 'GET', path: '/instance_managers/:uuid', body: 'none' },
  { method: 'GET', path: '/instance_managers/:uuid/instances', body: 'none' },
  { method: 'GET', path: '/users', body: 'none' },
  { method: 'PUT', path: '/users/:name', body: 'user' },
  { method: 'DELETE', path: '/users/:name', body: 'none' },
  { method: 'GET', path: '/policy', body: 'none' },
  { method: 'GET', path: '/policy/:name', body: 'none' },
  { method: 'PUT', path: '/policy', body: 'policy' },
  { method: 'GET', path: '/audit', body: 'none' },
  { method: 'GET', path: '/audit/events', body: 'none' },
  { method: 'GET', path: '/info', body: 'none' },
  { method: 'GET', path: '/version', body: 'none' },
  { method: 'GET', path: '/cluster/admin', body: 'none' },
  { method: 'POST', path: '/oauth2/token', body: 'form' },
  { method: 'GET', path: '/metrics', body: 'none' },
  { method: 'GET', path: '/openapi.json', body: 'none' },
  { method: 'GET', path: '/cli/download/:platform', body: 'none' },
  { method: 'GET', path: '/apc/version', body: 'none' },
  { method: 'GET', path: '/stager/:token/data', body: 'none' },
  { method: 'POST', path: '/stager/:token/data', body: 'bytes' },
  { method: 'GET', path: '/stager/:token/meta', body: 'none' },
  { method: 'PUT', path: '/stager/:token/meta', body: 'form' },
  { method: 'POST', path: '/stager/:token/done', body: 'none' },
  { method: 'POST', path: '/stager/:token/failed', body: 'form' },
  { method: 'GET', path: '/nowhere/:uuid', body: 'none' },
];

const FIELD_NAMES = [
  'fqn', 'name', 'uuid', 'packages', 'num_instances', 'processes', 'state', 'ports', 'resources', 'restart', 'rollout', 'tags',
  'bindings', 'drains', 'network_ref', 'stagers', 'staging_pipeline', 'staging_pipeline_fqn', 'resources', 'dependencies',
  'provides', 'environment', 'docs', 'password', 'version_id', '__proto__', 'constructor', 'job_target', 'weight', 'logs',
];

const MUTATING = new Set(['POST', 'PUT', 'DELETE', 'PATCH']);

test('fuzz: every endpoint, seeded requests as admin, user and nobody: no 5xx, refusals are APIErrors and change nothing', async (t) => {
  t.timeout(5 * 60_000);
  const admin = suite.api();
  const base = suite.controller().url;
  const user = await admin.createUser(USER, PASSWORD);
  const victim = await admin.createUser(OTHER, PASSWORD);
  const token = (c: ApiClient) => c.defaultHeaders['authorization']!.slice('Bearer '.length);

  // Something to aim at: resources of the fuzzing user, of another user and of the administrator.
  const data = archive();
  const uuids: string[] = [];
  const own = { jobs: [] as string[], packages: [] as string[], pipelines: [] as string[] };
  const fqns: string[] = [];
  for (const [who, ns, mine] of [[user, `/sandbox/${USER}`, true], [victim, `/sandbox/${OTHER}`, false], [admin, '/fuzz', false]] as const) {
    const pkg = await createPackage(who, ns, { upload: true });
    const waiting = await createPackage(who, ns);
    const job = (await who.post<Job>('/v1/jobs', { fqn: `job::${ns}::seed`, packages: [{ uuid: pkg.uuid }], processes: { app: { start_command: 'true' } } })).body;
    const pipe = (await who.post<StagingPipeline>('/v1/stagingpipelines', { fqn: `stagpipe::${ns}::seed`, stagers: [{ uuid: job.uuid }] })).body;
    uuids.push(pkg.uuid, waiting.uuid, job.uuid, pipe.uuid, ...waiting.resources.map((r: Package['resources'][number]) => r.uuid));
    fqns.push(pkg.fqn, job.fqn, pipe.fqn);
    if (mine) {
      own.jobs.push(job.uuid);
      own.packages.push(pkg.uuid);
      own.pipelines.push(pipe.uuid);
    }
  }

  const gen = new Generator(prng(SEED), {
    tokens: { admin: token(admin), user: token(user) },
    uuids,
    own,
    fqns,
    digest: digestOf(data),
    length: data.length,
    bodyRoutes: bodyRoutes((await admin.get<OpenApiDocument>('/openapi.json')).body),
  });

  const statuses = new Map<number, number>();
  let compared = 0;
  let coveredByComparison = 0;
  let acceptedChanges = 0;
  let uncomparedRuns = 0;
  let failures = 0;
  const fail = (message: string) => {
    // The first few say enough; the rest would only flood the output.
    if (++failures <= 10) t.fail(message);
  };
  const started = Date.now();
  let baseline = await snapshot(admin);

  /** Sends one request and checks its answer; what an accepted change touched goes to `touched`. */
  const answered = new Map<FuzzRequest, number>();
  const timing = new Map<string, number>();
  const exchange = async (i: number, r: FuzzRequest, touched: Set<string>): Promise<boolean> => {
    const t0 = Date.now();
    const answer = await send(base, r);
    if (process.env['PLATFORM_FUZZ_DEBUG']) {
      const k = `${r.method} ${r.path.replace(/^\/v1/, '').replace(/\?.*$/, '').replace(/\/[^/]*[0-9a-f]{8}-[^/]*|\/[^/]{30,}/g, '/:x')} ${String(r.body ?? '').length > 10000 ? 'big' : ''}`;
      timing.set(k, (timing.get(k) ?? 0) + Date.now() - t0);
    }
    answered.set(r, answer.status);
    statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
    const what = `seed ${SEED} request ${i}: ${r.broken ? `(body ${r.broken.mode}${r.broken.later ? ', later' : ''}) ` : ''}${r.method} ${r.path.slice(0, 300)} ${JSON.stringify(r.headers).slice(0, 200)} ${String(r.body ?? r.raw ?? '').slice(0, 300)}`;
    // A broken body is answered (a reset is not: the client went) and, being broken, never accepted.
    if (r.broken && r.broken.mode !== 'reset' && answer.status === 0) fail(`${what}\n-> no answer before the connection closed`);
    if (r.broken && answer.status >= 200 && answer.status < 300 && MUTATING.has(r.method)) fail(`${what}\n-> a change was accepted with a broken body: ${answer.status} ${answer.text.slice(0, 300)}`);
    if (answer.status >= 500) fail(`${what}\n-> ${answer.status} ${answer.text.slice(0, 500)}`);
    // The stager API answers in its own words (stager-and-gateway-api.md: status codes, plain text).
    else if (answer.status >= 400 && r.method !== 'HEAD' && !/^(\/v1)?\/stager\//.test(r.path)) {
      let body: Partial<ApiErrorBody> = {};
      try {
        body = JSON.parse(answer.text) as ApiErrorBody;
      } catch {
        fail(`${what}\n-> ${answer.status} without an APIError body: ${answer.text.slice(0, 300)}`);
      }
      if (typeof body.request_id !== 'string' || body.request_id === '' || body.code !== answer.status) {
        fail(`${what}\n-> ${answer.status} APIError without request_id or code: ${answer.text.slice(0, 300)}`);
      }
    }
    if (r.valid) {
      // A lane may have deleted what the body refers to meanwhile: that is the one refusal expected.
      const gone = answer.status === 400 && /^(packages|stagers): no /.test((JSON.parse(answer.text) as ApiErrorBody).message);
      if (answer.status !== 200 && !gone) fail(`${what}\n-> a valid ${r.valid} was refused: ${answer.status} ${answer.text.slice(0, 300)}`);
      else if (answer.status === 200) ({ job: own.jobs, package: own.packages, pipeline: own.pipelines })[r.valid].push((JSON.parse(answer.text) as { uuid: string }).uuid);
    }
    // POST /packages/dependencies only answers a question.
    const changes = MUTATING.has(r.method) && !r.path.includes('/packages/dependencies');
    if (!changes || answer.status < 200 || answer.status >= 400) return true;
    acceptedChanges++;
    if (r.method === 'DELETE') for (const list of Object.values(own)) list.splice(0, list.length, ...list.filter((u) => !r.path.includes(u)));
    const keys = touchedBy(r, answer);
    for (const k of keys ?? []) touched.add(k);
    return keys !== undefined;
  };

  // Runs of RUN requests, LANES at a time within a run; the state is compared after each run.
  let sent = 0;
  for (let start = 0; start < TOTAL && Date.now() - started < BUDGET_MS; start += RUN) {
    const requests = Array.from({ length: Math.min(RUN, TOTAL - start) }, () => gen.next());
    sent += requests.length;
    const touched = new Set<string>();
    let known = true;
    let next = 0;
    await Promise.all(
      Array.from({ length: LANES }, async () => {
        while (next < requests.length) {
          const i = next++;
          if (!(await exchange(start + i, requests[i]!, touched))) known = false;
        }
      }),
    );
    const now = await snapshot(admin);
    if (known) {
      const changed = differences(baseline, now, touched);
      if (changed.length > 0) {
        const refused = requests
          .filter((r) => MUTATING.has(r.method))
          .map((r) => `${r.method} ${r.path.slice(0, 120)} ${String(r.body ?? '').slice(0, 120)} -> ${answered.get(r)}`);
        const ids = changed.flatMap((c) => [...c.matchAll(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g)].map((m) => m[0]));
        const naming = requests.filter((r) => ids.some((id) => r.path.includes(id) || String(r.body ?? '').includes(id)));
        t.log(`requests naming the changed: ${naming.map((r) => `${r.method} ${r.path} ${JSON.stringify(r.headers).slice(0, 400)} ${String(r.body ?? '').slice(0, 200)} -> ${answered.get(r)}`).join('\n')}`);
        fail(`seed ${SEED}, requests ${start}..${start + requests.length - 1}: refused requests changed\n${changed.join('\n')}\nthe run's changes:\n${refused.join('\n')}`);
      }
      compared++;
      coveredByComparison += requests.length;
    } else uncomparedRuns++;
    baseline = now;
    answered.clear();
  }
  agent.destroy();
  if (process.env['PLATFORM_FUZZ_DEBUG']) t.log([...timing].sort((a, b) => b[1] - a[1]).slice(0, 25).map(([k, v]) => `${v} ms ${k}`).join('\n'));

  const seconds = (Date.now() - started) / 1000;
  const histogram = [...statuses].sort(([a], [b]) => a - b).map(([s, n]) => `${s}:${n}`).join(' ');
  t.log(`seed ${SEED}: ${sent} of ${TOTAL} requests in ${seconds.toFixed(1)} s (budget ${BUDGET_MS / 1000} s); statuses ${histogram}`);
  t.log(`${compared} runs compared (${coveredByComparison} requests), ${uncomparedRuns} not (an accepted change of unknown reach); ${acceptedChanges} changes accepted`);
  // The comparison must cover most of the requests, or it proves little.
  t.true(coveredByComparison > sent * 0.6, `only ${coveredByComparison} of ${sent} requests were covered by a comparison`);
  t.false([...statuses.keys()].some((s) => s >= 500));
});

/** What a raw exchange saw: the answer's status and body, and whether the server closed the connection. */
interface RawAnswer {
  status: number;
  text: string;
  closed: boolean;
  ms: number;
}

/**
 * Opens a connection, sends `head`, then lets `feed` send (or withhold) the body; reads until the
 * server closes the connection or `withinMs` passes (then `closed` is false).
 */
function brokenExchange(base: string, head: string, feed: (socket: Socket) => (() => void) | void, withinMs: number): Promise<RawAnswer> {
  const { hostname, port } = new URL(base);
  const started = Date.now();
  return new Promise((resolve) => {
    const socket = connect(Number(port), hostname, () => {
      socket.write(head);
      stop = feed(socket) ?? undefined;
    });
    let stop: (() => void) | undefined;
    let text = '';
    const finish = (closed: boolean) => {
      clearTimeout(timer);
      stop?.();
      socket.destroy();
      const [statusLine = '', ...rest] = text.split('\r\n\r\n')[0]!.split('\r\n');
      void rest;
      resolve({ status: Number(statusLine.split(' ')[1] ?? 0) || 0, text: text.slice(text.indexOf('\r\n\r\n') + 4), closed, ms: Date.now() - started });
    };
    const timer = setTimeout(() => finish(false), withinMs);
    socket.on('data', (d: Buffer) => (text += d.toString('utf8')));
    socket.on('error', () => undefined);
    socket.on('close', () => finish(true));
  });
}

test.serial('fuzz: broken bodies on every route that reads one (malformed chunk, cut mid-body, stalled, never ending) are answered, closed, and change nothing', async (t) => {
  t.timeout(4 * 60_000);
  const admin = suite.api();
  const base = suite.controller().url;
  const token = admin.defaultHeaders['authorization']!;
  // Real targets, so that handlers get as far as reading the body.
  const ns = '/fuzz/broken';
  const pkg = await createPackage(admin, ns);
  const job = (await admin.post<Job>('/v1/jobs', { fqn: `job::${ns}::target`, packages: [{ uuid: pkg.uuid }], processes: { app: { start_command: 'true' } } })).body;
  const pipe = (await admin.post<StagingPipeline>('/v1/stagingpipelines', { fqn: `stagpipe::${ns}::target`, stagers: [{ uuid: job.uuid }] })).body;
  const resource = pkg.resources[0]!.uuid;
  const spec = (await (await fetch(`${base}/openapi.json`)).json()) as { paths: Record<string, Record<string, unknown>> };
  const byFolder: Record<string, string> = { jobs: job.uuid, packages: pkg.uuid, stagingpipelines: pipe.uuid };
  const routes = Object.entries(spec.paths).flatMap(([path, ops]) =>
    Object.keys(ops)
      .filter((m) => m === 'post' || m === 'put' || m === 'patch')
      .map((m) => ({
        method: m.toUpperCase(),
        path: path
          .replace('{uuid}', byFolder[path.split('/')[2] ?? ''] ?? '00000000-0000-4000-8000-000000000000')
          .replace('{resource}', resource)
          .replace('{instance}', '00000000-0000-4000-8000-000000000001')
          .replace('{name}', 'brokenbody')
          .replace('{token}', 'not-a-stager-token')
          .replace('//', '/x/'),
      })),
  );
  t.true(routes.length >= 30, `the OpenAPI document lists ${routes.length} routes with a body`);
  const before = await snapshot(admin);

  const head = (r: { method: string; path: string }, framing: string) =>
    `${r.method} ${r.path} HTTP/1.1\r\nHost: fuzz\r\nAuthorization: ${token}\r\nContent-Type: application/json\r\n${framing}\r\n`;
  const cases: { name: string; framing: string; feed: (socket: Socket) => (() => void) | void; bound: number; expect?: RegExp }[] = [
    {
      name: 'malformed chunk',
      framing: 'Transfer-Encoding: chunked\r\n',
      feed: (s) => void s.write('zz\r\n{}\r\n0\r\n\r\n'),
      bound: 10_000,
    },
    {
      name: 'stalled after 8 of 1000 bytes',
      framing: 'Content-Length: 1000\r\n',
      feed: (s) => void s.write('{"name":'),
      bound: BODY_IDLE_MS + 10_000,
    },
    {
      name: 'never ending (64 KiB chunks until closed)',
      framing: 'Transfer-Encoding: chunked\r\n',
      feed: (s) => {
        const chunk = `10000\r\n${'x'.repeat(0x10000)}\r\n`;
        let on = true;
        const pump = () => {
          while (on && s.writable && s.write(chunk));
          if (on && s.writable) s.once('drain', pump);
        };
        pump();
        return () => (on = false);
      },
      bound: REQUEST_MS + 15_000,
    },
  ];
  const failures: string[] = [];
  const statuses = new Map<string, number>();
  const work = routes.flatMap((r) => cases.map((c) => ({ r, c })));
  let next = 0;
  await Promise.all(
    Array.from({ length: 6 }, async () => {
      while (next < work.length) {
        const { r, c } = work[next++]!;
        const answer = await brokenExchange(base, head(r, c.framing), c.feed, c.bound);
        const what = `${c.name}: ${r.method} ${r.path} -> ${answer.status} after ${answer.ms} ms${answer.closed ? '' : ' (connection still open)'} ${answer.text.slice(0, 200)}`;
        statuses.set(`${c.name} ${answer.status}`, (statuses.get(`${c.name} ${answer.status}`) ?? 0) + 1);
        if (!answer.closed) failures.push(`${what}: not closed within ${c.bound} ms`);
        if (answer.status < 400 || answer.status >= 500) failures.push(`${what}: not a 4xx`);
        else if (!/\/stager\//.test(r.path)) {
          try {
            const body = JSON.parse(answer.text) as ApiErrorBody;
            if (body.code !== answer.status || !body.request_id) failures.push(`${what}: APIError without code or request_id`);
          } catch {
            failures.push(`${what}: not an APIError`);
          }
        }
      }
    }),
  );
  // A connection cut mid-body, on each route: nothing to read from it; the controller carries on.
  await Promise.all(
    routes.map((r) =>
      brokenExchange(base, head(r, 'Content-Length: 1000\r\n'), (s) => {
        s.write('{"fqn":"job::/fuzz/broken::cut"');
        s.resetAndDestroy();
      }, 5_000),
    ),
  );
  t.log([...statuses].sort().map(([k, n]) => `${k}: ${n}`).join('\n'));
  t.deepEqual(failures, []);

  // The exact requests of the findings: POST /v1/jobs with a malformed chunk is 400 and says why;
  // a stalled body 408; a never-ending JSON body 413; a never-ending upload 413.
  const jobsRoute = { method: 'POST', path: '/v1/jobs' };
  const malformed = await brokenExchange(base, head(jobsRoute, 'Transfer-Encoding: chunked\r\n'), cases[0]!.feed, 10_000);
  t.is(malformed.status, 400);
  t.regex(malformed.text, /malformed HTTP request: .*chunk/i);
  const stalled = await brokenExchange(base, head(jobsRoute, 'Content-Length: 1000\r\n'), cases[1]!.feed, 10_000);
  t.is(stalled.status, 408);
  t.regex(stalled.text, /stalled/);
  t.is((await brokenExchange(base, head(jobsRoute, 'Transfer-Encoding: chunked\r\n'), cases[2]!.feed, 20_000)).status, 413);
  const upload = await brokenExchange(
    base,
    `PUT /v1/packages/${pkg.uuid}/resources/${resource} HTTP/1.1\r\nHost: fuzz\r\nAuthorization: ${token}\r\nContent-Type: application/octet-stream\r\nTransfer-Encoding: chunked\r\n\r\n`,
    cases[2]!.feed,
    REQUEST_MS + 15_000,
  );
  // The package declared its archive's size: the upload ends once it passes it (400), or else at
  // the largest package (413) or the request's time (408).
  t.true([400, 408, 413].includes(upload.status), `a never-ending upload: ${upload.status} ${upload.text.slice(0, 200)}`);
  t.true(upload.closed);

  // No handler still waits for a body (the scrape counts itself).
  await eventually(async () => metric(await (await admin.fetch('/metrics')).text(), 'platform_http_requests_in_flight', 'listener="api"') === 1, {
    what: 'every handler to have ended',
    timeoutMs: REQUEST_MS + 15_000,
  });

  // Nothing changed, and the controller still answers.
  const after = await snapshot(admin);
  t.deepEqual(differences(before, after, new Set()), []);
  t.is((await admin.get(`/v1/jobs/${job.uuid}`)).status, 200);
});

/** Runs `cases` `lanes` at a time. */
async function inLanes<T>(cases: readonly T[], lanes: number, run: (c: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: lanes }, async () => {
      while (next < cases.length) await run(cases[next++]!);
    }),
  );
}

/** A metric's value in a Prometheus text page, or undefined when absent. */
function metric(page: string, name: string, labels: string): number | undefined {
  const line = page.split('\n').find((l) => l.startsWith(`${name}{${labels}} `));
  return line === undefined ? undefined : Number(line.slice(line.lastIndexOf(' ') + 1));
}

test.serial('fuzz: bodies broken, reset, stalled or never ending through the embedded router, on every route of an app: answered, closed, and no request left hanging at the app', async (t) => {
  t.timeout(5 * 60_000);
  const cluster = await startCluster(t, [{}], { args: ['--domain', 'bodies.test'], env: { PLATFORM_HTTP_BODY_IDLE_TIMEOUT_MS: String(BODY_IDLE_MS), PLATFORM_HTTP_REQUEST_TIMEOUT_MS: String(REQUEST_MS) } });
  const api = cluster.api;
  const pkg = await uploadPackage(api, '/sandbox/admin', routerAppArchive());
  const host = `${unique('app')}.bodies.test`;
  const deployed = await api.post<Job>('/jobs', {
    fqn: `job::/sandbox/admin::${unique('rt')}`,
    packages: [{ uuid: pkg.uuid }],
    processes: { app: { start_command: 'node /app/server.js', start_command_timeout: 30 } },
    ports: [{ number: 0, optional: false, routes: [{ type: 'http', endpoint: host }] }],
    resources: { memory: 64 * 1024 * 1024, disk: 64 * 1024 * 1024 },
    state: 'started',
  });
  t.is(deployed.status, 200, deployed.text);
  await runningInstances(api, deployed.body.uuid, 1, 90_000);
  // The routes from the controller's route table, not from a list here.
  const table = await eventually(
    async () => {
      const map = (await api.get<Record<string, string[]>>('/jobs/routes')).body;
      return Object.keys(map).some((e) => e.startsWith(host)) ? map : undefined;
    },
    { what: 'the route to be in the table', timeoutMs: 30_000 },
  );
  const [routerHost, routerPort] = splitAddress(cluster.controller.routerAddress);
  const via = (path: string, method = 'GET') =>
    new Promise<{ status: number; text: string }>((resolve, reject) => {
      const req = request({ host: routerHost, port: routerPort, path, method, headers: { host }, agent: false }, (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (d: string) => (text += d));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
      });
      req.on('error', reject);
      req.end();
    });
  await eventually(async () => (await via('/reading')).status === 200, { what: 'the router to serve the app', timeoutMs: 30_000 });
  const endpoints = Object.keys(table).filter((e) => e.startsWith(host));
  // Every route of the app: one that streams the body back (/echo), and one that answers without reading it (/).
  const cases = endpoints.flatMap((endpoint) =>
    ['/echo', '/'].flatMap((path) => ['POST', 'PUT'].flatMap((method) => BREAK_MODES.map((mode) => ({ endpoint, path: `${endpoint.slice(host.length)}${path}`.replace('//', '/'), method, mode })))),
  );
  const problems: string[] = [];
  const statuses = new Map<string, number>();
  await inLanes(cases, 8, async ({ path, method, mode }) => {
    const what = `${mode} ${method} ${host}${path}`;
    let a;
    try {
      a = await sendBroken(routerHost, routerPort, { method, path, headers: { host, 'content-type': 'application/octet-stream' }, mode, first: 'x'.repeat(100) }, REQUEST_MS + 15_000);
    } catch (err) {
      problems.push((err as Error).message);
      return;
    }
    statuses.set(`${mode}:${a.status}`, (statuses.get(`${mode}:${a.status}`) ?? 0) + 1);
    if (a.status >= 500) problems.push(`${what}: ${a.status} ${a.body.slice(0, 300)}`);
    // The app answers / without reading the body; /echo is answered by the router when the body fails before the app answers.
    if (path.endsWith('/echo') && mode !== 'reset' && ![200, 400, 408].includes(a.status)) problems.push(`${what}: ${a.status} ${a.body.slice(0, 300)}`);
  });
  t.deepEqual(problems, []);
  t.log(`${cases.length} broken bodies through the router; statuses ${[...statuses].sort().map(([k, n]) => `${k}:${n}`).join(' ')}`);
  // The app has no request left half read, and the router none in progress.
  let reading: string[] = [];
  await eventually(
    async () => {
      const r = await via('/reading');
      reading = r.status === 200 ? (JSON.parse(r.text) as { reading: string[] }).reading : [r.text];
      return reading.length === 0;
    },
    { what: 'the app to have no request left half read', timeoutMs: REQUEST_MS + 15_000 },
  ).catch((err: Error) => {
    throw new Error(`${err.message}: ${reading.join(', ')}`);
  });
  await eventually(
    async () => {
      const page = await (await api.fetch('/metrics')).text();
      const active = page.split('\n').filter((l) => l.startsWith('platform_router_active_connections{')).map((l) => Number(l.slice(l.lastIndexOf(' ') + 1)));
      return active.length > 0 && active.every((n) => n === 0);
    },
    { what: 'the router to have no request in progress', timeoutMs: REQUEST_MS + 15_000 },
  );
  t.pass();
});
