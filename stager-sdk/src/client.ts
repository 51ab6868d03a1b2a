/**
 * A typed client for every endpoint of the stager API. One instance per run;
 * the base URL is STAGER_URL. Requests use node:http(s) so that uploads stream
 * with an exact Content-Length, as the coordinator requires.
 */
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { Readable } from 'node:stream';
import { StagerEnvironmentError, StagerRequestError } from './errors.js';

export type RequirementType = 'os' | 'runtime' | 'file' | 'package';

export interface Requirement {
  type: RequirementType;
  name: string;
}

export interface Template {
  path: string;
  left_delimiter: string;
  right_delimiter: string;
}

/** GET /meta. START_COMMAND and START_PATH live in `environment`. */
export interface PackageMeta {
  dependencies: Requirement[];
  provides: Requirement[];
  environment: Record<string, string>;
  templates: Template[];
}

/** One PUT /meta change (the form fields of the spec). */
export type MetaChange =
  | { resource: 'environment'; action: 'add'; key: string; value: string }
  | { resource: 'environment'; action: 'remove'; key: string }
  | { resource: 'dependencies' | 'provides'; action: 'add' | 'remove'; type: RequirementType; name: string }
  | { resource: 'templates'; action: 'add'; path: string; left_delimiter?: string; right_delimiter?: string }
  | { resource: 'templates'; action: 'remove'; path: string };

/** The coordinator's URL from the stager's environment, checked. */
export function stagerUrlFromEnv(env: NodeJS.ProcessEnv = process.env): URL {
  const raw = env['STAGER_URL'];
  if (!raw) throw new StagerEnvironmentError('STAGER_URL is not set: a stager runs as a job of a staging pipeline');
  try {
    return new URL(raw);
  } catch (err) {
    throw new StagerEnvironmentError(`STAGER_URL "${raw}" is not a URL`, { cause: err });
  }
}

interface Sent {
  body?: Buffer | Readable;
  headers?: Record<string, string | number>;
}

async function readAll(res: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of res as AsyncIterable<Buffer>) chunks.push(c);
  return Buffer.concat(chunks).toString('utf8');
}

export class StagerClient {
  readonly base: URL;

  constructor(base: URL | string = stagerUrlFromEnv()) {
    this.base = new URL(base.toString().replace(/\/+$/, ''));
  }

  /** Sends a request; resolves with the response when its status is 200, else throws StagerRequestError. */
  async #send(method: string, path: string, sent: Sent = {}): Promise<IncomingMessage> {
    const url = new URL(this.base.toString() + path);
    const request = url.protocol === 'https:' ? httpsRequest : httpRequest;
    const res = await new Promise<IncomingMessage>((resolve, reject) => {
      const req = request(url, { method, headers: sent.headers ?? {} }, resolve);
      req.once('error', reject);
      const body = sent.body;
      if (body === undefined) req.end();
      else if (Buffer.isBuffer(body)) req.end(body);
      else {
        body.once('error', (err) => req.destroy(err));
        body.pipe(req);
      }
    });
    if (res.statusCode !== 200) {
      throw new StagerRequestError(method, path, res.statusCode ?? 0, await readAll(res).catch(() => ''));
    }
    return res;
  }

  async #text(method: string, path: string, sent?: Sent): Promise<string> {
    return readAll(await this.#send(method, path, sent));
  }

  #form(fields: Record<string, string>): Sent {
    const body = Buffer.from(new URLSearchParams(fields).toString());
    return { body, headers: { 'Content-Type': 'application/x-www-form-urlencoded', 'Content-Length': body.length } };
  }

  /** GET /data: the package archive (gzip tar) as a stream. */
  async download(): Promise<Readable> {
    return this.#send('GET', '/data');
  }

  /** POST /data?sha256=: replaces the package's archive with `file`, whose SHA-256 (hex) is given. */
  async uploadFile(file: string, sha256: string): Promise<void> {
    const { size } = await stat(file);
    await this.upload(createReadStream(file), size, sha256);
  }

  /** POST /data?sha256=: streams `length` bytes of archive. */
  async upload(body: Readable | Buffer, length: number, sha256: string): Promise<void> {
    await this.#text('POST', `/data?sha256=${encodeURIComponent(sha256)}`, {
      body,
      headers: { 'Content-Type': 'application/octet-stream', 'Content-Length': length },
    });
  }

  /** GET /meta */
  async meta(): Promise<PackageMeta> {
    return JSON.parse(await this.#text('GET', '/meta')) as PackageMeta;
  }

  /** PUT /meta with one change. */
  async changeMeta(change: MetaChange): Promise<void> {
    const fields: Record<string, string> = {};
    for (const [k, v] of Object.entries(change)) if (v !== undefined) fields[k] = String(v);
    await this.#text('PUT', '/meta', this.#form(fields));
  }

  setEnvironment(key: string, value: string): Promise<void> {
    return this.changeMeta({ resource: 'environment', action: 'add', key, value });
  }

  unsetEnvironment(key: string): Promise<void> {
    return this.changeMeta({ resource: 'environment', action: 'remove', key });
  }

  addDependency(type: RequirementType, name: string): Promise<void> {
    return this.changeMeta({ resource: 'dependencies', action: 'add', type, name });
  }

  removeDependency(type: RequirementType, name: string): Promise<void> {
    return this.changeMeta({ resource: 'dependencies', action: 'remove', type, name });
  }

  addProvides(type: RequirementType, name: string): Promise<void> {
    return this.changeMeta({ resource: 'provides', action: 'add', type, name });
  }

  addTemplate(path: string, leftDelimiter = '{{', rightDelimiter = '}}'): Promise<void> {
    return this.changeMeta({ resource: 'templates', action: 'add', path, left_delimiter: leftDelimiter, right_delimiter: rightDelimiter });
  }

  /** POST /snapshot: adds the files changed in the stager's file system (under `directory`) to the package. */
  async snapshot(directory?: string): Promise<void> {
    await this.#text('POST', '/snapshot', this.#form(directory ? { directory } : {}));
  }

  /** POST /done */
  async done(): Promise<void> {
    await this.#text('POST', '/done', this.#form({}));
  }

  /** POST /failed, with the reason as `message` (shown as the package's error_message). */
  async failed(message?: string): Promise<void> {
    await this.#text('POST', '/failed', this.#form(message ? { message } : {}));
  }

  /** POST /relaunch: start this stager again with the dependencies added so far installed. */
  async relaunch(): Promise<void> {
    await this.#text('POST', '/relaunch', this.#form({}));
  }
}
