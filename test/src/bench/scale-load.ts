/**
 * The scale benchmark's HTTP clients, in a process of their own (forked by scale.ts with an IPC
 * channel), so that the time they measure is never the benchmark's own event loop, busy with a
 * thousand simulated agents:
 *
 *   probe  GET /jobs/{uuid} and PUT /jobs/{uuid} (a tag changed) in two loops, one request at a
 *          time each, over the given jobs, until the parent sends "stop"; answers every latency.
 *   post   POST /jobs of `count` jobs (every body with its own FQN) over `connections`
 *          keep-alive connections (autocannon); answers requests/s and the non-2xx answers.
 *
 * Protocol: the parent sends one LoadTask, then (probe) "stop"; the child sends one LoadReport.
 */
import autocannon, { type Request } from 'autocannon';

export type LoadTask =
  | { mode: 'probe'; url: string; headers: Record<string, string>; jobs: string[] }
  | { mode: 'post'; url: string; headers: Record<string, string>; count: number; connections: number; body: Record<string, unknown>; fqnPrefix: string };

export type LoadReport =
  | { mode: 'probe'; get: number[]; put: number[]; errors: string[] }
  | { mode: 'post'; seconds: number; requests: number; non2xx: number; errors: number; rps: number };

async function probe(task: Extract<LoadTask, { mode: 'probe' }>, stopped: () => boolean): Promise<LoadReport> {
  const get: number[] = [];
  const put: number[] = [];
  const errors: string[] = [];
  const headers = { ...task.headers, accept: 'application/json' };
  const timed = async (method: string, path: string, body?: unknown): Promise<{ ms: number; status: number; json: unknown }> => {
    const t0 = performance.now();
    const res = await fetch(task.url + path, {
      method,
      headers: body === undefined ? headers : { ...headers, 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await res.text();
    const ms = performance.now() - t0;
    return { ms, status: res.status, json: text.startsWith('{') ? JSON.parse(text) : text };
  };
  const gets = (async () => {
    for (let n = 0; !stopped(); n++) {
      const r = await timed('GET', `/jobs/${task.jobs[n % task.jobs.length]}`);
      if (r.status === 200) get.push(r.ms);
      else if (errors.length < 10) errors.push(`GET ${r.status}`);
    }
  })();
  const puts = (async () => {
    for (let n = 0; !stopped(); n++) {
      const uuid = task.jobs[n % task.jobs.length]!;
      // The current job, read outside the measured request (a client edits what it read).
      const current = (await timed('GET', `/jobs/${uuid}`)).json as Record<string, unknown>;
      const r = await timed('PUT', `/jobs/${uuid}`, { ...current, tags: { ...(current['tags'] as object), probe: String(n) } });
      if (r.status === 200) put.push(r.ms);
      else if (errors.length < 10) errors.push(`PUT ${r.status} ${JSON.stringify(r.json).slice(0, 200)}`);
    }
  })();
  await Promise.all([gets, puts]);
  return { mode: 'probe', get, put, errors };
}

function post(task: Extract<LoadTask, { mode: 'post' }>): Promise<LoadReport> {
  let n = 0;
  const t0 = performance.now();
  return new Promise((resolve, reject) => {
    autocannon(
      {
        url: `${task.url}/jobs`,
        method: 'POST',
        connections: task.connections,
        amount: task.count,
        pipelining: 1,
        timeout: 60,
        headers: { ...task.headers, 'content-type': 'application/json', accept: 'application/json' },
        requests: [{ setupRequest: (req: Request) => ({ ...req, body: JSON.stringify({ ...task.body, fqn: `${task.fqnPrefix}${++n}` }) }) }],
      },
      (err: unknown, r: autocannon.Result) => {
        if (err) return reject(err instanceof Error ? err : new Error(String(err)));
        const seconds = (performance.now() - t0) / 1000;
        resolve({ mode: 'post', seconds, requests: r.requests.total, non2xx: r.non2xx, errors: r.errors, rps: r.requests.total / seconds });
      },
    );
  });
}

if (process.send) {
  let stop = false;
  process.on('message', (m: LoadTask | 'stop') => {
    if (m === 'stop') {
      stop = true;
      return;
    }
    const run = m.mode === 'probe' ? probe(m, () => stop) : post(m);
    run.then(
      (report) => process.send!(report, () => process.disconnect()),
      (err: unknown) => {
        process.stderr.write(`scale-load: ${(err as Error).stack ?? String(err)}\n`);
        process.exit(1);
      },
    );
  });
}
