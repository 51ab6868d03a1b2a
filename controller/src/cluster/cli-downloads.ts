/**
 * The command-line client's archives (GET /cli/download/{platform}, and their sizes and
 * sha256 in GET /version). They are built with the client (cli/scripts/build-downloads.mjs,
 * run by `npm start`, `npm test` and `npm run build:downloads`) into a directory with a
 * manifest.json of each archive's file, size and sha256; the controller reads the manifest
 * when it starts, and again whenever the manifest changes (`npm start` builds the archives in
 * the background while the controller already serves), keeps the archives whose size on disk
 * still matches, and streams them. Without the directory it serves no downloads: 404 naming
 * what is missing, and an empty download_urls.
 */
import { createReadStream } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { silentLogger, type Logger } from '@platform/proto/common';
import { sendJson, v1, type Endpoint } from '../api/endpoint.js';
import { NotFoundError } from '../errors.js';

/** The platforms of the specification's GET /cli/download/{platform}. */
export const CLI_PLATFORMS = ['linux', 'osx', 'linux_amd64', 'osx_amd64', 'darwin_amd64', 'darwin'] as const;
export type CliPlatform = (typeof CLI_PLATFORMS)[number];

export type ArchiveFormat = 'tar.gz' | 'zip';

export interface CliArchive {
  path: string;
  size: number;
  sha256: string;
}

/** Where a repository's build puts the archives: cli/downloads beside this package. */
export const DEFAULT_CLI_DOWNLOADS_DIR = fileURLToPath(new URL('../../../cli/downloads/', import.meta.url));

interface Manifest {
  version?: string;
  platforms?: Record<string, Partial<Record<ArchiveFormat, { file: string; size: number; sha256: string }>> & { kind?: string }>;
}

/** The archives one reading of the manifest found. */
export class CliArchiveSet {
  constructor(
    readonly version: string,
    private readonly archives: ReadonlyMap<string, CliArchive>,
    /** Why there are none, when there are none. */
    readonly missing: string,
  ) {}

  static none(reason: string): CliArchiveSet {
    return new CliArchiveSet('', new Map(), reason);
  }

  /** Reads the manifest of `dir`; an archive whose size changed since it was built is left out. */
  static async read(dir: string, log: Logger): Promise<CliArchiveSet> {
    let manifest: Manifest;
    try {
      manifest = JSON.parse(await readFile(join(dir, 'manifest.json'), 'utf8')) as Manifest;
    } catch (err) {
      const reason = `the command-line client's archives are not built in ${dir} (yet: npm start builds them in the background; or npm run build:downloads)`;
      log.info('no command-line client downloads', { dir, reason: (err as Error).message });
      return CliArchiveSet.none(reason);
    }
    const archives = new Map<string, CliArchive>();
    for (const platform of CLI_PLATFORMS) {
      for (const format of ['tar.gz', 'zip'] as const) {
        const entry = manifest.platforms?.[platform]?.[format];
        if (!entry || !/^[A-Za-z0-9_.-]+$/.test(entry.file)) continue;
        const path = join(dir, entry.file);
        const size = await stat(path).then((s) => s.size, () => -1);
        if (size !== entry.size) {
          log.warn('command-line client archive left out: its size differs from the manifest', { path, size, expected: entry.size });
          continue;
        }
        archives.set(`${platform} ${format}`, { path, size, sha256: entry.sha256 });
      }
    }
    return new CliArchiveSet(manifest.version ?? '', archives, archives.size === 0 ? `no archives in ${dir}` : '');
  }

  get(platform: string, format: ArchiveFormat): CliArchive | undefined {
    return this.archives.get(`${platform} ${format}`);
  }

  /** GET /version's download_urls: each platform's gzip tar. */
  downloadUrls(base: string): Record<string, { url: string; size: number; sha256: string }> {
    const urls: Record<string, { url: string; size: number; sha256: string }> = {};
    for (const platform of CLI_PLATFORMS) {
      const a = this.get(platform, 'tar.gz');
      if (a) urls[platform] = { url: `${base}/v1/cli/download/${platform}`, size: a.size, sha256: a.sha256 };
    }
    return urls;
  }
}

/** How often, at most, a request looks whether the manifest changed. */
const RECHECK_MS = 1000;

/**
 * The archives of a directory as they are now: the manifest is read again when its
 * modification time changes (looked at no more than once a second, by the requests that
 * need it), so archives built after the controller started are served without a restart.
 */
export class CliDownloads {
  private set: CliArchiveSet;
  private mtimeMs = -1;
  private checkedAt = -Infinity;
  private reading: Promise<CliArchiveSet> | undefined;

  private constructor(
    readonly dir: string,
    private readonly log: Logger,
    private readonly now: () => number,
    initial: CliArchiveSet,
  ) {
    this.set = initial;
  }

  /** Serves nothing, for `reason` (a controller built without the client). */
  static none(reason: string): CliDownloads {
    return new CliDownloads('', silentLogger, Date.now, CliArchiveSet.none(reason));
  }

  static async load(dir: string, log: Logger, now: () => number = Date.now): Promise<CliDownloads> {
    const downloads = new CliDownloads(dir, log, now, CliArchiveSet.none(''));
    await downloads.current();
    return downloads;
  }

  /** The archives, read again first when the manifest changed since the last reading. */
  async current(): Promise<CliArchiveSet> {
    if (this.dir === '' || this.now() - this.checkedAt < RECHECK_MS) return this.set;
    this.reading ??= this.reread().finally(() => (this.reading = undefined));
    return this.reading;
  }

  private async reread(): Promise<CliArchiveSet> {
    this.checkedAt = this.now();
    const mtimeMs = await stat(join(this.dir, 'manifest.json')).then((s) => s.mtimeMs, () => 0);
    if (mtimeMs !== this.mtimeMs) {
      this.set = await CliArchiveSet.read(this.dir, this.log);
      this.mtimeMs = mtimeMs;
    }
    return this.set;
  }
}

/** `application/zip` in Accept picks the zip; anything else (none, application/x-gzip, * / *) the gzip tar. */
function formatOf(accept: string): ArchiveFormat {
  const types = accept.split(',').map((t) => t.split(';')[0]!.trim().toLowerCase());
  return types.includes('application/zip') && !types.includes('application/x-gzip') ? 'zip' : 'tar.gz';
}

/**
 * GET /cli/download/{platform} (and its 2016 name /apc/download/{platform}, spec-paths.ts),
 * served without a token: a new user downloads the client before logging in. GET
 * /apc/version: the version of the client offered for download.
 */
export function cliDownloadEndpoints(downloads: CliDownloads): Endpoint[] {
  return [
    {
      method: 'GET',
      path: '/cli/download/:platform',
      doc: {
        summary: `The command-line client for a platform (${CLI_PLATFORMS.join(', ')}): a gzip tar, or a zip with Accept: application/zip`,
        public: true,
        responseMedia: ['application/x-gzip', 'application/zip'],
      },
      handler: async (ctx) => {
        const platform = ctx.params['platform'] ?? '';
        if (!(CLI_PLATFORMS as readonly string[]).includes(platform)) {
          throw new NotFoundError(`no command-line client for platform "${platform}"; one of ${CLI_PLATFORMS.join(', ')}`, { details: { platforms: [...CLI_PLATFORMS] } });
        }
        const format = formatOf(ctx.get('Accept'));
        const archives = await downloads.current();
        const archive = archives.get(platform, format);
        if (!archive) throw new NotFoundError(`the command-line client for ${platform} is not available: ${archives.missing || `no ${format} archive`}`);
        ctx.status = 200;
        ctx.set('Content-Type', format === 'zip' ? 'application/zip' : 'application/x-gzip');
        ctx.set('Content-Disposition', `attachment; filename="platform-${platform}.${format}"`);
        ctx.set('X-Platform-Digest', `sha256:${archive.sha256}`);
        ctx.vary('Accept');
        ctx.length = archive.size;
        ctx.body = createReadStream(archive.path);
      },
    },
    {
      method: 'GET',
      path: '/apc/version',
      media: v1('apcversion'),
      doc: { summary: 'The version of the command-line client offered for download (the 2016 name; GET /version lists the downloads)' },
      handler: async (ctx) => sendJson(ctx, v1('apcversion'), { version: (await downloads.current()).version }),
    },
  ];
}
