/**
 * The web console's files, served by the controller itself (no separate server):
 *
 *   GET /                  a browser (Accept: text/html) is sent to /console/; other clients get
 *                          the links to the console and the API's description, as JSON
 *   GET /console           redirect to /console/
 *   GET /console/          index.html, never cached (it names the current build's assets), with
 *                          the embedded router's address for the apps' URLs
 *   GET /console/assets/*  the bundles, named by their content hash: cached for a year, immutable
 *
 * The files are what `npm run build` made (controller/console/build.mjs) in dist/console-app/.
 * They are served without authentication: they hold no data, and the console signs in through
 * the token endpoint like any client. Every answer carries a Content-Security-Policy that lets
 * the page load and call only this origin (no inline script, nothing from the internet).
 */
import { createReadStream } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { extname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Middleware } from 'koa';
import type { ApiState } from '../api/endpoint.js';
import { NotFoundError, UnavailableError, MethodNotAllowedError } from '../errors.js';

/** Where `npm run build` puts the console (controller/dist/console-app). */
export const DEFAULT_CONSOLE_DIR = fileURLToPath(new URL('../console-app/', import.meta.url));

const ASSET_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;
const TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.woff2': 'font/woff2',
};

/** The page may load and call only its own origin; styles set by scripts (charts) are allowed. */
export const CONSOLE_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data: blob:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

export interface ConsoleSiteOptions {
  /** The built console; DEFAULT_CONSOLE_DIR when absent. */
  dir?: string;
  /** host:port of the embedded router, for the URLs of apps; undefined when it runs none. */
  routerAddress: () => string | undefined;
}

function escapeAttribute(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** The paths of the console: `/`, `/console` and what is under `/console/`. */
export function isConsolePath(path: string): boolean {
  return path === '/' || path === '/console' || path.startsWith('/console/');
}

/** The console's paths and their handler, for createApiApp's `site` (served instead of authentication). */
export function consoleSite(o: ConsoleSiteOptions): { handles: (path: string) => boolean; serve: Middleware<ApiState> } {
  return { handles: isConsolePath, serve: serveConsole(o) };
}

function serveConsole(o: ConsoleSiteOptions): Middleware<ApiState> {
  const dir = o.dir ?? DEFAULT_CONSOLE_DIR;
  // Read on each request (a small file): a build made while the controller runs is served at once.
  const indexHtml = () =>
    readFile(join(dir, 'index.html'), 'utf8').catch((err: unknown) => {
      throw new UnavailableError('the web console is not built here: run `npm run build` (it builds the console with the rest)', 60_000, { cause: err });
    });
  const secure = (ctx: Parameters<Middleware<ApiState>>[0]) => {
    ctx.set('Content-Security-Policy', CONSOLE_CSP);
    ctx.set('X-Content-Type-Options', 'nosniff');
    ctx.set('Referrer-Policy', 'same-origin');
    ctx.set('X-Frame-Options', 'DENY');
  };
  return async (ctx) => {
    const path = ctx.path;
    ctx.state.route = path === '/' ? '/' : path.startsWith('/console/assets/') ? '/console/assets/:file' : '/console/';
    if (ctx.method !== 'GET' && ctx.method !== 'HEAD') throw new MethodNotAllowedError(`${ctx.method} is not allowed on ${path}; allowed: GET`, ['GET']);
    if (path === '/') {
      if ((ctx.get('Accept') ?? '').includes('text/html')) {
        ctx.redirect('/console/');
        return;
      }
      ctx.type = 'application/json';
      ctx.body = JSON.stringify({ console: '/console/', openapi: '/v1/openapi.json' });
      return;
    }
    if (path === '/console') {
      ctx.redirect('/console/');
      return;
    }
    if (path === '/console/' || path === '/console/index.html') {
      const router = o.routerAddress();
      const html = (await indexHtml()).replace('<meta name="platform-router" content="">', `<meta name="platform-router" content="${escapeAttribute(router ?? '')}">`);
      secure(ctx);
      ctx.set('Cache-Control', 'no-cache');
      ctx.type = 'text/html; charset=utf-8';
      ctx.body = html;
      return;
    }
    const name = path.slice('/console/assets/'.length);
    const type = TYPES[extname(name)];
    if (!path.startsWith('/console/assets/') || !ASSET_NAME.test(name) || type === undefined) throw new NotFoundError(`no console file ${path}`);
    const file = join(dir, 'assets', name);
    const info = await stat(file).catch(() => undefined);
    if (!info?.isFile()) throw new NotFoundError(`no console file ${path}`);
    secure(ctx);
    // The name carries the content's hash: a new build has new names, so a copy never goes stale.
    ctx.set('Cache-Control', 'public, max-age=31536000, immutable');
    ctx.type = type;
    ctx.length = info.size;
    ctx.body = createReadStream(file);
  };
}
