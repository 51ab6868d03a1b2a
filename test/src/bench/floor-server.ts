/**
 * The "floor" of the API benchmark: the least a Node.js HTTP server can do for
 * the same requests, so the controller's figures have something to be compared
 * with on the same machine. Run as its own process by `api.ts`:
 *
 *   node dist/bench/floor-server.js < job.json
 *
 * It reads one job (JSON) from stdin, keeps it in a Map under its `uuid`, then
 * listens on 127.0.0.1 (a free port) and prints `{"port":N}` on stdout.
 *
 *   GET  /jobs/<uuid>  the stored job as JSON (serialised per request, as the controller does), 404 otherwise
 *   POST /jobs         parses the JSON body, stores it under a random uuid, answers 200 with it as JSON
 *
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

function send(res: ServerResponse, status: number, type: string, body: string): void {
  res.writeHead(status, { 'content-type': type, 'content-length': Buffer.byteLength(body) });
  res.end(body);
}

const jobs = new Map<string, Record<string, unknown>>();

function handle(req: IncomingMessage, res: ServerResponse): void {
  const url = req.url ?? '/';
  if (req.method === 'GET' && url.startsWith('/jobs/')) {
    const job = jobs.get(url.slice('/jobs/'.length));
    if (job === undefined) send(res, 404, 'application/json', '{"code":"NotFound"}');
    else send(res, 200, JOB_MEDIA, JSON.stringify(job));
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
      const job = { ...(parsed as Record<string, unknown>), uuid };
      jobs.set(uuid, job);
      send(res, 200, JOBS_MEDIA, JSON.stringify(job));
    });
    return;
  }
  send(res, 404, 'application/json', '{"code":"NotFound"}');
}

const seed = JSON.parse(await readStdin()) as Record<string, unknown>;
if (typeof seed['uuid'] !== 'string') {
  process.stderr.write('floor-server: the job on stdin has no "uuid"\n');
  process.exit(2);
}
jobs.set(seed['uuid'], seed);

const server = createServer({ keepAliveTimeout: 60_000 }, handle);
server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  const port = typeof address === 'object' && address !== null ? address.port : 0;
  process.stdout.write(`${JSON.stringify({ port })}\n`);
});
for (const signal of ['SIGTERM', 'SIGINT'] as const) process.on(signal, () => process.exit(0));
