/**
 * Secrets: values kept encrypted at rest (secret-cipher.ts) and installed into jobs, as
 * environment variables or files of their instances (a job's `secrets`, model/job.ts).
 *
 *   POST /secrets ─▶ secret.create (version 1)      PUT /secrets/{uuid} ─▶ secret.create (version n+1)
 *                                                       └─▶ every job it is installed in is updated
 *                                                           to the new version: its instances roll
 *                                                           by the job's rollout settings
 *   a job's `secrets` gains / loses one ─▶ secret.install / secret.uninstall (jobs/job-actor.ts)
 *   DELETE /secrets/{uuid} ─▶ refused (409) while a job has it installed, or a job change that
 *                             installs it is being written (`hold`); else secret.delete
 *
 * A value is never answered, logged, put in an error or an audit record: the API shows a
 * secret's FQN, description, size and version only. Secrets are few and change rarely: their
 * records are kept in memory (sealed; opened when an instance is started) and their writes go
 * through one mailbox, which also keeps their FQNs unique.
 */
import { z } from 'zod';
import { Mailbox } from '../actors/mailbox.js';
import type { ChangeContext, Deps } from '../context.js';
import { ConflictError, DuplicateError, InvalidRequestError, NotFoundError } from '../errors.js';
import type { SecretHold } from '../jobs/job-secrets.js';
import type { JobService } from '../jobs/job-service.js';
import { fqnMatcher, parseFqn, type Fqn } from '../model/fqn.js';
import type { Job } from '../model/job.js';
import { parseInput, str } from '../model/validate.js';
import type { ReferenceCheck, ReferenceLookup } from '../policy/references.js';
import { keys } from '../store/keys.js';
import type { BatchOp } from '../store/store.js';
import { formatTimestampNs } from '../util/clock.js';
import type { SealedValue, SecretCipher } from './secret-cipher.js';

/** The largest value, in bytes. */
export const MAX_SECRET_BYTES = 64 * 1024;

/** A secret as the API shows it: everything but its value. */
export interface Secret {
  uuid: string;
  fqn: string;
  name: string;
  description: string;
  /** Bytes of the value. */
  size: number;
  version_id: number;
  created_at: string;
  updated_at: string;
  created_by: string;
  updated_by: string;
}

interface StoredSecret extends Secret {
  value: SealedValue;
}

const valueFields = {
  value: z.string({ error: 'expected a string' }).optional(),
  value_base64: z.string({ error: 'expected a string' }).optional(),
  description: str(1024).optional(),
};

/** POST /secrets: the FQN and the value, as text or as base64 for bytes. */
export const secretCreateSchema = z.object({ fqn: str(512), ...valueFields });
/** PUT /secrets/{uuid}: a new value (a new version), and the description. */
export const secretUpdateSchema = z.object({ fqn: str(512).optional(), ...valueFields });

export const secretViewSchema = z.object({
  uuid: z.string(),
  fqn: z.string(),
  name: z.string(),
  description: z.string(),
  size: z.number().int(),
  version_id: z.number().int(),
  created_at: z.string(),
  updated_at: z.string(),
  created_by: z.string(),
  updated_by: z.string(),
});

function view(s: StoredSecret): Secret {
  const { value: _value, ...shown } = s;
  return shown;
}

/** The value a body gives, as bytes; a body with neither or both is refused. */
function valueOf(input: { value?: string | undefined; value_base64?: string | undefined }, required: boolean): Buffer | undefined {
  if (input.value !== undefined && input.value_base64 !== undefined) throw new InvalidRequestError('give the value as value or as value_base64, not both');
  let value: Buffer | undefined;
  if (input.value !== undefined) value = Buffer.from(input.value, 'utf8');
  else if (input.value_base64 !== undefined) {
    if (!/^[A-Za-z0-9+/]*={0,2}$/.test(input.value_base64) || input.value_base64.length % 4 !== 0) throw new InvalidRequestError('value_base64: not base64');
    value = Buffer.from(input.value_base64, 'base64');
  }
  if (value === undefined) {
    if (required) throw new InvalidRequestError('a secret needs a value: value (text) or value_base64 (bytes)');
    return undefined;
  }
  if (value.length > MAX_SECRET_BYTES) throw new InvalidRequestError(`the value is ${value.length} bytes, over the limit of ${MAX_SECRET_BYTES}`);
  if (value.includes(0) && input.value !== undefined) throw new InvalidRequestError('value: must not hold NUL');
  return value;
}

/** What each record's ciphertext is bound to. */
const sealContext = (uuid: string, version: number) => `secret/${uuid}/${version}`;

export interface SecretServiceOptions {
  /** The controller's own writes (updating jobs to a secret's new version): existence checks only. */
  trusted: ReferenceCheck;
}

export class SecretService {
  readonly #secrets = new Map<string, StoredSecret>();
  readonly #byFqn = new Map<string, string>();
  readonly #writes = new Mailbox();
  /** Job changes being written that install each secret (hold), by uuid. */
  readonly #held = new Map<string, number>();
  /** The secrets whose delete is running: no job change may hold them. */
  readonly #deleting = new Set<string>();
  /** Rolls of jobs to a secret version made while they were being written (hold). */
  readonly #late = new Set<Promise<void>>();

  constructor(
    private readonly deps: Deps,
    private readonly cipher: SecretCipher,
    private readonly jobs: JobService,
    private readonly options: SecretServiceOptions,
  ) {}

  /** Reads the records; a record sealed with another key stops the start (the operator gave the wrong key). */
  async load(): Promise<number> {
    for await (const [, value] of this.deps.store.iterate({ prefix: keys.secretPrefix })) {
      const s = JSON.parse(value) as StoredSecret;
      if (s.value.key !== this.cipher.keyId) {
        throw new Error(`secret ${s.fqn} was sealed with secrets key ${s.value.key}, and this controller's key is ${this.cipher.keyId}: start it with the key the secrets were written with`);
      }
      this.#secrets.set(s.uuid, s);
      this.#byFqn.set(s.fqn, s.uuid);
    }
    return this.#secrets.size;
  }

  #parseFqn(fqn: string): Fqn {
    return parseFqn(fqn, { type: 'secret', localName: 'required' });
  }

  create(body: unknown, ctx: ChangeContext): Promise<Secret> {
    const input = parseInput(secretCreateSchema, body, 'secret');
    const fqn = this.#parseFqn(input.fqn);
    const value = valueOf(input, true)!;
    return this.#writes.post(async () => {
      const existing = this.#byFqn.get(input.fqn);
      if (existing !== undefined) throw new DuplicateError(`secret ${input.fqn} exists already (uuid ${existing})`);
      const now = formatTimestampNs(this.deps.clock.nowNs());
      const uuid = this.deps.ids.uuid();
      const secret: StoredSecret = {
        uuid,
        fqn: input.fqn,
        name: fqn.localName!,
        description: input.description ?? '',
        size: value.length,
        version_id: 1,
        created_at: now,
        updated_at: now,
        created_by: ctx.principal,
        updated_by: ctx.principal,
        value: this.cipher.seal(value, sealContext(uuid, 1)),
      };
      await this.deps.store.batch([
        { type: 'put', key: keys.secret(uuid), value: JSON.stringify(secret) },
        { type: 'put', key: keys.secretByFqn(secret.fqn), value: uuid },
        this.deps.audit.entry(ctx, 'secret.create', secret.fqn, { version_id: 1, size: secret.size }),
      ]);
      this.#secrets.set(uuid, secret);
      this.#byFqn.set(secret.fqn, uuid);
      this.deps.log.info('secret created', { secret: uuid, fqn: secret.fqn, request_id: ctx.requestId });
      return view(secret);
    });
  }

  /** A new value (a new version) and/or description; the jobs it is installed in roll to the new version. */
  async update(uuid: string, body: unknown, ctx: ChangeContext): Promise<Secret> {
    const input = parseInput(secretUpdateSchema, body, 'secret');
    const value = valueOf(input, false);
    const { secret, changedValue } = await this.#writes.post(async () => {
      const current = this.#secrets.get(uuid);
      if (!current) throw new NotFoundError(`secret ${uuid} not found`);
      if (input.fqn !== undefined && input.fqn !== current.fqn) throw new InvalidRequestError(`fqn: a secret's fqn cannot be changed (this secret is ${current.fqn})`);
      const description = input.description ?? current.description;
      if (value === undefined && description === current.description) return { secret: current, changedValue: false };
      const version = value === undefined ? current.version_id : current.version_id + 1;
      const next: StoredSecret = {
        ...current,
        description,
        ...(value === undefined ? {} : { size: value.length, value: this.cipher.seal(value, sealContext(uuid, version)) }),
        version_id: version,
        updated_at: formatTimestampNs(this.deps.clock.nowNs()),
        updated_by: ctx.principal,
      };
      const ops: BatchOp[] = [{ type: 'put', key: keys.secret(uuid), value: JSON.stringify(next) }];
      // A new value is a new version of the secret: recorded as its creation, with the version.
      if (value !== undefined) ops.push(this.deps.audit.entry(ctx, 'secret.create', next.fqn, { version_id: version, replaces: current.version_id, size: next.size }));
      await this.deps.store.batch(ops);
      this.#secrets.set(uuid, next);
      this.deps.log.info('secret changed', { secret: uuid, fqn: next.fqn, version_id: version, request_id: ctx.requestId });
      return { secret: next, changedValue: value !== undefined };
    });
    if (changedValue) await this.#rollJobs(secret, ctx);
    return view(secret);
  }

  /**
   * Updates every job the secret is installed in to its current version (job.update): their
   * instances are replaced by their rollout settings. A job that cannot be updated now (deleted
   * meanwhile) is logged and left; its next update takes the new version.
   */
  async #rollJobs(secret: StoredSecret, ctx: ChangeContext): Promise<void> {
    for (const jobUuid of await this.jobsOf(secret.uuid)) await this.#rollJob(jobUuid, secret, ctx);
  }

  async #rollJob(jobUuid: string, secret: StoredSecret, ctx: ChangeContext): Promise<void> {
    try {
      const job = await this.jobs.find(jobUuid);
      if (!job) return;
      await this.jobs.update(jobUuid, this.jobs.inputOf(job), ctx, this.options.trusted, { mode: 'patch' });
    } catch (err) {
      this.deps.log.warn('a job was not updated to the new version of a secret', { job: jobUuid, secret: secret.uuid, err: (err as Error).message, request_id: ctx.requestId });
    }
  }

  /** The uuids of the jobs the secret is installed in. */
  async jobsOf(uuid: string): Promise<string[]> {
    const prefix = keys.secretJobsPrefix(uuid);
    const found: string[] = [];
    for await (const [key] of this.deps.store.iterate({ prefix })) found.push(key.slice(prefix.length));
    return found;
  }

  /**
   * Holds secrets while a job change that installs them is written (jobs/job-secrets.ts). Checks
   * and counts in one turn, as `delete` checks and marks in one: either the delete sees the hold
   * (or, once released, the job's index entry written under it) and is refused, or the hold sees
   * the delete and is refused.
   */
  hold(secrets: readonly { uuid: string; fqn: string }[]): SecretHold {
    for (const s of secrets) {
      if (this.#deleting.has(s.uuid)) throw new ConflictError(`secrets: secret ${s.fqn} is being deleted`, { details: { secret: s.fqn } });
      if (!this.#secrets.has(s.uuid)) throw new InvalidRequestError(`secrets: secret ${s.fqn} does not exist`);
    }
    const uuids = [...new Set(secrets.map((s) => s.uuid))];
    for (const u of uuids) this.#held.set(u, (this.#held.get(u) ?? 0) + 1);
    const versions = this.versions(uuids);
    let released = false;
    return {
      versions,
      release: (jobUuid) => {
        if (released) return;
        released = true;
        for (const u of uuids) {
          const n = (this.#held.get(u) ?? 1) - 1;
          if (n === 0) this.#held.delete(u);
          else this.#held.set(u, n);
        }
        // A new version made while the job was being written: its roll may have missed the job
        // (not in the index yet) or been written over with the version held: roll it now.
        const newer = uuids.map((u) => this.#secrets.get(u)).find((s) => s !== undefined && s.version_id !== versions.get(s.uuid));
        if (jobUuid !== undefined && newer) {
          const ctx = { principal: newer.updated_by, requestId: this.deps.ids.requestId() };
          const roll: Promise<void> = this.#rollJob(jobUuid, newer, ctx).finally(() => this.#late.delete(roll));
          this.#late.add(roll);
        }
      },
    };
  }

  /** Waits for the rolls started when a job change gave a secret back (see `hold`). */
  async settled(): Promise<void> {
    while (this.#late.size > 0) await Promise.all([...this.#late]);
  }

  delete(uuid: string, ctx: ChangeContext): Promise<void> {
    return this.#writes.post(async () => {
      const current = this.#secrets.get(uuid);
      if (!current) throw new NotFoundError(`secret ${uuid} not found`);
      if (this.#held.has(uuid)) {
        throw new ConflictError(`secret ${current.fqn} is being installed in a job now, and a secret installed in a job cannot be deleted; take it out of that job first`, { details: { installing: true } });
      }
      // From here on no job change may hold it; the index read below sees every change that did.
      this.#deleting.add(uuid);
      try {
        const users = await this.jobsOf(uuid);
        if (users.length > 0) {
          const fqns = (await Promise.all(users.slice(0, 10).map((j) => this.jobs.find(j)))).map((j, i) => j?.fqn ?? users[i]!);
          throw new ConflictError(`secret ${current.fqn} is installed in ${fqns.join(', ')}${users.length > 10 ? ' and more' : ''}; take it out of those jobs first`, {
            details: { jobs: fqns },
          });
        }
        await this.deps.store.batch([
          { type: 'del', key: keys.secret(uuid) },
          { type: 'del', key: keys.secretByFqn(current.fqn) },
          this.deps.audit.entry(ctx, 'secret.delete', current.fqn, { version_id: current.version_id }),
        ]);
        this.#secrets.delete(uuid);
        this.#byFqn.delete(current.fqn);
      } finally {
        this.#deleting.delete(uuid);
      }
      this.deps.log.info('secret deleted', { secret: uuid, fqn: current.fqn, request_id: ctx.requestId });
    });
  }

  get(uuid: string): Secret | undefined {
    const s = this.#secrets.get(uuid);
    return s && view(s);
  }

  /** The secrets `visible` accepts, by FQN; `fqn` (with `partial`: a namespace or prefix) narrows them. */
  list(visible: (fqn: string) => boolean, fqn?: Fqn, partial = false): Secret[] {
    const match = fqn ? fqnMatcher(fqn, partial) : () => true;
    return [...this.#secrets.values()]
      .filter((s) => visible(s.fqn) && match(parseFqn(s.fqn, { type: 'secret' })))
      .sort((a, b) => (a.fqn < b.fqn ? -1 : a.fqn > b.fqn ? 1 : 0))
      .map(view);
  }

  /** How jobs refer to secrets (policy/references.ts): by FQN (a job's `secrets`) or uuid. */
  referenceLookup(): ReferenceLookup {
    return {
      byUuid: async (uuids) => new Map(uuids.flatMap((u) => (this.#secrets.has(u) ? [[u, this.#secrets.get(u)!.fqn] as const] : []))),
      byFqn: async (fqns) => new Map(fqns.flatMap((f) => (this.#byFqn.has(f) ? [[f, this.#byFqn.get(f)!] as const] : []))),
    };
  }

  /** The current version of each secret (jobs stamp it on their `secrets`). */
  versions(uuids: readonly string[]): Map<string, number> {
    return new Map(uuids.flatMap((u) => (this.#secrets.has(u) ? [[u, this.#secrets.get(u)!.version_id] as const] : [])));
  }

  /**
   * The current value of a secret, opened; undefined when it is gone. An instance started while
   * its job is being rolled to a new version gets the new value too.
   */
  #valueFor(uuid: string): Buffer | undefined {
    const s = this.#secrets.get(uuid);
    return s && this.cipher.open(s.value, sealContext(uuid, s.version_id));
  }

  /** The environment variables of the job's secrets (`env` installs), for its instances. */
  environmentFor(job: Job): Record<string, string> {
    const env: Record<string, string> = {};
    for (const s of job.secrets ?? []) {
      if (s.env === undefined) continue;
      const value = this.#valueFor(s.uuid);
      if (value === undefined) this.deps.log.warn('a secret installed in a job is gone: its variable is not set', { job: job.uuid, secret: s.fqn, env: s.env });
      else env[s.env] = value.toString('utf8');
    }
    return env;
  }

  /** The files of the job's secrets (`file` installs): `secrets/<file>` in the instance's platform files. */
  filesFor(job: Job): { name: string; content: Uint8Array }[] {
    const files: { name: string; content: Uint8Array }[] = [];
    for (const s of job.secrets ?? []) {
      if (s.file === undefined) continue;
      const value = this.#valueFor(s.uuid);
      if (value === undefined) this.deps.log.warn('a secret installed in a job is gone: its file is not written', { job: job.uuid, secret: s.fqn, file: s.file });
      else files.push({ name: `secrets/${s.file}`, content: value });
    }
    return files;
  }
}
