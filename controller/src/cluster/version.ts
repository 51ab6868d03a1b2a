import { readFileSync } from 'node:fs';

/** The controller's version, from its package.json. */
export const CONTROLLER_VERSION: string = (
  JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }
).version;

/** The oldest client version this controller answers correctly (the Minimum-Client-Version header). */
export const MINIMUM_CLIENT_VERSION = '0.1.0';

export interface VersionInfo {
  version: string;
  major: number;
  minor: number;
  patch: number;
  build_id: string;
  build_number: string;
  download_urls: Record<string, { url: string; size: number; sha256: string }>;
}

export function versionInfo(buildId: string, buildNumber: string, downloadUrls: VersionInfo['download_urls']): VersionInfo {
  const [major = 0, minor = 0, patch = 0] = CONTROLLER_VERSION.split(/[.-]/).map((n) => Number.parseInt(n, 10));
  return {
    version: CONTROLLER_VERSION,
    major,
    minor,
    patch,
    build_id: buildId,
    build_number: buildNumber,
    download_urls: downloadUrls,
  };
}
