/**
 * Policy documents: storage, versions, and the engine built from them.
 *
 * Each document `policydoc::/::<name>` is kept under `policydoc/<name>` (the
 * current version) and `policydoc-ver/<name>/<version>` (every version ever
 * written). Changes go through one mailbox: a PUT validates all its documents,
 * builds the engine they would make, and only then writes every document and
 * its audit record in ONE store batch; then the new engine replaces the old.
 * Nothing is written when anything is wrong.
 *
 * Deleting: a document PUT with empty text is deleted (`policy.delete`); its
 * versions stay readable with `?version=N`, and writing it again continues
 * its version numbers.
 */
import { z } from 'zod';
import { int, parseInput } from '../model/validate.js';
import type { ChangeContext, Deps } from '../context.js';
import { Mailbox } from '../actors/mailbox.js';
import { ConflictError, InvalidRequestError, NotFoundError, TooLargeError } from '../errors.js';
import { keys } from '../store/keys.js';
import { getJson, type BatchOp } from '../store/store.js';
import { formatTimestampNs } from '../util/clock.js';
import { BOOTSTRAP_POLICY, BOOTSTRAP_POLICY_NAME } from './bootstrap.js';
import { PolicyEngine, type Caller } from './engine.js';
import { PolicyParseError } from './errors.js';
import { POLICY_REALM } from './permissions.js';

/** The wire form (spec: PolicyDocument; every field a string). */
export interface PolicyDocument {
  name: string;
  description: string;
  updated_at: string;
  text: string;
  version: string;
}

interface StoredPolicyDoc {
  name: string;
  description: string;
  text: string;
  version: number;
  updated_at: string;
  updated_by: string;
  deleted?: boolean;
}

/** The largest document, in bytes of UTF-8 text. */
export const MAX_POLICY_DOC_BYTES = 512 * 1024;
/** Documents in one PUT. */
export const MAX_DOCS_PER_PUT = 64;
const NAME_RE = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,127}$/;

export function policyDocFqn(name: string): string {
  return `policydoc::/::${name}`;
}

function view(d: StoredPolicyDoc): PolicyDocument {
  return { name: d.name, description: d.description, updated_at: d.updated_at, text: d.text, version: String(d.version) };
}

interface DocInput {
  name: string;
  forVersion: number;
  text: string;
  description: string | undefined;
}

/**
 * The body of PUT /v1/policy: `{"docs":[{"name","for_version","text"[,"description"]}]}`.
 * The schema the handler validates with and the OpenAPI document describes.
 */
export const policyPutSchema = z.object({
  docs: z
    .array(
      z.object({
        name: z.string({ error: 'expected a string' }).regex(NAME_RE, { error: 'expected 1 to 128 of letters, digits, "_", "." and "-", starting with a letter or digit' }),
        // A number, or its decimal text (older clients send strings).
        for_version: z.union([int(0), z.string().regex(/^\d{1,10}$/)], {
          error: (i) => `expected the version the change is based on (0 for a new document), got ${JSON.stringify(i.input)}`,
        }),
        text: z.string({ error: 'expected a string' }),
        description: z.string({ error: 'expected a string of at most 1024 characters' }).max(1024, { error: 'expected a string of at most 1024 characters' }).optional(),
      }),
      { error: 'expected a non-empty array of {"name", "for_version", "text"}' },
    )
    .min(1, { error: 'expected a non-empty array of {"name", "for_version", "text"}' })
    .max(MAX_DOCS_PER_PUT, { error: `at most ${MAX_DOCS_PER_PUT} documents per request` }),
});

/** Checks the body of PUT /v1/policy with policyPutSchema, then what a schema does not say: names given twice, sizes in bytes. */
function parsePutBody(body: Record<string, unknown>): DocInput[] {
  const input = parseInput(policyPutSchema, body, 'policy request');
  const seen = new Set<string>();
  return input.docs.map((d, i) => {
    if (seen.has(d.name)) throw new InvalidRequestError(`docs[${i}].name: "${d.name}" appears twice in this request`);
    seen.add(d.name);
    const bytes = Buffer.byteLength(d.text, 'utf8');
    if (bytes > MAX_POLICY_DOC_BYTES) {
      throw new TooLargeError(`policy "${d.name}" is ${bytes} bytes, over the limit of ${MAX_POLICY_DOC_BYTES} bytes per document`);
    }
    return { name: d.name, forVersion: Number(d.for_version), text: d.text, description: d.description };
  });
}

/** A parse error becomes the closed-set 400, with the position in error_details. */
function invalidPolicy(err: unknown): never {
  if (err instanceof PolicyParseError) {
    throw new InvalidRequestError(err.message, { details: { policy: err.docName, line: err.line, column: err.column, reason: err.reason } });
  }
  throw err;
}

/**
 * `quota.update` records for what a policy change does to the quotas: one per realm whose quotas
 * change, on `quota::<namespace as the realm writes it>`, with a patch per quota
 * (`quota/total.memory`: add, replace with the old value, remove).
 */
function quotaChanges(before: PolicyEngine, after: PolicyEngine, entry: (fqn: string, payload: Record<string, unknown>) => BatchOp): BatchOp[] {
  const was = before.quotaRules();
  const now = after.quotaRules();
  const ops: BatchOp[] = [];
  for (const realm of new Set([...was.keys(), ...now.keys()])) {
    const old = was.get(realm) ?? {};
    const next = now.get(realm) ?? {};
    const patches: Record<string, unknown>[] = [];
    for (const name of Object.keys({ ...old, ...next }).sort()) {
      const path = `quota/${name}`;
      if (!(name in old)) patches.push({ op: 'add', path, value: next[name] });
      else if (!(name in next)) patches.push({ op: 'remove', path, value: old[name] });
      else if (old[name] !== next[name]) patches.push({ op: 'replace', path, value: next[name], oldvalue: old[name] });
    }
    // The realm's namespace: a quota:: or *:: realm is audited as quota::<namespace>.
    if (patches.length > 0) ops.push(entry(`quota::${realm.slice(realm.indexOf('::') + 2)}`, { realm, patches }));
  }
  return ops;
}

export class PolicyService {
  readonly #docs = new Map<string, StoredPolicyDoc>();
  readonly #writes = new Mailbox();
  #engine: PolicyEngine = PolicyEngine.build([]);

  constructor(private readonly deps: Pick<Deps, 'store' | 'clock' | 'log' | 'audit'>) {}

  /** The engine of the current documents. Replaced whole on every change; never mutated. */
  get engine(): PolicyEngine {
    return this.#engine;
  }

  /**
   * Loads the stored documents and builds the engine. On the first start (no
   * document ever stored) writes the bootstrap policy first. A stored document
   * that no longer builds is left out and logged: leaving a document out only
   * takes grants away, never adds any.
   */
  async load(ctx: ChangeContext): Promise<{ bootstrapped: boolean; documents: number }> {
    let bootstrapped = false;
    let any = false;
    for await (const _ of this.deps.store.iterate({ prefix: keys.policyDocVersionPrefix, limit: 1 })) any = true;
    if (!any) {
      const doc: StoredPolicyDoc = {
        name: BOOTSTRAP_POLICY_NAME,
        description: 'The bootstrap policy: admin may do everything; each user owns /sandbox/<name>.',
        text: BOOTSTRAP_POLICY,
        version: 1,
        updated_at: formatTimestampNs(this.deps.clock.nowNs()),
        updated_by: ctx.principal,
      };
      await this.deps.store.batch([...this.#writeOps(doc), this.deps.audit.entry(ctx, 'policy.add', policyDocFqn(doc.name), { version: 1 })]);
      bootstrapped = true;
    }
    for await (const [, value] of this.deps.store.iterate({ prefix: keys.policyDocPrefix })) {
      const doc = JSON.parse(value) as StoredPolicyDoc;
      this.#docs.set(doc.name, doc);
    }
    const live = this.#live();
    for (;;) {
      try {
        this.#engine = PolicyEngine.build(live.map((d) => ({ name: d.name, text: d.text })));
        break;
      } catch (err) {
        if (!(err instanceof PolicyParseError)) throw err;
        this.deps.log.error('a stored policy document does not build; it is left out until it is fixed', { policy: err.docName, error: err.message });
        const i = live.findIndex((d) => d.name === err.docName);
        if (i < 0) throw err;
        live.splice(i, 1);
      }
    }
    return { bootstrapped, documents: live.length };
  }

  #live(): StoredPolicyDoc[] {
    return [...this.#docs.values()].filter((d) => !d.deleted).sort((a, b) => (a.name < b.name ? -1 : 1));
  }

  #writeOps(doc: StoredPolicyDoc): BatchOp[] {
    const value = JSON.stringify(doc);
    return [
      { type: 'put', key: keys.policyDoc(doc.name), value },
      { type: 'put', key: keys.policyDocVersion(doc.name, doc.version), value },
    ];
  }

  /** The current documents, by name. */
  list(): PolicyDocument[] {
    return this.#live().map(view);
  }

  /** A document's current version, or the version asked for (also of a deleted document). */
  async get(name: string, version?: number): Promise<PolicyDocument> {
    if (version === undefined) {
      const doc = this.#docs.get(name);
      if (!doc || doc.deleted) throw new NotFoundError(`policy document "${name}" not found`);
      return view(doc);
    }
    const doc = NAME_RE.test(name) ? await getJson<StoredPolicyDoc>(this.deps.store, keys.policyDocVersion(name, version)) : undefined;
    if (!doc) throw new NotFoundError(`policy document "${name}" has no version ${version}`);
    return view(doc);
  }

  /**
   * Writes the documents of one PUT, all or none. Refuses (and writes nothing)
   * on a malformed body, a document over 512 KB (413), a parse error (400 with
   * line and column), a stale `for_version` (409), and a change that would take
   * `permit update` on `policy::/` away from the caller making it (409): the
   * last administrator cannot lock everyone out by mistake.
   */
  async put(body: Record<string, unknown>, caller: Caller, ctx: ChangeContext): Promise<PolicyDocument[]> {
    const inputs = parsePutBody(body);
    for (const input of inputs) {
      try {
        PolicyEngine.build([{ name: input.name, text: input.text }]);
      } catch (err) {
        // A role defined in another document is checked below with all documents.
        if (!(err instanceof PolicyParseError) || !/^role ".*" is not defined/.test(err.reason)) invalidPolicy(err);
      }
    }
    return this.#writes.post(async () => {
      const now = formatTimestampNs(this.deps.clock.nowNs());
      const next = new Map(this.#docs);
      const ops: BatchOp[] = [];
      const written: StoredPolicyDoc[] = [];
      for (const input of inputs) {
        const current = this.#docs.get(input.name);
        const currentVersion = current?.version ?? 0;
        const exists = current !== undefined && !current.deleted;
        if (input.forVersion !== currentVersion) {
          throw new ConflictError(
            `policy "${input.name}" is at version ${currentVersion}, not ${input.forVersion}; read it again and base the change on version ${currentVersion}`,
            { details: { policy: input.name, version: String(currentVersion) } },
          );
        }
        const deleting = input.text.trim() === '';
        if (deleting && !exists) throw new NotFoundError(`policy document "${input.name}" not found: an empty text deletes a document`);
        const description = input.description ?? current?.description ?? '';
        if (exists && !deleting && current.text === input.text && current.description === description) {
          written.push(current);
          continue;
        }
        const doc: StoredPolicyDoc = {
          name: input.name,
          description,
          text: deleting ? '' : input.text,
          version: currentVersion + 1,
          updated_at: now,
          updated_by: ctx.principal,
          ...(deleting ? { deleted: true } : {}),
        };
        next.set(doc.name, doc);
        written.push(doc);
        ops.push(...this.#writeOps(doc));
        const event = deleting ? 'policy.delete' : exists ? 'policy.update' : 'policy.add';
        const payload = exists
          ? { patches: [{ op: 'replace', path: 'policydoc/version', value: String(doc.version), oldvalue: String(currentVersion) }] }
          : { version: String(doc.version) };
        ops.push(this.deps.audit.entry(ctx, event, policyDocFqn(doc.name), payload));
      }
      if (ops.length === 0) return written.map(view);
      const live = [...next.values()].filter((d) => !d.deleted);
      let engine: PolicyEngine;
      try {
        engine = PolicyEngine.build(live.map((d) => ({ name: d.name, text: d.text })));
      } catch (err) {
        invalidPolicy(err);
      }
      ops.push(...quotaChanges(this.#engine, engine, (fqn, payload) => this.deps.audit.entry(ctx, 'quota.update', fqn, payload)));
      if (!engine.check(caller, POLICY_REALM, 'update').allowed) {
        throw new ConflictError(
          `this change would take permit update on policy::/ away from ${caller.principal}, who makes it; ` +
            'grant it to another user first, or keep it in the new policy',
        );
      }
      await this.deps.store.batch(ops);
      for (const doc of written) this.#docs.set(doc.name, doc);
      this.#engine = engine;
      this.deps.log.info('policy changed', {
        documents: written.map((d) => `${d.name}@${d.version}`),
        principal: ctx.principal,
        request_id: ctx.requestId,
      });
      return written.map(view);
    });
  }
}
