/**
 * A client of the OCI distribution API (Docker Registry HTTP API v2), as much as pulling needs:
 * GET /v2/<name>/manifests/<tag|digest> (an image index or manifest list is resolved to its
 * linux/amd64 manifest) and GET /v2/<name>/blobs/<digest> (the config, the layers).
 *
 * Authentication follows the registry's 401 challenge: `Basic` with the credentials of the
 * image URL, or `Bearer realm=...,service=...,scope=...`: a token from the realm (asked with the
 * credentials when there are some, anonymously otherwise), then the request again.
 *
 * Every address a pull reaches is judged by the destination rule it is given (the registry's,
 * --allowed-registries; @platform/proto/common destinations): the registry, each redirect hop
 * and the token service the registry names (its `realm`), on the address each connection is
 * made to (after DNS). Requests go through node:http(s), which costs about a third less CPU per
 * byte than fetch and takes the rule's `lookup`; redirects are followed here (up to five), the
 * registry's authorization sent to the registry's host only.
 *
 * Every byte is checked against its digest: manifests as read, blobs as they stream (a blob
 * whose size or digest differs fails its reader). Errors are ImageErrors that say which image
 * and which part failed.
 */
import { createHash } from 'node:crypto';
import { Agent as HttpAgent, get as httpGet, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, get as httpsGet } from 'node:https';
import { destinationRefusal, type DestinationPolicy } from '@platform/proto/common';
import { ImageError } from './flatten.js';
import { originOf, type ImageRef } from './image-ref.js';

export const MEDIA = {
  ociIndex: 'application/vnd.oci.image.index.v1+json',
  dockerList: 'application/vnd.docker.distribution.manifest.list.v2+json',
  ociManifest: 'application/vnd.oci.image.manifest.v1+json',
  dockerManifest: 'application/vnd.docker.distribution.manifest.v2+json',
} as const;

const MANIFEST_ACCEPT = [MEDIA.ociIndex, MEDIA.dockerList, MEDIA.ociManifest, MEDIA.dockerManifest].join(', ');
const MAX_MANIFEST_BYTES = 4 * 1024 * 1024;
const DIGEST = /^sha256:[a-f0-9]{64}$/;

export interface Descriptor {
  mediaType: string;
  digest: string;
  size: number;
  platform?: { architecture?: string; os?: string; variant?: string };
}

export interface ImageManifest {
  /** sha256 of the (platform) manifest's bytes: the image's identity. */
  digest: string;
  config: Descriptor;
  layers: Descriptor[];
}

/** The image configuration fields the platform uses. */
export interface ImageConfig {
  config?: {
    Env?: string[];
    Entrypoint?: string[] | null;
    Cmd?: string[] | null;
    WorkingDir?: string;
    User?: string;
    ExposedPorts?: Record<string, unknown>;
    Volumes?: Record<string, unknown> | null;
    StopSignal?: string;
  };
  architecture?: string;
  os?: string;
}

const sha256 = (data: Buffer) => `sha256:${createHash('sha256').update(data).digest('hex')}`;

function describeCause(err: unknown): string {
  const cause = (err as { cause?: { code?: string; message?: string } }).cause;
  return (err as NodeJS.ErrnoException).code ?? cause?.code ?? cause?.message ?? (err as Error).message;
}

/**
 * Keep-alive connections of the requests judged by one destination rule: a connection is
 * reused only by requests of the same rule (its address was judged when it was made).
 */
const AGENTS = new WeakMap<DestinationPolicy, { 'http:': HttpAgent; 'https:': HttpsAgent }>();
function agentsOf(rule: DestinationPolicy): { 'http:': HttpAgent; 'https:': HttpsAgent } {
  let agents = AGENTS.get(rule);
  if (!agents) AGENTS.set(rule, (agents = { 'http:': new HttpAgent({ keepAlive: true }), 'https:': new HttpsAgent({ keepAlive: true }) }));
  return agents;
}

const MAX_REDIRECTS = 5;

export interface RegistryClientOptions {
  /** The rule every address the pull reaches must pass (the registry, redirects, the token service). */
  destinations: DestinationPolicy;
  /** How long a request may go without a byte. Default 60 s. */
  timeoutMs?: number;
  /** Stops every request of the client. */
  signal?: AbortSignal;
}

export class RegistryClient {
  #auth: string | undefined;
  readonly #base: string;
  readonly #origin: string;

  constructor(
    readonly ref: ImageRef,
    private readonly options: RegistryClientOptions,
  ) {
    this.#base = `${ref.scheme}://${ref.registry}/v2/${ref.name}`;
    this.#origin = originOf(ref);
  }

  /**
   * GET `url` with the registry's authorization, answering its 401 challenge once, following
   * redirects (to storage elsewhere: without the registry's authorization). Every hop's address
   * is judged by the destination rule.
   */
  async #request(url: URL, accept?: string): Promise<IncomingMessage> {
    let res = await this.#follow(url, { accept, authorization: () => this.#auth, what: `the registry ${this.ref.registry}` });
    if (res.statusCode === 401 && res.authorized) {
      res.resume();
      await this.#authenticate(String(res.headers['www-authenticate'] ?? ''));
      res = await this.#follow(url, { accept, authorization: () => this.#auth, what: `the registry ${this.ref.registry}` });
    }
    if (res.statusCode === 401) {
      res.resume();
      throw new ImageError(`registry ${this.ref.registry} refused the ${this.ref.credentials ? 'credentials of the image URL' : 'anonymous pull'} for ${this.ref.name} (401)`);
    }
    return res;
  }

  /**
   * GET `url`, following up to five redirects; `authorization` goes to the host of `url` only.
   * The answer says whether its request carried the authorization (a 401 elsewhere is not the
   * registry's challenge).
   */
  async #follow(url: URL, o: { accept?: string | undefined; authorization: () => string | undefined; what: string }): Promise<IncomingMessage & { authorized: boolean }> {
    const firstHost = url.host;
    for (let redirects = 0; ; redirects++) {
      const authorized = url.host === firstHost;
      const authorization = authorized ? o.authorization() : undefined;
      const res = await this.#get(url, { ...(o.accept ? { Accept: o.accept } : {}), ...(authorization ? { Authorization: authorization } : {}) }, redirects === 0 ? o.what : `${o.what} (redirected to ${url.protocol}//${url.host})`);
      const status = res.statusCode ?? 0;
      const location = res.headers.location;
      if (status >= 300 && status < 400 && location && redirects < MAX_REDIRECTS) {
        res.resume();
        try {
          url = new URL(location, url);
        } catch {
          throw new ImageError(`${o.what} redirected to "${location.slice(0, 200)}", which is not a URL`);
        }
        if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new ImageError(`${o.what} redirected to a ${url.protocol} URL; http and https are followed`);
        continue;
      }
      return Object.assign(res, { authorized });
    }
  }

  /**
   * One GET of `url` (`what`: who is asked, for the errors), to an address the destination rule
   * allows: a refused one fails before any connection; fails after the timeout without a byte.
   */
  #get(url: URL, headers: Record<string, string>, what: string): Promise<IncomingMessage> {
    const protocol = url.protocol as 'http:' | 'https:';
    const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
    const port = Number(url.port || (protocol === 'https:' ? 443 : 80));
    return new Promise((resolve, reject) => {
      let connect;
      try {
        connect = this.options.destinations.connectOptions(host, port);
      } catch (err) {
        reject(this.#failure(err, what));
        return;
      }
      const timeoutMs = this.options.timeoutMs ?? 60_000;
      const send = protocol === 'https:' ? httpsGet : httpGet;
      const req = send(
        url,
        { headers, timeout: timeoutMs, agent: agentsOf(this.options.destinations)[protocol], ...connect, ...(this.options.signal ? { signal: this.options.signal } : {}) },
        resolve,
      );
      req.on('timeout', () => req.destroy(Object.assign(new Error('no answer in time'), { code: 'ETIMEDOUT' })));
      req.on('error', (err) => reject(this.#failure(err, what)));
    });
  }

  /** The ImageError of a request that failed: the rule's refusal as it is, else who cannot be reached and why. */
  #failure(err: unknown, what: string): ImageError {
    const registry = what === `the registry ${this.ref.registry}`;
    const refused = destinationRefusal(err);
    if (refused) return new ImageError(registry ? refused.message : `${what}: ${refused.message}`, { cause: refused });
    if (this.ref.publicRegistry && registry) {
      return new ImageError(
        `the public registry ${this.ref.registry} cannot be reached from this controller (${describeCause(err)}); ` +
          `name a registry it reaches in image_url, e.g. registry.example.com:5000/${this.ref.name}:${this.ref.tag}`,
      );
    }
    return new ImageError(`${what} cannot be reached (${describeCause(err)})`);
  }

  async #authenticate(challenge: string): Promise<void> {
    const scheme = challenge.split(' ', 1)[0]?.toLowerCase();
    const creds = this.ref.credentials;
    const basic = creds ? `Basic ${Buffer.from(`${creds.username}:${creds.password}`).toString('base64')}` : undefined;
    if (scheme === 'basic') {
      if (!basic) throw new ImageError(`registry ${this.ref.registry} requires credentials for ${this.ref.name}: give them in image_url (https://user:password@host/name:tag)`);
      this.#auth = basic;
      return;
    }
    if (scheme !== 'bearer') throw new ImageError(`registry ${this.ref.registry} asks for an authentication scheme this controller does not speak: ${challenge.slice(0, 100)}`);
    const params = new Map<string, string>();
    for (const m of challenge.slice(7).matchAll(/(\w+)="([^"]*)"/g)) params.set(m[1]!.toLowerCase(), m[2]!);
    const realm = params.get('realm');
    if (!realm || !/^https?:\/\//.test(realm)) throw new ImageError(`registry ${this.ref.registry} sent a bearer challenge without a usable realm`);
    let url: URL;
    try {
      url = new URL(realm);
    } catch {
      throw new ImageError(`registry ${this.ref.registry} sent a bearer challenge without a usable realm`);
    }
    if (params.get('service')) url.searchParams.set('service', params.get('service')!);
    url.searchParams.set('scope', params.get('scope') ?? `repository:${this.ref.name}:pull`);
    // The realm is the registry's to name, so its address is judged like the registry's.
    const res = await this.#follow(url, { authorization: () => basic, what: `the token service of registry ${this.ref.registry} (${url.protocol}//${url.host})` });
    if (res.statusCode !== 200) {
      res.resume();
      throw new ImageError(`the token service of registry ${this.ref.registry} refused a token for ${this.ref.name} (${res.statusCode})`);
    }
    let body: { token?: unknown; access_token?: unknown } = {};
    try {
      body = JSON.parse((await readBody(res, MAX_MANIFEST_BYTES, 'the token')).toString('utf8')) as typeof body;
    } catch (err) {
      if (err instanceof ImageError) throw err;
    }
    const token = typeof body.token === 'string' ? body.token : typeof body.access_token === 'string' ? body.access_token : undefined;
    if (!token) throw new ImageError(`the token service of registry ${this.ref.registry} answered no token`);
    this.#auth = `Bearer ${token}`;
  }

  /** A manifest's bytes, checked against `digest` when given. */
  async #manifestBytes(reference: string, digest?: string): Promise<{ bytes: Buffer; mediaType: string }> {
    const res = await this.#request(new URL(`${this.#base}/manifests/${reference}`), MANIFEST_ACCEPT);
    if (res.statusCode === 404) {
      res.resume();
      throw new ImageError(`image ${this.#origin} not found in registry ${this.ref.registry} (manifest unknown)`);
    }
    if (res.statusCode !== 200) {
      res.resume();
      throw new ImageError(`registry ${this.ref.registry} answered ${res.statusCode} for the manifest of ${this.#origin}`);
    }
    const bytes = await readBody(res, MAX_MANIFEST_BYTES, `the manifest of ${this.#origin}`);
    if (digest && sha256(bytes) !== digest) throw new ImageError(`the manifest ${digest} of ${this.#origin} does not match its digest`);
    return { bytes, mediaType: String(res.headers['content-type'] ?? '').split(';')[0]!.trim() };
  }

  /** The linux/amd64 image manifest of the reference (through an index when there is one). */
  async manifest(): Promise<ImageManifest> {
    const first = await this.#manifestBytes(this.ref.digest ?? this.ref.tag, this.ref.digest);
    let parsed = parseJson(first.bytes, `the manifest of ${this.#origin}`);
    let digest = sha256(first.bytes);
    const type = (parsed['mediaType'] as string | undefined) ?? first.mediaType;
    if (type === MEDIA.ociIndex || type === MEDIA.dockerList || Array.isArray(parsed['manifests'])) {
      const manifests = (parsed['manifests'] ?? []) as Descriptor[];
      const chosen = manifests.find((m) => m.platform?.os === 'linux' && m.platform.architecture === 'amd64');
      if (!chosen) {
        const offered = manifests.map((m) => `${m.platform?.os ?? '?'}/${m.platform?.architecture ?? '?'}`).join(', ');
        throw new ImageError(`image ${this.#origin} has no linux/amd64 manifest (it offers ${offered || 'none'})`);
      }
      if (!DIGEST.test(chosen.digest)) throw new ImageError(`image ${this.#origin}: the index names a manifest with digest "${chosen.digest}"; sha256 digests are supported`);
      const second = await this.#manifestBytes(chosen.digest, chosen.digest);
      parsed = parseJson(second.bytes, `the linux/amd64 manifest of ${this.#origin}`);
      digest = chosen.digest;
    } else if (type !== MEDIA.ociManifest && type !== MEDIA.dockerManifest && parsed['schemaVersion'] !== 2) {
      throw new ImageError(`image ${this.#origin} has a manifest of type "${type}"; OCI and Docker v2 schema 2 manifests are supported`);
    }
    const config = parsed['config'] as Descriptor | undefined;
    const layers = parsed['layers'] as Descriptor[] | undefined;
    if (!config || !Array.isArray(layers)) throw new ImageError(`the manifest of ${this.#origin} has no config or no layers`);
    for (const d of [config, ...layers]) {
      if (typeof d.digest !== 'string' || !DIGEST.test(d.digest)) throw new ImageError(`the manifest of ${this.#origin} names a blob with digest "${String(d.digest)}"; sha256 digests are supported`);
      if (!Number.isSafeInteger(d.size) || d.size < 0) throw new ImageError(`the manifest of ${this.#origin} gives blob ${d.digest} an invalid size`);
    }
    for (const l of layers) {
      if (/zstd/.test(l.mediaType ?? '')) throw new ImageError(`layer ${l.digest} of ${this.#origin} is zstd-compressed; gzip and plain tar layers are supported`);
      if (/foreign|nondistributable/.test(l.mediaType ?? '')) throw new ImageError(`layer ${l.digest} of ${this.#origin} is a foreign (non-distributable) layer, which is not pulled`);
    }
    return { digest, config, layers };
  }

  /** The image configuration (small: read into memory, checked). */
  async config(d: Descriptor): Promise<ImageConfig> {
    if (d.size > MAX_MANIFEST_BYTES) throw new ImageError(`the config of ${this.#origin} is over ${MAX_MANIFEST_BYTES} bytes`);
    const res = await this.#blobStream(d);
    const bytes = await readBody(res, MAX_MANIFEST_BYTES, `the config of ${this.#origin}`);
    if (bytes.length !== d.size || sha256(bytes) !== d.digest) throw new ImageError(`the config blob ${d.digest} of ${this.#origin} does not match its digest or size`);
    return parseJson(bytes, `the config of ${this.#origin}`) as ImageConfig;
  }

  /**
   * Blob `d`'s bytes as they arrive, checked on the way: the iteration fails (ImageError) as
   * soon as there are more bytes than the manifest gives, and at the end when there are fewer
   * or their digest differs. `onBytes` hears progress.
   */
  async *blobChunks(d: Descriptor, onBytes: (n: number) => void): AsyncGenerator<Buffer> {
    const res = await this.#blobStream(d);
    const hash = createHash('sha256');
    let length = 0;
    try {
      try {
        for await (const chunk of res as AsyncIterable<Buffer>) {
          length += chunk.length;
          if (length > d.size) throw new ImageError(`blob ${d.digest} of ${this.#origin} is longer than the ${d.size} bytes its manifest gives`);
          hash.update(chunk);
          onBytes(chunk.length);
          yield chunk;
        }
      } catch (err) {
        if (err instanceof ImageError) throw err;
        throw new ImageError(`blob ${d.digest} of ${this.#origin} could not be read: ${describeCause(err)}`);
      }
    } finally {
      res.destroy(); // ends the response when the reader stops early (a no-op once it was read to the end)
    }
    if (length !== d.size) throw new ImageError(`blob ${d.digest} of ${this.#origin} has ${length} bytes, its manifest gives ${d.size}`);
    const got = `sha256:${hash.digest('hex')}`;
    if (got !== d.digest) throw new ImageError(`blob ${d.digest} of ${this.#origin} does not match its digest (got ${got})`);
  }

  /** The response to GET blob `d` (#request: challenge, redirects, every address judged); 404 and the other failures as ImageErrors. */
  async #blobStream(d: Descriptor): Promise<IncomingMessage> {
    const res = await this.#request(new URL(`${this.#base}/blobs/${d.digest}`));
    const status = res.statusCode ?? 0;
    if (status === 404) {
      res.resume();
      throw new ImageError(`blob ${d.digest} of ${this.#origin} is missing from registry ${this.ref.registry} (blob unknown)`);
    }
    if (status < 200 || status >= 300) {
      res.resume();
      throw new ImageError(`registry ${this.ref.registry} answered ${status} for blob ${d.digest} of ${this.#origin}`);
    }
    return res;
  }
}

/** The body of `res`, at most `max` bytes (`what` is over them: an ImageError). */
async function readBody(res: IncomingMessage, max: number, what: string): Promise<Buffer> {
  const tooLong = () => new ImageError(`${what} is over ${max} bytes`);
  if (Number(res.headers['content-length'] ?? '0') > max) {
    res.destroy();
    throw tooLong();
  }
  const chunks: Buffer[] = [];
  let length = 0;
  try {
    for await (const chunk of res as AsyncIterable<Buffer>) {
      length += chunk.length;
      if (length > max) throw tooLong();
      chunks.push(chunk);
    }
  } catch (err) {
    res.destroy();
    if (err instanceof ImageError) throw err;
    throw new ImageError(`${what} could not be read: ${describeCause(err)}`);
  }
  return Buffer.concat(chunks);
}

function parseJson(bytes: Buffer, what: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(bytes.toString('utf8'));
    if (value && typeof value === 'object' && !Array.isArray(value)) return value as Record<string, unknown>;
  } catch {
    // below
  }
  throw new ImageError(`${what} is not a JSON object`);
}
