/**
 * A real container registry for tests: Debian's `docker-registry` (the CNCF distribution
 * registry) with its own configuration and storage in a temporary directory, on a free
 * loopback port, optionally behind htpasswd basic authentication (`htpasswd` of
 * apache2-utils makes the bcrypt entry). Images are built here, small, and pushed through the
 * registry's HTTP API like any client would (`pushImage`).
 */
import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import type { ExecutionContext } from 'ava';
import { freePort } from './net.js';
import { eventually } from './wait.js';

export const REGISTRY_BIN = '/usr/bin/docker-registry';

/** Whether the registry can run here; says so (or fails under PLATFORM_REQUIRE_SYSTEM_TOOLS=1) when not. */
export function registryAvailable(t: ExecutionContext): boolean {
  const missing = [existsSync(REGISTRY_BIN) ? '' : 'docker-registry', existsSync('/usr/bin/htpasswd') ? '' : 'apache2-utils'].filter(Boolean);
  if (missing.length === 0) return true;
  const message = `needs ${missing.join(' and ')} (apt-get install ${missing.join(' ')})`;
  if (process.env['PLATFORM_REQUIRE_SYSTEM_TOOLS'] === '1') throw new Error(message);
  t.log(`skipped: ${message}`);
  return false;
}

/** Debian's statically linked busybox (package busybox-static): a whole userland in one file. */
export const BUSYBOX_BIN = '/bin/busybox';

/**
 * Whether a 64-bit little-endian ELF has no program interpreter (PT_INTERP): Debian's `busybox`
 * package installs a dynamically linked /bin/busybox, which cannot run in an image without libc.
 */
function staticElf(elf: Buffer): boolean {
  if (elf.length < 64 || elf.readUInt32BE(0) !== 0x7f454c46 || elf[4] !== 2 || elf[5] !== 1) return false;
  const phoff = Number(elf.readBigUInt64LE(0x20));
  const phentsize = elf.readUInt16LE(0x36);
  for (let i = 0; i < elf.readUInt16LE(0x38); i++) {
    if (elf.readUInt32LE(phoff + i * phentsize) === 3) return false;
  }
  return true;
}

/** Whether images with their own userland can be built here; says so (or fails under PLATFORM_REQUIRE_SYSTEM_TOOLS=1) when not. */
export function busyboxAvailable(t: ExecutionContext): boolean {
  if (existsSync(BUSYBOX_BIN) && staticElf(readFileSync(BUSYBOX_BIN))) return true;
  const message = 'needs a static busybox (apt-get install busybox-static)';
  if (process.env['PLATFORM_REQUIRE_SYSTEM_TOOLS'] === '1') throw new Error(message);
  t.log(`skipped: ${message}`);
  return false;
}

/** The image's users: `web` (4321:4322) exists in no host's /etc/passwd. */
export const IMAGE_PASSWD = 'root:x:0:0:root:/root:/bin/sh\nweb:x:4321:4322:image web user:/app:/bin/sh\n';
export const IMAGE_GROUP = 'root:x:0:\nweb:x:4322:\n';

/**
 * A base layer that is a tiny distribution of its own: the host's static busybox as
 * /bin/busybox with its applets as links, and the image's own /etc/passwd and /etc/group.
 */
export function busyboxLayer(): TarEntrySpec[] {
  const applets = ['sh', 'httpd', 'id', 'cat', 'tr', 'mkdir', 'test', 'tail', 'echo', 'printf', 'ls'];
  return [
    { path: 'bin/', type: 'dir' },
    { path: 'bin/busybox', content: readFileSync(BUSYBOX_BIN), mode: 0o755 },
    ...applets.map((a): TarEntrySpec => ({ path: `bin/${a}`, type: 'symlink', linkpath: 'busybox' })),
    { path: 'etc/', type: 'dir' },
    { path: 'etc/passwd', content: IMAGE_PASSWD },
    { path: 'etc/group', content: IMAGE_GROUP },
  ];
}

/**
 * An HTTP server made of the image's own programs (busybox sh and httpd): it answers, as JSON,
 * the job's uuid, who it runs as (`id`, names from the /etc/passwd it sees), that file's
 * contents (lines joined by `;`) and whether the host's node is visible.
 */
export const IMAGE_HTTP_SCRIPT = [
  '#!/bin/sh',
  'mkdir -p /app/www || exit 1',
  'printf \'{"job":"%s","user":"%s","uid":"%s","gid":"%s","group":"%s","passwd":"%s","host_node":"%s"}\' \\',
  '  "$PLATFORM_JOB_UUID" "$(id -un)" "$(id -u)" "$(id -g)" "$(id -gn)" "$(tr \'\\n\' \';\' < /etc/passwd)" "$(test -e /usr/bin/node && echo yes || echo no)" > /app/www/index.html',
  'echo "listening on $PORT"',
  'exec httpd -f -p "$PORT" -h /app/www',
  '',
].join('\n');

/** What IMAGE_HTTP_SCRIPT answers. */
export interface ImageHttpAnswer {
  job: string;
  user: string;
  uid: string;
  gid: string;
  group: string;
  passwd: string;
  host_node: string;
}

const sha256 = (data: Uint8Array) => `sha256:${createHash('sha256').update(data).digest('hex')}`;

export interface TarEntrySpec {
  path: string;
  type?: 'file' | 'dir' | 'symlink' | 'link';
  content?: string | Buffer;
  linkpath?: string;
  mode?: number;
}

function octal(value: number, width: number): string {
  return value.toString(8).padStart(width - 1, '0') + '\0';
}

/**
 * A tar archive of `entries`, written by hand (ustar headers) so that tests can make what a
 * well-behaved tar never writes: `../` paths, links escaping the root.
 */
export function tarBytes(entries: readonly TarEntrySpec[]): Buffer {
  const blocks: Buffer[] = [];
  for (const e of entries) {
    const type = e.type ?? 'file';
    const body = type === 'file' ? Buffer.from(e.content ?? '') : Buffer.alloc(0);
    const h = Buffer.alloc(512);
    const name = type === 'dir' && !e.path.endsWith('/') ? `${e.path}/` : e.path;
    if (Buffer.byteLength(name) > 100) throw new Error(`tarBytes: ${name} is over 100 bytes`);
    h.write(name, 0, 100, 'utf8');
    h.write(octal(e.mode ?? (type === 'dir' ? 0o755 : 0o644), 8), 100, 'ascii');
    h.write(octal(0, 8), 108, 'ascii');
    h.write(octal(0, 8), 116, 'ascii');
    h.write(octal(body.length, 12), 124, 'ascii');
    h.write(octal(1_700_000_000, 12), 136, 'ascii');
    h.write('        ', 148, 'ascii');
    h.write({ file: '0', dir: '5', symlink: '2', link: '1' }[type], 156, 'ascii');
    if (e.linkpath) h.write(e.linkpath, 157, 100, 'utf8');
    h.write('ustar\u000000', 257, 'ascii');
    let sum = 0;
    for (const b of h) sum += b;
    h.write(octal(sum, 7) + ' ', 148, 'ascii');
    blocks.push(h, body, Buffer.alloc((512 - (body.length % 512)) % 512));
  }
  blocks.push(Buffer.alloc(1024));
  return Buffer.concat(blocks);
}

export interface ImageSpec {
  /** Each layer's entries, lowest first (gzip-compressed when pushed), or ready layer bytes. */
  layers: (readonly TarEntrySpec[] | Buffer)[];
  config?: { Env?: string[]; Entrypoint?: string[]; Cmd?: string[]; WorkingDir?: string; User?: string; ExposedPorts?: Record<string, object>; Volumes?: Record<string, object> };
  /** Push an image index (linux/amd64 plus a decoy arm64) in front of the manifest. */
  index?: boolean;
  /** The config's architecture (default amd64). */
  architecture?: string;
}

export interface PushedImage {
  /** The digest of the linux/amd64 manifest. */
  digest: string;
  layers: { digest: string; size: number }[];
  config: string;
}

export class Registry {
  private constructor(
    readonly dir: string,
    readonly port: number,
    private readonly child: ChildProcess,
    readonly auth: { user: string; password: string } | undefined,
    private readonly output: string[],
  ) {}

  /** The registry process's pid (for benchmarks that read its CPU time). */
  get pid(): number {
    return this.child.pid!;
  }

  /** host:port */
  get address(): string {
    return `127.0.0.1:${this.port}`;
  }

  static async start(options: { auth?: { user: string; password: string } } = {}): Promise<Registry> {
    const dir = await mkdtemp(join(tmpdir(), 'platform-registry-'));
    try {
      const port = await freePort();
      let auth = '';
      if (options.auth) {
        const line = execFileSync('htpasswd', ['-nbB', options.auth.user, options.auth.password]).toString().trim();
        await writeFile(join(dir, 'htpasswd'), `${line}\n`);
        auth = `auth:\n  htpasswd:\n    realm: platform-test\n    path: ${join(dir, 'htpasswd')}\n`;
      }
      const config =
        'version: 0.1\n' +
        'log:\n  level: warn\n  accesslog:\n    disabled: true\n' +
        `storage:\n  filesystem:\n    rootdirectory: ${join(dir, 'data')}\n  delete:\n    enabled: true\n` +
        `http:\n  addr: 127.0.0.1:${port}\n  secret: ${randomBytes(16).toString('hex')}\n` +
        auth;
      await writeFile(join(dir, 'config.yml'), config);
      const output: string[] = [];
      const child = spawn(REGISTRY_BIN, ['serve', join(dir, 'config.yml')], { stdio: ['ignore', 'pipe', 'pipe'] });
      for (const s of [child.stdout!, child.stderr!]) s.on('data', (d: Buffer) => output.push(d.toString()));
      const registry = new Registry(dir, port, child, options.auth, output);
      await eventually(
        async () => {
          if (child.exitCode !== null) throw new Error(`docker-registry exited ${child.exitCode}: ${output.join('')}`);
          const res = await fetch(`http://${registry.address}/v2/`).catch(() => undefined);
          return res !== undefined && (res.status === 200 || res.status === 401);
        },
        { timeoutMs: 20_000, what: 'docker-registry to answer /v2/' },
      );
      return registry;
    } catch (err) {
      await rm(dir, { recursive: true, force: true });
      throw err;
    }
  }

  #headers(extra: Record<string, string> = {}): Record<string, string> {
    return this.auth ? { ...extra, Authorization: `Basic ${Buffer.from(`${this.auth.user}:${this.auth.password}`).toString('base64')}` } : extra;
  }

  async pushBlob(name: string, data: Buffer): Promise<string> {
    const digest = sha256(data);
    const start = await fetch(`http://${this.address}/v2/${name}/blobs/uploads/`, { method: 'POST', headers: this.#headers() });
    if (start.status !== 202) throw new Error(`blob upload start: ${start.status} ${await start.text()}`);
    const location = new URL(start.headers.get('location')!, `http://${this.address}`);
    location.searchParams.set('digest', digest);
    const put = await fetch(location, { method: 'PUT', headers: this.#headers({ 'Content-Type': 'application/octet-stream' }), body: data });
    if (put.status !== 201) throw new Error(`blob upload: ${put.status} ${await put.text()}`);
    return digest;
  }

  async deleteBlob(name: string, digest: string): Promise<void> {
    const res = await fetch(`http://${this.address}/v2/${name}/blobs/${digest}`, { method: 'DELETE', headers: this.#headers() });
    if (res.status !== 202) throw new Error(`blob delete: ${res.status} ${await res.text()}`);
  }

  async pushManifest(name: string, reference: string, manifest: object, mediaType: string): Promise<string> {
    const body = Buffer.from(JSON.stringify(manifest));
    const res = await fetch(`http://${this.address}/v2/${name}/manifests/${reference}`, { method: 'PUT', headers: this.#headers({ 'Content-Type': mediaType }), body });
    if (res.status !== 201) throw new Error(`manifest put: ${res.status} ${await res.text()}`);
    return sha256(body);
  }

  /** Builds and pushes an image as `name:tag`. */
  async pushImage(name: string, tag: string, spec: ImageSpec): Promise<PushedImage> {
    const layers: { digest: string; size: number; diffId: string }[] = [];
    for (const l of spec.layers) {
      const tar = Buffer.isBuffer(l) ? l : tarBytes(l);
      const gz = gzipSync(tar);
      layers.push({ digest: await this.pushBlob(name, gz), size: gz.length, diffId: sha256(tar) });
    }
    const config = Buffer.from(
      JSON.stringify({
        architecture: spec.architecture ?? 'amd64',
        os: 'linux',
        config: spec.config ?? {},
        rootfs: { type: 'layers', diff_ids: layers.map((l) => l.diffId) },
      }),
    );
    const configDigest = await this.pushBlob(name, config);
    const manifest = {
      schemaVersion: 2,
      mediaType: 'application/vnd.oci.image.manifest.v1+json',
      config: { mediaType: 'application/vnd.oci.image.config.v1+json', digest: configDigest, size: config.length },
      layers: layers.map((l) => ({ mediaType: 'application/vnd.oci.image.layer.v1.tar+gzip', digest: l.digest, size: l.size })),
    };
    let digest: string;
    if (spec.index) {
      digest = await this.pushManifest(name, sha256(Buffer.from(JSON.stringify(manifest))), manifest, manifest.mediaType);
      const size = Buffer.byteLength(JSON.stringify(manifest));
      await this.pushManifest(
        name,
        tag,
        {
          schemaVersion: 2,
          mediaType: 'application/vnd.oci.image.index.v1+json',
          manifests: [{ mediaType: manifest.mediaType, digest, size, platform: { os: 'linux', architecture: 'amd64' } }],
        },
        'application/vnd.oci.image.index.v1+json',
      );
    } else {
      digest = await this.pushManifest(name, tag, manifest, manifest.mediaType);
    }
    return { digest, layers: layers.map(({ digest: d, size }) => ({ digest: d, size })), config: configDigest };
  }

  async dispose(): Promise<void> {
    if (this.child.exitCode === null && this.child.signalCode === null) {
      const exited = new Promise((r) => this.child.once('exit', r));
      this.child.kill('SIGTERM');
      const timer = setTimeout(() => this.child.kill('SIGKILL'), 5_000);
      await exited;
      clearTimeout(timer);
    }
    await rm(this.dir, { recursive: true, force: true });
  }
}
