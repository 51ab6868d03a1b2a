/**
 * What a stager function is given: the client, a working root where the
 * package is extracted, and helpers for what every stager does.
 */
import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, readdir, rename, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { extractArchive, hashFile, packDirectory } from './archive.js';
import type { PackageMeta, RequirementType, StagerClient } from './client.js';

export type StagerOutcomeKind = 'done' | 'failed' | 'relaunch';

export interface StagerLogger {
  (line: string): void;
}

export class StagerContext {
  #outcome: StagerOutcomeKind | undefined;
  #meta: PackageMeta | undefined;

  constructor(
    readonly client: StagerClient,
    /** The package's root: `/app/x` of the package is `<root>/app/x` here. */
    readonly root: string,
    readonly log: StagerLogger,
  ) {}

  /** A fresh context with its own temporary root. */
  static async create(client: StagerClient, log: StagerLogger = (l) => process.stdout.write(`${l}\n`)): Promise<StagerContext> {
    return new StagerContext(client, await mkdtemp(join(tmpdir(), 'stager-')), log);
  }

  get outcome(): StagerOutcomeKind | undefined {
    return this.#outcome;
  }

  /** Where a path of the package lands here: `path('/app/x')` is `<root>/app/x`. */
  path(p: string): string {
    return join(this.root, p);
  }

  /** Downloads the package and extracts it under `root`. */
  async download(): Promise<void> {
    this.log('Downloading the package...');
    await extractArchive(await this.client.download(), this.root);
  }

  /**
   * Makes sure the application sits in `/app`: an upload of plain source files
   * (`index.js` at the top) is moved under `/app`; one that has only `app/` at
   * the top is left as it is. Returns the app directory.
   */
  async placeApp(dir = '/app'): Promise<string> {
    const top = await readdir(this.root);
    const name = dir.replace(/^\/+/, '');
    const target = this.path(dir);
    if (top.length === 1 && top[0] === name) return target;
    const staging = join(this.root, `.${name}-${process.pid}`);
    await mkdir(staging);
    for (const entry of top) await rename(join(this.root, entry), join(staging, entry));
    await mkdir(join(target, '..'), { recursive: true });
    await rename(staging, target);
    return target;
  }

  /** Packs `root` and uploads it as the package's new archive. */
  async upload(): Promise<void> {
    // Beside the root, not in it; unique per upload (several stagers may share a process in tests).
    const file = `${this.root}.upload-${randomBytes(6).toString('hex')}.tgz`;
    try {
      await packDirectory(this.root, file);
      const { sha256, length } = await hashFile(file);
      this.log(`Uploading the package (${length} bytes)...`);
      await this.client.uploadFile(file, sha256);
    } finally {
      await rm(file, { force: true });
    }
  }

  /** The package metadata as the coordinator has it now (cached until changed here). */
  async meta(): Promise<PackageMeta> {
    this.#meta ??= await this.client.meta();
    return this.#meta;
  }

  async setEnv(key: string, value: string): Promise<void> {
    this.#meta = undefined;
    await this.client.setEnvironment(key, value);
  }

  /** Sets START_COMMAND (and START_PATH, default /app). */
  async setStart(command: string, path = '/app'): Promise<void> {
    await this.setEnv('START_COMMAND', command);
    await this.setEnv('START_PATH', path);
  }

  async hasDependency(type: RequirementType, name: string): Promise<boolean> {
    return (await this.meta()).dependencies.some((d) => d.type === type && d.name === name);
  }

  async addDependency(type: RequirementType, name: string): Promise<void> {
    this.#meta = undefined;
    await this.client.addDependency(type, name);
  }

  async addProvides(type: RequirementType, name: string): Promise<void> {
    this.#meta = undefined;
    await this.client.addProvides(type, name);
  }

  async snapshot(directory?: string): Promise<void> {
    await this.client.snapshot(directory);
  }

  async done(): Promise<void> {
    this.#outcome = 'done';
    await this.client.done();
  }

  async failed(message?: string): Promise<void> {
    this.#outcome = 'failed';
    await this.client.failed(message);
  }

  /** Asks to be started again with the dependencies added so far installed; return after calling it. */
  async relaunch(): Promise<void> {
    this.#outcome = 'relaunch';
    await this.client.relaunch();
  }

  /** Removes the working root. */
  async dispose(): Promise<void> {
    await rm(this.root, { recursive: true, force: true });
  }
}
