import { readFileSync } from 'node:fs';

/** The CLI's version, from its package.json (replaced by the bundler in the downloadable build). */
export const CLI_VERSION: string =
  typeof PLATFORM_CLI_VERSION === 'string'
    ? PLATFORM_CLI_VERSION
    : (JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }).version;

declare const PLATFORM_CLI_VERSION: string | undefined;
