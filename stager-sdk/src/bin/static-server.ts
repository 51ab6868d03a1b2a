#!/usr/bin/env node
/**
 * The static file server of static-site packages: serves a directory (argument,
 * default `.`) on $PORT (default 8080) at 0.0.0.0. GET and HEAD only; `/`
 * and directories serve index.html or index.htm; paths never leave the root.
 */
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { createServer } from 'node:http';
import { extname, join, normalize, resolve, sep } from 'node:path';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8', '.htm': 'text/html; charset=utf-8', '.css': 'text/css; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8', '.mjs': 'text/javascript; charset=utf-8', '.json': 'application/json',
  '.svg': 'image/svg+xml', '.png': 'image/png', '.jpg': 'image/jpeg', '.jpeg': 'image/jpeg', '.gif': 'image/gif',
  '.ico': 'image/x-icon', '.txt': 'text/plain; charset=utf-8', '.wasm': 'application/wasm', '.webp': 'image/webp',
};

const root = resolve(process.argv[2] ?? '.');
const port = Number(process.env['PORT'] ?? 8080);

async function find(path: string): Promise<string | undefined> {
  const s = await stat(path).catch(() => undefined);
  if (s?.isFile()) return path;
  if (s?.isDirectory()) {
    for (const index of ['index.html', 'index.htm']) {
      const f = join(path, index);
      if ((await stat(f).catch(() => undefined))?.isFile()) return f;
    }
  }
  return undefined;
}

const server = createServer((req, res) => {
  void (async () => {
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { Allow: 'GET, HEAD' }).end();
      return;
    }
    let pathname: string;
    try {
      pathname = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
    } catch {
      res.writeHead(400).end();
      return;
    }
    const target = normalize(join(root, pathname));
    const file = target === root || target.startsWith(root + sep) ? await find(target) : undefined;
    if (!file) {
      res.writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8' }).end('not found\n');
      return;
    }
    const { size } = await stat(file);
    res.writeHead(200, { 'Content-Type': TYPES[extname(file).toLowerCase()] ?? 'application/octet-stream', 'Content-Length': size });
    if (req.method === 'HEAD') res.end();
    else createReadStream(file).pipe(res);
  })().catch(() => res.writeHead(500).end());
});
server.listen(port, '0.0.0.0', () => process.stdout.write(`static-server: serving ${root} on port ${port}\n`));
const stop = () => server.close(() => process.exit(0));
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
