/**
 * The stager API (spec: Stager endpoints), served on the API listener under
 * `/stager/<token>`: the token in STAGER_URL is the stager's credential, so
 * these paths skip bearer authentication (auth/authenticate.ts). Errors are
 * the stager status codes of `stager-status.ts`, never APIError bodies.
 */
import { createReadStream } from 'node:fs';
import type { Readable } from 'node:stream';
import type { ApiContext, Endpoint, Method } from '../../api/endpoint.js';
import { contentLengthOf } from '../../api/body.js';
import { parseDigest } from '../../model/digest.js';
import type { PackageService } from '../../packages/package-service.js';
import { REQUIREMENT_TYPES, templatePathProblem, type Requirement } from '../../model/package.js';
import { mergeSnapshot } from './snapshot.js';
import { StagingCoordinator } from './staging-coordinator.js';
import type { StagerSession, StagingMeta } from './stager-session.js';
import { StagerApiError, toStagerStatus } from './stager-status.js';

const MAX_FORM_BYTES = 256 * 1024;

/** The path prefix that bypasses bearer authentication. */
export const STAGER_PATH_PREFIX = '/stager/';

function sendText(ctx: ApiContext, status: number, text: string): void {
  ctx.status = status;
  ctx.set('Content-Type', 'text/plain; charset=utf-8');
  ctx.body = text;
}

async function readText(ctx: ApiContext, limit: number): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of ctx.req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > limit) throw new StagerApiError('other', `the request body is over the limit of ${limit} bytes`);
    chunks.push(chunk);
  }
  return Buffer.concat(chunks, size).toString('utf8');
}

/** Form fields from the query and an urlencoded body (older clients send either). */
async function readForm(ctx: ApiContext): Promise<URLSearchParams> {
  const form = new URLSearchParams(ctx.querystring);
  const body = await readText(ctx, MAX_FORM_BYTES);
  const type = ctx.get('Content-Type');
  if (body.trim() !== '') {
    if (type.startsWith('application/json')) {
      let parsed: unknown;
      try {
        parsed = JSON.parse(body);
      } catch {
        throw new StagerApiError('other', 'the body is not valid JSON');
      }
      if (parsed && typeof parsed === 'object') {
        for (const [k, v] of Object.entries(parsed)) if (typeof v === 'string') form.set(k, v);
      }
    } else {
      for (const [k, v] of new URLSearchParams(body)) form.set(k, v);
    }
  }
  return form;
}

function required(form: URLSearchParams, name: string, why: string): string {
  const v = form.get(name);
  if (v === null || v === '') throw new StagerApiError('other', `form field "${name}" is required ${why}`);
  return v;
}

function isRequirementType(type: string): type is Requirement['type'] {
  return (REQUIREMENT_TYPES as readonly string[]).includes(type);
}

/** Applies one PUT /meta change to the pipeline's working metadata. */
export function applyMetaChange(meta: StagingMeta, form: URLSearchParams): void {
  const resource = form.get('resource') ?? '';
  const action = form.get('action') ?? '';
  if (!['environment', 'provides', 'dependencies', 'templates'].includes(resource)) {
    throw new StagerApiError(
      'unsupported_resource',
      `resource "${resource}" is not supported; use environment, provides, dependencies or templates`,
    );
  }
  if (action !== 'add' && action !== 'remove') throw new StagerApiError('other', `action "${action}" is not supported; use add or remove`);
  switch (resource) {
    case 'environment': {
      const key = required(form, 'key', 'for the environment');
      if (action === 'add') meta.environment[key] = form.get('value') ?? '';
      else delete meta.environment[key];
      return;
    }
    case 'provides':
    case 'dependencies': {
      const type = required(form, 'type', `for ${resource} (os, runtime, file or package)`);
      if (!isRequirementType(type)) throw new StagerApiError('other', `type "${type}" is not one of os, runtime, file, package`);
      const name = required(form, 'name', `for ${resource}`);
      const list: Requirement[] = meta[resource];
      const at = list.findIndex((r) => r.type === type && r.name === name);
      if (action === 'add' && at < 0) list.push({ type, name });
      if (action === 'remove' && at >= 0) list.splice(at, 1);
      return;
    }
    case 'templates': {
      const path = required(form, 'path', 'for templates');
      const problem = templatePathProblem(path);
      if (problem) throw new StagerApiError('other', `template path "${path}" ${problem} (absolute, or relative to the package's START_PATH)`);
      const at = meta.templates.findIndex((t) => t.path === path);
      if (action === 'remove') {
        if (at >= 0) meta.templates.splice(at, 1);
        return;
      }
      const template = { path, left_delimiter: form.get('left_delimiter') || '{{', right_delimiter: form.get('right_delimiter') || '}}' };
      if (at >= 0) meta.templates[at] = template;
      else meta.templates.push(template);
      return;
    }
  }
}

/** `tmpDir`: where snapshots are merged (the controller's data directory). */
/** The stager API (spec/stager-and-gateway-api.md): its token in the path or the header, forms or JSON in, its own status codes out. */
const STAGER_DOC = {
  summary: 'The stager API of a staging in progress (spec/stager-and-gateway-api.md)',
  public: true,
  bodyMedia: ['application/x-www-form-urlencoded', 'application/json', 'application/octet-stream'],
};

export function stagerEndpoints(coordinator: StagingCoordinator, packages: PackageService, tmpDir: string): Endpoint[] {
  /** Resolves the run of the path's token and maps every failure to a stager status. */
  const handle =
    (fn: (ctx: ApiContext, session: StagerSession) => Promise<void>) =>
    async (ctx: ApiContext): Promise<void> => {
      try {
        const token = ctx.params['token'] ?? '';
        if (token === '') throw new StagerApiError('missing_token', 'the request names no stager token');
        if (!StagingCoordinator.isTokenForm(token)) throw new StagerApiError('invalid_token', 'the stager token is not valid');
        await fn(ctx, coordinator.session(token));
      } catch (err) {
        const { status, message, internal } = toStagerStatus(err);
        if (internal) ctx.state.log.error('stager request failed', { request_id: ctx.state.requestId, path: ctx.path, err });
        ctx.state.error = message;
        if (!ctx.req.complete) ctx.set('Connection', 'close');
        sendText(ctx, status, message);
      }
    };
  const ok = (ctx: ApiContext) => sendText(ctx, 200, 'OK');
  // Each path also without its token (`/stager//meta`): the request names no UUID, 450.
  const at = (method: Method, path: string, fn: (ctx: ApiContext, session: StagerSession) => Promise<void>): Endpoint[] => [
    { method, path: `${STAGER_PATH_PREFIX}:token${path}`, handler: handle(fn), doc: STAGER_DOC },
    { method, path: `${STAGER_PATH_PREFIX}${path}`, handler: handle(fn), doc: STAGER_DOC },
  ];

  const changeMeta = async (ctx: ApiContext, s: StagerSession) => {
    s.assertCurrent();
    applyMetaChange(s.meta, await readForm(ctx));
    ok(ctx);
  };
  const report = (kind: 'done' | 'relaunch' | 'failed') => async (ctx: ApiContext, s: StagerSession) => {
    s.assertCurrent();
    let reason = '';
    if (kind === 'failed') {
      // The spec's body is empty; our SDK sends the error as `message` (form or text) for error_message.
      const form = await readForm(ctx).catch(() => new URLSearchParams());
      reason = (form.get('message') ?? form.get('reason') ?? '').slice(0, 4096);
    }
    await s.report(kind === 'failed' ? { kind, reason } : { kind });
    ok(ctx);
  };

  return [
    ...at('GET', '/data', async (ctx, s) => {
      const archive = s.current;
      const blob = await packages.openBlob(archive.digest);
      if (!blob) throw new StagerApiError('other', 'the package archive is missing from the blob store');
      await s.log('Downloading package for processing...');
      ctx.status = 200;
      ctx.type = 'application/octet-stream';
      ctx.length = blob.size;
      ctx.set('X-Platform-Digest', archive.digest);
      ctx.body = blob.stream;
    }),
    ...at('POST', '/data', async (ctx, s) => {
      s.assertCurrent();
      const sha = ctx.query['sha256'];
      if (typeof sha !== 'string' || sha === '') throw new StagerApiError('other', 'query parameter sha256 is required: the SHA-256 of the archive in hex');
      const length = contentLengthOf(ctx.req);
      if (length === undefined) throw new StagerApiError('other', 'a Content-Length must be provided: the header must equal the size of the archive');
      const digest = parseDigest(`sha256:${sha}`, 'sha256');
      await s.log('Uploading package contents...');
      const upload = packages.ingestStagedArchive(s.packageUuid, ctx.req, length, digest);
      s.uploads.add(upload);
      try {
        s.noteBlob(`sha256:${digest.hex}`);
        await upload;
      } finally {
        s.uploads.delete(upload);
      }
      s.output = { length, digest: `sha256:${digest.hex}` };
      ok(ctx);
    }),
    ...at('GET', '/meta', async (ctx, s) => {
      let json: string;
      try {
        json = JSON.stringify({
          dependencies: s.meta.dependencies,
          provides: s.meta.provides,
          environment: s.meta.environment,
          templates: s.meta.templates,
        });
      } catch (err) {
        throw new StagerApiError('marshal', 'failed to marshal the package metadata', { cause: err });
      }
      ctx.status = 200;
      ctx.set('Content-Type', 'application/json; charset=utf-8');
      ctx.body = json;
    }),
    ...at('PUT', '/meta', changeMeta),
    ...at('POST', '/meta', changeMeta),
    ...at('POST', '/snapshot', async (ctx, s) => {
      s.assertCurrent();
      const form = await readForm(ctx);
      if (!s.snapshot) throw new StagerApiError('other', 'snapshot is not available: the host running this stager has no layered file system');
      const base = await packages.openBlob(s.current.digest);
      if (!base) throw new StagerApiError('other', 'the package archive is missing from the blob store');
      let changes: Readable;
      try {
        changes = await s.snapshot(form.get('directory') || undefined);
      } catch (err) {
        base.stream.destroy();
        throw new StagerApiError('other', `the snapshot failed: ${err instanceof Error ? err.message : String(err)}`, { cause: err });
      }
      const merged = await mergeSnapshot(base.stream, changes, tmpDir);
      try {
        const digest = `sha256:${merged.sha256}`;
        s.noteBlob(digest);
        await packages.ingestStagedArchive(s.packageUuid, createReadStream(merged.file), merged.length, parseDigest(digest, 'sha256'));
        s.output = { length: merged.length, digest };
      } finally {
        await merged.dispose();
      }
      await s.log('Snapshot taken.');
      ok(ctx);
    }),
    ...at('POST', '/done', report('done')),
    ...at('POST', '/failed', report('failed')),
    ...at('POST', '/relaunch', report('relaunch')),
  ];
}
