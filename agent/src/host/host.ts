/**
 * What the agent says about its host in Hello: its uuid (kept in the data directory across
 * restarts), hostname, total resources and detected system tags.
 */
import { randomUUID } from 'node:crypto';
import { mkdirSync, readFileSync, statfsSync, writeFileSync } from 'node:fs';
import { arch, availableParallelism, hostname, platform, totalmem } from 'node:os';
import { join } from 'node:path';
import type { Resources } from '@platform/proto';

/** The agent's uuid: read from `<dataDir>/agent-uuid`, created on the first start. */
export function loadOrCreateUuid(dataDir: string): string {
  const file = join(dataDir, 'agent-uuid');
  try {
    const text = readFileSync(file, 'utf8').trim();
    if (/^[0-9a-f-]{36}$/i.test(text)) return text;
  } catch {
    // first start
  }
  mkdirSync(dataDir, { recursive: true });
  const uuid = randomUUID();
  writeFileSync(file, `${uuid}\n`, { mode: 0o644 });
  return uuid;
}

/**
 * Total resources offered to instances: cpu = cores x 1000 (ms of CPU per second), memory = the
 * host's total memory, disk = free space of the data directory's file system (bytes), less
 * `reservedDisk` (what the package cache may still grow into).
 */
export function detectResources(dataDir: string, reservedDisk = 0): Resources {
  let disk: number;
  try {
    const fs = statfsSync(dataDir);
    disk = Math.max(0, Number(fs.bavail) * Number(fs.bsize) - reservedDisk);
  } catch {
    disk = 0;
  }
  return { cpu: availableParallelism() * 1000, memory: totalmem(), disk, network: 0, netmax: 0 };
}

export function hostName(): string {
  return hostname();
}

export function systemTags(isolation: string, cgroups: string): string[] {
  return [`isolation:${isolation}`, `os:${platform()}`, `arch:${arch()}`, `cgroups:${cgroups}`];
}
