/**
 * The "floor" of the API benchmark: the least a Node.js HTTP server can do for
 * the same requests, so the controller's figures have something to be compared
 * with on the same machine. Run as its own process by `api.ts`:
 *
 *   node dist/bench/floor-server.js < job.json
 *
 * It reads `{ job, minimumClientVersion }` (JSON) from stdin, keeps the job in a Map under its
 * `uuid`, then listens on 127.0.0.1 (a free port) and prints `{"port":N}` on stdout.
 *
 *   GET  /jobs/<uuid>  the stored job as JSON (serialised per request, as the controller does), 404 otherwise
 *   POST /jobs         parses the JSON body, stores it under a random uuid, answers 200 with it as JSON,
 *                      completed from the seed job (the fields the controller adds, with their defaults),
 *                      so that the answer is as long as the controller's
 *
 * Its answers carry the headers the controller's do, with values of the same length (X-Request-Id,
 * Minimum-Client-Version, Vary, ETag on a GET, Location on a POST), so that both servers write
 * the same bytes for a request: the comparison is of the work behind the answer, not of its size.
 * Nothing else: no routing library, validation, logging, metrics or storage.
 */
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';

const JOB_MEDIA = 'application/vnd.platform.job;version=1';
const JOBS_MEDIA = 'application/vnd.platform.jobs;version=1';

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin as AsyncIterable<Buffer>) chunks.push(chunk);
  return Buffer.concat(chunks).toString('utf8');
}

/** Request ids shaped like the controller's (util/ids.ts): 20 characters, a fixed prefix and a counter. */
const REQUEST_ID_PREFIX = 'floor00000';
let requestCounter = 0;

function send(res: ServerResponse, status: number, type: string, body: string, extra: Record<string, string> = {}): void {
  res.writeHead(status, {
    'content-type': type,
    'content-length': Buffer.byteLength(body),
    'x-request-id': REQUEST_ID_PREFIX + (requestCounter++).toString(36).padStart(10, '0'),
    'minimum-client-version': minimumClientVersion,
    vary: 'Accept',
    ...extra,
  });
  res.end(body);
}

const jobs = new Map<string, Record<string, unknown>>();

function handle(req: IncomingMessage, res: ServerResponse): void {
  const url = req.url ?? '/';
  if (req.method === 'GET' && url.startsWith('/jobs/')) {
    const job = jobs.get(url.slice('/jobs/'.length));
    if (job === undefined) send(res, 404, 'application/json', '{"code":"NotFound"}');
    else send(res, 200, JOB_MEDIA, JSON.stringify(job), { etag: `"${String(job['version_id'])}"` });
    return;
  }
  if (req.method === 'POST' && url === '/jobs') {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      let parsed: unknown;
      try {
        parsed = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      } catch {
        send(res, 400, 'application/json', '{"code":"InvalidRequest"}');
        return;
      }
      if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
        send(res, 400, 'application/json', '{"code":"InvalidRequest"}');
        return;
      }
      const uuid = randomUUID();
      const body = parsed as Record<string, unknown>;
      const fqn = typeof body['fqn'] === 'string' ? body['fqn'] : '';
      const job = { ...seed, ...body, uuid, name: fqn.slice(fqn.lastIndexOf(':') + 1), processes: seed['processes'] };
      jobs.set(uuid, job);
      send(res, 200, JOBS_MEDIA, JSON.stringify(job), { location: `http://${req.headers.host ?? ''}/v1/jobs/${uuid}` });
    });
    return;
  }
  send(res, 404, 'application/json', '{"code":"NotFound"}');
}

const input = JSON.parse(await readStdin()) as { job?: Record<string, unknown>; minimumClientVersion?: unknown };
const seed = input.job ?? {};
if (typeof seed['uuid'] !== 'string' || typeof input.minimumClientVersion !== 'string') {
  process.stderr.write('floor-server: stdin needs {"job": {"uuid": ...}, "minimumClientVersion": "..."}\n');
  process.exit(2);
}
const minimumClientVersion = input.minimumClientVersion;
jobs.set(seed['uuid'], seed);

const server = createServer({ keepAliveTimeout: 60_000 }, handle);
server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  const port = typeof address === 'object' && address !== null ? address.port : 0;
  process.stdout.write(`${JSON.stringify({ port })}\n`);
});
for (const signal of ['SIGTERM', 'SIGINT'] as const) process.on(signal, () => process.exit(0));
