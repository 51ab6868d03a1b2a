/** Builders for request bodies and archives. */
import { createHash, randomBytes } from 'node:crypto';
import { gzipSync } from 'node:zlib';

let counter = 0;
/** A name unique within the test run. */
export function unique(prefix = 'n'): string {
  counter++;
  return `${prefix}${counter}x${randomBytes(3).toString('hex')}`;
}

export function digestOf(data: Uint8Array, algorithm: 'sha1' | 'sha256' | 'sha384' | 'sha512' = 'sha256'): string {
  return `${algorithm}:${createHash(algorithm).update(data).digest('hex')}`;
}

/** A small gzip "archive" with random content. */
export function archive(size = 2048): Buffer {
  return gzipSync(randomBytes(size));
}

export function appJob(fqn: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    fqn,
    num_instances: 1,
    processes: { app: { start_command: 'node index.js' } },
    tags: { app: '' },
    ...extra,
  };
}
