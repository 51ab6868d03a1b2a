/**
 * Small applications for tests, packed the way users upload them: a gzip tar whose paths are
 * where the files land in the instance (`app/server.js` -> `/app/server.js`).
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { Package } from '@platform/controller';
import { digestOf, unique } from './fixtures.js';
import type { ApiClient } from './http.js';
import { rawPut } from './upload.js';

/** A gzip tar of `files` (path -> content), made with the system's tar. */
export function tarGz(files: Record<string, string>, extraTarArgs: string[] = []): Buffer {
  const dir = mkdtempSync(join(tmpdir(), 'platform-app-'));
  try {
    for (const [path, content] of Object.entries(files)) {
      mkdirSync(dirname(join(dir, path)), { recursive: true });
      writeFileSync(join(dir, path), content, { mode: 0o755 });
    }
    return execFileSync('tar', ['-C', dir, '-czf', '-', ...extraTarArgs, ...Object.keys(files).map((p) => p.split('/')[0]!).filter((v, i, a) => a.indexOf(v) === i)]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Creates a package with `data` as its archive and uploads it; answers the package (ready). */
export async function uploadPackage(api: ApiClient, namespace: string, data: Buffer, extra: Record<string, unknown> = {}): Promise<Package> {
  const r = await api.post<Package>('/packages', {
    fqn: `package::${namespace}::${unique('p')}`,
    resources: [{ length: data.length, digest: digestOf(data) }],
    ...extra,
  });
  if (r.status !== 200) throw new Error(`package create failed: ${r.text}`);
  const up = await rawPut(`${api.base}/packages/resources/${r.body.uuid}`, [data], data.length, api.defaultHeaders);
  if (up.status !== 200) throw new Error(`upload failed: ${up.body}`);
  return (await api.get<Package>(`/packages/${r.body.uuid}`)).body;
}

/**
 * An HTTP server on $PORT that answers its pid and instance, logs a line per request, says
 * "graceful" on SIGTERM before it exits, and crashes on /crash.
 */
export const HTTP_APP = `
const http = require('node:http');
const port = Number(process.env.PORT);
const server = http.createServer((req, res) => {
  console.log('request ' + req.url);
  if (req.url === '/crash') { res.end('bye'); setTimeout(() => process.exit(7), 10); return; }
  res.setHeader('content-type', 'application/json');
  res.end(JSON.stringify({ pid: process.pid, instance: process.env.PLATFORM_INSTANCE_UUID, job: process.env.PLATFORM_JOB_UUID }));
});
server.listen(port, () => console.log('listening on ' + port));
process.on('SIGTERM', () => { console.log('graceful stop'); server.close(() => process.exit(0)); });
`;

/** The package of HTTP_APP. */
export function httpAppArchive(): Buffer {
  return tarGz({ 'app/server.js': HTTP_APP });
}

/** A job body that runs HTTP_APP with one required port chosen by the agent. */
export function httpAppJob(fqn: string, pkg: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    fqn,
    num_instances: 1,
    packages: [{ uuid: pkg }],
    processes: { app: { start_command: 'node /app/server.js', start_command_timeout: 30, stop_timeout: 5 } },
    ports: [{ number: 0, optional: false }],
    resources: { memory: 64 * 1024 * 1024, disk: 64 * 1024 * 1024 },
    tags: { app: '' },
    ...extra,
  };
}

/** A job body that runs `command` (from the files of `pkg`) as its one process `app`, without ports. */
export function commandJob(fqn: string, pkg: string, command: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { fqn, num_instances: 1, packages: [{ uuid: pkg }], processes: { app: { start_command: command } }, ...extra };
}
