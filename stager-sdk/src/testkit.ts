/**
 * A test kit for stager authors: `TestCoordinator` implements the stager API
 * in-process on 127.0.0.1 (a port of its own), with a package given as files,
 * so that a stager can be run in a unit test and its outcome, archive and
 * metadata checked. It follows the controller's rules (status codes, the
 * Content-Length and sha256 checks), not its storage.
 *
 *   const kit = await TestCoordinator.start({ files: { 'index.js': '...' } });
 *   const result = await kit.run(myStager);
 *   t.is(result.outcome, 'done'); t.is(kit.meta.environment.START_COMMAND, 'node index.js');
 *   await kit.close();
 */
import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import * as tar from 'tar';
import { StagerClient, type PackageMeta, type Requirement } from './client.js';
import { STAGER_STATUS } from './errors.js';
import { executeStager, type Stager, type StagerResult } from './run.js';

export interface TestCoordinatorOptions {
  /** The package as files: path (relative, or absolute like `/app/x`) -> content. */
  files?: Record<string, string | Buffer>;
  /** Or the package as a gzip tar. */
  archive?: Buffer;
  meta?: Partial<PackageMeta>;
  /** File mode of the files given (default 0o644; `.sh` files get 0o755). */
  mode?: (path: string) => number;
}

/** Packs `files` into a gzip tar in memory. */
export async function archiveOf(files: Record<string, string | Buffer>, mode?: (path: string) => number): Promise<Buffer> {
  const dir = await mkdtemp(join(tmpdir(), 'stager-kit-'));
  try {
    const names: string[] = [];
    for (const [path, content] of Object.entries(files)) {
      const rel = path.replace(/^\/+/, '');
      await mkdir(dirname(join(dir, rel)), { recursive: true });
      await writeFile(join(dir, rel), content, { mode: mode?.(rel) ?? (rel.endsWith('.sh') ? 0o755 : 0o644) });
      names.push(rel);
    }
    const chunks: Buffer[] = [];
    const stream = tar.c({ gzip: true, cwd: dir, portable: true, prefix: Object.keys(files).some((p) => p.startsWith('/')) ? '/' : '' }, names.sort());
    for await (const c of stream as unknown as AsyncIterable<Buffer>) chunks.push(c);
    return Buffer.concat(chunks);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** The files of a gzip tar: path with a leading `/` -> content (directories left out). */
export async function filesOf(archive: Buffer): Promise<Map<string, Buffer>> {
  const out = new Map<string, Buffer>();
  const parser = new tar.Parser({
    onReadEntry: (entry) => {
      const chunks: Buffer[] = [];
      entry.on('data', (c: Buffer) => chunks.push(c));
      entry.on('end', () => {
        if (entry.type === 'File') out.set(`/${entry.path.replace(/^\/+/, '')}`, Buffer.concat(chunks));
      });
    },
  });
  await new Promise<void>((resolve, reject) => {
    parser.on('end', resolve);
    parser.on('error', reject);
    parser.end(archive);
  });
  return out;
}

function send(res: ServerResponse, status: number, body: string | Buffer, type = 'text/plain; charset=utf-8'): void {
  res.writeHead(status, { 'Content-Type': type, 'Content-Length': Buffer.byteLength(body) });
  res.end(body);
}

/** A refusal of the kit's stager API: answered with `status` and the message. */
class KitRefusal extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of req as AsyncIterable<Buffer>) chunks.push(c);
  return Buffer.concat(chunks);
}

export class TestCoordinator {
  /** The package archive now (the last upload, or the original). */
  archive: Buffer;
  readonly meta: PackageMeta;
  outcome: 'done' | 'failed' | 'relaunch' | undefined;
  failureMessage = '';
  uploads = 0;
  snapshots: (string | undefined)[] = [];
  /** Lines the stager logged through the kit's `run`. */
  readonly log: string[] = [];

  private constructor(
    readonly server: Server,
    readonly url: string,
    archive: Buffer,
    meta: PackageMeta,
  ) {
    this.archive = archive;
    this.meta = meta;
  }

  static async start(options: TestCoordinatorOptions = {}): Promise<TestCoordinator> {
    const archive = options.archive ?? (await archiveOf(options.files ?? {}, options.mode));
    const meta: PackageMeta = {
      dependencies: [...(options.meta?.dependencies ?? [])],
      provides: [...(options.meta?.provides ?? [])],
      environment: { ...(options.meta?.environment ?? {}) },
      templates: [...(options.meta?.templates ?? [])],
    };
    const holder: { kit?: TestCoordinator } = {};
    const server = createServer((req, res) => {
      holder.kit!.#handle(req, res).catch((err: unknown) => send(res, STAGER_STATUS.OTHER, err instanceof Error ? err.message : String(err)));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    holder.kit = new TestCoordinator(server, `http://127.0.0.1:${port}/stager/testkit`, archive, meta);
    return holder.kit;
  }

  client(): StagerClient {
    return new StagerClient(this.url);
  }

  /** Runs `stager` once against this coordinator (a relaunch is one more `run`). */
  async run(stager: Stager): Promise<StagerResult> {
    if (this.outcome === 'relaunch') this.outcome = undefined;
    return executeStager(stager, this.client(), (line) => this.log.push(line));
  }

  /** The files of the current archive. */
  files(): Promise<Map<string, Buffer>> {
    return filesOf(this.archive);
  }

  hasDependency(r: Requirement): boolean {
    return this.meta.dependencies.some((d) => d.type === r.type && d.name === r.name);
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  async #handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://kit');
    const prefix = '/stager/testkit';
    if (!url.pathname.startsWith(prefix)) return send(res, 404, 'no such stager run');
    const path = url.pathname.slice(prefix.length);
    const method = req.method ?? 'GET';
    const current = () => {
      if (this.outcome) throw new KitRefusal(STAGER_STATUS.UUID_NOT_CURRENT, `this stager run has reported ${this.outcome} already`);
    };
    try {
      if (method === 'GET' && path === '/data') return send(res, STAGER_STATUS.OK, this.archive, 'application/octet-stream');
      if (method === 'GET' && path === '/meta') return send(res, STAGER_STATUS.OK, JSON.stringify(this.meta), 'application/json');
      if (method === 'POST' && path === '/data') {
        current();
        const sha = url.searchParams.get('sha256');
        if (!sha) return send(res, STAGER_STATUS.OTHER, 'query parameter sha256 is required');
        if (req.headers['content-length'] === undefined) return send(res, STAGER_STATUS.OTHER, 'a Content-Length must be provided');
        const body = await readBody(req);
        const actual = createHash('sha256').update(body).digest('hex');
        if (actual !== sha.toLowerCase()) return send(res, STAGER_STATUS.OTHER, `digest mismatch: declared sha256:${sha}, received sha256:${actual}`);
        this.archive = body;
        this.uploads++;
        return send(res, STAGER_STATUS.OK, 'OK');
      }
      const form = new URLSearchParams(url.search);
      for (const [k, v] of new URLSearchParams((await readBody(req)).toString('utf8'))) form.set(k, v);
      if ((method === 'PUT' || method === 'POST') && path === '/meta') {
        current();
        this.#changeMeta(form);
        return send(res, STAGER_STATUS.OK, 'OK');
      }
      if (method === 'POST' && path === '/snapshot') {
        current();
        this.snapshots.push(form.get('directory') || undefined);
        return send(res, STAGER_STATUS.OK, 'OK');
      }
      if (method === 'POST' && (path === '/done' || path === '/failed' || path === '/relaunch')) {
        current();
        this.outcome = path.slice(1) as 'done' | 'failed' | 'relaunch';
        if (this.outcome === 'failed') this.failureMessage = form.get('message') ?? '';
        return send(res, STAGER_STATUS.OK, 'OK');
      }
      return send(res, 404, `no endpoint ${method} ${path}`);
    } catch (err) {
      if (err instanceof KitRefusal) return send(res, err.status, err.message);
      throw err;
    }
  }

  #changeMeta(form: URLSearchParams): void {
    const resource = form.get('resource') ?? '';
    const action = form.get('action');
    if (!['environment', 'provides', 'dependencies', 'templates'].includes(resource)) throw new KitRefusal(STAGER_STATUS.RESOURCE_NOT_SUPPORTED, `resource "${resource}" is not supported`);
    if (action !== 'add' && action !== 'remove') throw new KitRefusal(STAGER_STATUS.OTHER, `action "${action ?? ''}" is not supported`);
    if (resource === 'environment') {
      const key = form.get('key');
      if (!key) throw new KitRefusal(STAGER_STATUS.OTHER, 'form field "key" is required');
      if (action === 'add') this.meta.environment[key] = form.get('value') ?? '';
      else delete this.meta.environment[key];
    } else if (resource === 'templates') {
      const path = form.get('path');
      if (!path) throw new KitRefusal(STAGER_STATUS.OTHER, 'form field "path" is required');
      this.meta.templates = this.meta.templates.filter((t) => t.path !== path);
      if (action === 'add') this.meta.templates.push({ path, left_delimiter: form.get('left_delimiter') || '{{', right_delimiter: form.get('right_delimiter') || '}}' });
    } else {
      const type = form.get('type') as Requirement['type'] | null;
      const name = form.get('name');
      if (!type || !['os', 'runtime', 'file', 'package'].includes(type) || !name) throw new KitRefusal(STAGER_STATUS.OTHER, 'form fields "type" and "name" are required');
      const list = resource === 'dependencies' ? this.meta.dependencies : this.meta.provides;
      const at = list.findIndex((r) => r.type === type && r.name === name);
      if (action === 'add' && at < 0) list.push({ type, name });
      if (action === 'remove' && at >= 0) list.splice(at, 1);
    }
  }
}

