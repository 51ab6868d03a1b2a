/**
 * References: what a request body names besides the resource it writes (a job's
 * packages, a pipeline's stager jobs, a package's staging pipeline; bindings,
 * links, services and networks as they arrive) is resolved and authorised here,
 * in one place, for the caller of the request.
 *
 *   const refs = references(ctx)                       in an endpoint: bound to the caller
 *   await refs.resolve([{ type: 'package', uuid, permission: 'use', field: 'packages' }])
 *
 * Each reference needs `permit <permission>` on the FQN it names:
 *
 *   does not exist, or the caller may not even read it   400 `<field>: no <type> <id>`, the same
 *                                                        answer for both, so that the answer is
 *                                                        no oracle of others' uuids and FQNs
 *   the caller may read it but lacks the permission      403 with missing_claims
 *
 * Both refusals record `policy.access.denied` for the permission on the
 * referenced FQN (as the `log` setting of the audit realm asks), like every
 * other denial. Nothing is written before every reference is resolved.
 *
 * Services take a ReferenceCheck for their create and update operations, so
 * that no path that writes a reference can skip it; the controller's own
 * writes (built-ins) use `trusted()`, which checks existence only.
 *
 * Which types may be referenced is what the composition registers
 * (`register`); a reference to a type with no lookup is a bug (500), never an
 * open door.
 */
import { InvalidRequestError } from '../errors.js';
import type { ResourceType } from '../model/fqn.js';

/** A reference in a body, by uuid or by FQN (when both are given they must name the same resource). */
export interface Reference {
  type: ResourceType;
  uuid?: string;
  fqn?: string;
  /** The claim the caller needs on the referenced resource. */
  permission: string;
  /** Where the reference sits in the body, for messages (`packages`, `stagers`, `staging_pipeline`). */
  field: string;
}

/** What the check asks of the caller's rights: RequestAccess in access.ts. */
export interface ReferenceAuthoriser {
  /** 'allowed', or 'hidden' when the caller may not even read `fqn`; throws ForbiddenError otherwise. */
  requireReferenced(fqn: string, permission: string): Promise<'allowed' | 'hidden'>;
}

/** A reference found (and allowed). */
export interface Resolved {
  uuid: string;
  fqn: string;
}

/**
 * Finds the resources of one type. Contract: answers only for the keys that
 * exist; reads only (no actor is activated).
 */
export interface ReferenceLookup {
  /** The FQN of each uuid that exists. */
  byUuid(uuids: readonly string[]): Promise<Map<string, string>>;
  /** The uuid of each FQN that exists; absent when the type is never named by FQN. */
  byFqn?(fqns: readonly string[]): Promise<Map<string, string>>;
}

/**
 * Dependencies are references too, made by name (`runtime.node`) instead of by uuid: the packages
 * that satisfy a job's or a package's dependencies are chosen only among those its principal
 * (the `updated_by` of the job, or of the package being staged) may `use`, or another user could
 * provide a better match and have it installed into that job. This is the filter for one principal;
 * `usable` in access.ts makes it.
 */
export type UsableBy = (principal: string) => { visible: (fqn: string) => boolean; visibleKey: string } | undefined;

/** Resolves the references of one body, for one caller; throws as the file comment says. */
export interface ReferenceCheck {
  /** The resources referenced, in the order of `refs`. */
  resolve(refs: readonly Reference[]): Promise<Resolved[]>;
}

const TYPE_WORDS: Partial<Record<ResourceType, string>> = { stagpipe: 'staging pipeline' };

/** How a reference names its resource, for messages. */
function named(ref: Reference): string {
  return ref.uuid !== undefined ? `with uuid ${ref.uuid}` : (ref.fqn ?? '');
}

/** Whether the caller may use a resource: 'hidden' answers as if it did not exist. */
type Verdict = 'allowed' | 'hidden';

/** What a reference's uuid and FQN found (each absent when not given or not found). */
interface Found {
  byUuid?: Resolved;
  byFqn?: Resolved;
}

export class ReferenceResolver {
  readonly #lookups = new Map<ResourceType, ReferenceLookup>();

  /** Makes `type` referencable. Called once per type by the composition. */
  register(type: ResourceType, lookup: ReferenceLookup): void {
    if (this.#lookups.has(type)) throw new Error(`references to ${type} are registered twice`);
    this.#lookups.set(type, lookup);
  }

  /** The check of one request's caller (its RequestAccess, access.ts). */
  forCaller(access: ReferenceAuthoriser): ReferenceCheck {
    return { resolve: (refs) => this.#resolve(refs, (fqn, permission) => access.requireReferenced(fqn, permission)) };
  }

  /** For the controller's own writes: existence only. */
  trusted(): ReferenceCheck {
    return { resolve: (refs) => this.#resolve(refs, async () => 'allowed') };
  }

  async #resolve(refs: readonly Reference[], authorise: (fqn: string, permission: string) => Promise<Verdict>): Promise<Resolved[]> {
    if (refs.length === 0) return [];
    const found = await this.#find(refs);
    const missing: Reference[] = [];
    const out: Resolved[] = [];
    // Every reference is looked at before anything is refused, so that the answer names all
    // that are missing; a permission lacking on a resource the caller can see throws 403 at once.
    for (const [i, ref] of refs.entries()) {
      const { byUuid, byFqn } = found[i]!;
      // Each resource found is authorised once (a uuid and an FQN may name the same one).
      const given = new Map([byUuid, byFqn].filter((h): h is Resolved => h !== undefined).map((h) => [h.uuid, h]));
      let usable = true;
      for (const hit of given.values()) {
        if ((await authorise(hit.fqn, ref.permission)) === 'hidden') usable = false;
      }
      const hit = byUuid ?? byFqn;
      if (!usable || !hit || (ref.uuid !== undefined && !byUuid) || (ref.fqn !== undefined && !byFqn)) {
        missing.push(ref);
        continue;
      }
      // Only now, both being the caller's to see, may the answer say that they differ.
      if (byUuid && byFqn && byUuid.uuid !== byFqn.uuid) {
        throw new InvalidRequestError(`${ref.field}: uuid ${byUuid.uuid} is ${byUuid.fqn}, not ${byFqn.fqn}`);
      }
      out.push(hit);
    }
    if (missing.length > 0) {
      const first = missing[0]!;
      const word = TYPE_WORDS[first.type] ?? first.type;
      throw new InvalidRequestError(`${first.field}: no ${word} ${missing.filter((m) => m.field === first.field).map(named).join(', ')}`, {
        details: { field: first.field, missing: missing.map((m) => m.uuid ?? m.fqn ?? '') },
      });
    }
    return out;
  }

  /** What each reference's uuid and FQN name, looked up once per type. */
  async #find(refs: readonly Reference[]): Promise<Found[]> {
    const byType = new Map<ResourceType, { uuids: Set<string>; fqns: Set<string> }>();
    for (const ref of refs) {
      let wanted = byType.get(ref.type);
      if (!wanted) byType.set(ref.type, (wanted = { uuids: new Set(), fqns: new Set() }));
      if (ref.uuid !== undefined) wanted.uuids.add(ref.uuid);
      if (ref.fqn !== undefined) wanted.fqns.add(ref.fqn);
    }
    const answers = new Map<ResourceType, { fqnOf: Map<string, string>; uuidOf: Map<string, string> }>();
    for (const [type, wanted] of byType) {
      const lookup = this.#lookups.get(type);
      if (!lookup) throw new Error(`no lookup is registered for references to ${type}`);
      if (wanted.fqns.size > 0 && !lookup.byFqn) throw new Error(`references to ${type} by FQN have no lookup`);
      answers.set(type, {
        fqnOf: wanted.uuids.size > 0 ? await lookup.byUuid([...wanted.uuids]) : new Map(),
        uuidOf: wanted.fqns.size > 0 ? await lookup.byFqn!([...wanted.fqns]) : new Map(),
      });
    }
    return refs.map((ref) => {
      const { fqnOf, uuidOf } = answers.get(ref.type)!;
      const fqn = ref.uuid === undefined ? undefined : fqnOf.get(ref.uuid);
      const uuid = ref.fqn === undefined ? undefined : uuidOf.get(ref.fqn);
      return {
        ...(fqn === undefined ? {} : { byUuid: { uuid: ref.uuid!, fqn } }),
        ...(uuid === undefined ? {} : { byFqn: { uuid, fqn: ref.fqn! } }),
      };
    });
  }
}
