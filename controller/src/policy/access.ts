/**
 * Enforcement: the one helper every endpoint calls before it acts.
 *
 *   await authorize(ctx, fqn, 'read')              403 unless the caller holds `permit read` on fqn
 *   await authorizeFound(ctx, fqn, 'delete', msg)  the same, but 404 (msg) when the caller may not
 *                                                  even read fqn: the resource's existence stays hidden
 *   canAccess(ctx, fqn, 'read')                    true/false, no audit record: for filtering listings
 *   readable(ctx, items, (i) => i.fqn)             the items the caller may read
 *   references(ctx)                                what the body names besides its own resource
 *                                                  (packages, stagers, pipelines...), resolved and
 *                                                  authorised for the caller: see references.ts
 *
 * A denial throws ForbiddenError (403, `missing_claims: ["permit read on <fqn>"]`)
 * after recording `policy.access.denied` with the claim payload
 * `{claim: {claimtype: "permit", claimvalue: "read"}}`. What is recorded follows
 * the `log` setting of the `audit::/` realm for the caller: `deny` (the
 * default) records denials, `allow` records allowed checks too, `none`
 * records neither. An allowed check writes nothing unless `log allow` asks,
 * and even then the request does not wait for the record.
 *
 * The `accessControl` middleware wraps authentication and gives each
 * authenticated request its `ctx.state.access`; requests without a user (the token endpoint,
 * /metrics) get none, and the helpers refuse them.
 */
import type { Middleware } from 'koa';
import type { ApiContext, ApiState } from '../api/endpoint.js';
import type { AuditTrail, ChangeContext } from '../context.js';
import { ForbiddenError, InvalidRequestError, NotFoundError } from '../errors.js';
import { parseFqn, type ResourceType } from '../model/fqn.js';
import type { Logger } from '@platform/proto/common';
import type { Caller, PolicyEngine } from './engine.js';
import type { LogLevel } from './parser.js';
import { AUDIT_REALM, AUTH_REALM, DEFAULT_TOKEN_TTL_SECONDS } from './permissions.js';
import type { PolicyService } from './policy-service.js';
import type { ReferenceCheck, ReferenceResolver, UsableBy } from './references.js';

/** What the `log` setting of the `audit::/` realm asks to record for `caller`; `deny` when unset. */
function auditLevel(engine: PolicyEngine, caller: Caller): LogLevel {
  return engine.settings(caller, AUDIT_REALM).log ?? 'deny';
}

declare module '../api/endpoint.js' {
  interface ApiState {
    /** What policy lets the authenticated user do; absent on unauthenticated paths (the token endpoint, /metrics). */
    access?: RequestAccess;
  }
}

/** The audit payload of an access check. */
function claimPayload(permission: string): Record<string, unknown> {
  return { claim: { claimtype: 'permit', claimvalue: permission } };
}

/** What the request may do; one per request, made by the `accessControl` middleware. */
export class RequestAccess {
  #references: ReferenceCheck | undefined;

  constructor(
    private readonly policy: PolicyService,
    private readonly audit: AuditTrail,
    private readonly log: Logger,
    readonly caller: Caller,
    private readonly change: ChangeContext,
    private readonly resolver: ReferenceResolver,
  ) {}

  /** True when the caller holds `permit <permission>` on `fqn`. Records nothing. */
  can(fqn: string, permission: string): boolean {
    return this.policy.engine.check(this.caller, fqn, permission).allowed;
  }

  /** The items whose FQN the caller may read, in their order. */
  readable<T>(items: readonly T[], fqnOf: (item: T) => string): T[] {
    const engine = this.policy.engine;
    return items.filter((item) => engine.check(this.caller, fqnOf(item), 'read').allowed);
  }

  /** Resolves when allowed; otherwise records the denial (as policy asks) and throws ForbiddenError. */
  async require(fqn: string, permission: string): Promise<void> {
    const engine = this.policy.engine;
    const decision = engine.check(this.caller, fqn, permission);
    const level = auditLevel(engine, this.caller);
    if (decision.allowed) {
      if (level === 'allow') this.#recordLater('policy.access.allowed', fqn, permission);
      return;
    }
    const missing = `${decision.missingClaim} on ${fqn}`;
    if (level !== 'none') await this.#record('policy.access.denied', fqn, permission);
    throw new ForbiddenError(`policy does not give ${this.caller.principal} ${missing}`, [missing]);
  }

  /**
   * Like `require`, for a resource found by uuid: when the caller may not even
   * read it, answers as if it did not exist (NotFoundError with `notFound`),
   * so that its existence and FQN do not leak. The denial is still recorded.
   */
  async requireFound(fqn: string, permission: string, notFound: string): Promise<void> {
    if ((await this.requireReferenced(fqn, permission)) === 'hidden') throw new NotFoundError(notFound);
  }

  /**
   * For a resource found by uuid or named in a body (references.ts): 'allowed' when the caller
   * holds `permit <permission>` on it; 'hidden' (the denial recorded) when it may not even read
   * it, to be answered like one that does not exist; otherwise throws ForbiddenError.
   */
  async requireReferenced(fqn: string, permission: string): Promise<'allowed' | 'hidden'> {
    const permits = this.policy.engine.permits(this.caller, fqn);
    if (permits.has(permission)) {
      // As `require` does for an allowed check, without asking the engine again.
      if (auditLevel(this.policy.engine, this.caller) === 'allow') this.#recordLater('policy.access.allowed', fqn, permission);
      return 'allowed';
    }
    if (!permits.has('read')) {
      if (auditLevel(this.policy.engine, this.caller) !== 'none') await this.#record('policy.access.denied', fqn, permission);
      return 'hidden';
    }
    await this.require(fqn, permission);
    return 'allowed';
  }

  /** The references of this request's bodies, checked for its caller. */
  get references(): ReferenceCheck {
    return (this.#references ??= this.resolver.forCaller(this));
  }

  #record(event: 'policy.access.allowed' | 'policy.access.denied', fqn: string, permission: string): Promise<void> {
    return this.audit.record(this.change, event, fqn, claimPayload(permission));
  }

  #recordLater(event: 'policy.access.allowed', fqn: string, permission: string): void {
    this.#record(event, fqn, permission).catch((err: unknown) =>
      this.log.error('could not record an allowed access', { fqn, permission, request_id: this.change.requestId, err }),
    );
  }
}

/**
 * Runs `authenticate`, then gives each authenticated request its
 * `ctx.state.access`. Takes the place of the authentication middleware.
 */
export function accessControl(
  policy: PolicyService,
  audit: AuditTrail,
  references: ReferenceResolver,
  authenticate: Middleware<ApiState>,
): Middleware<ApiState> {
  return (ctx, next) =>
    authenticate(ctx, async () => {
      const user = ctx.state.user;
      if (user) {
        // The user is the token's Caller, one object for a client's requests (auth/authenticate.ts).
        ctx.state.access = new RequestAccess(policy, audit, ctx.state.log, user, {
          principal: ctx.state.principal,
          requestId: ctx.state.requestId,
        }, references);
      }
      await next();
    });
}

function accessOf(ctx: ApiContext): RequestAccess {
  const access = ctx.state.access;
  // Only paths that skip authentication lack it, and none of them may call the helpers:
  // reaching this is a bug of the endpoint (500), never an open door.
  if (!access) throw new Error(`${ctx.method} ${ctx.path} checked policy without an authenticated user`);
  return access;
}

/** 403 unless the caller holds `permit <permission>` on `fqn`; see the file comment. */
export function authorize(ctx: ApiContext, fqn: string, permission: string): Promise<void> {
  return accessOf(ctx).require(fqn, permission);
}

/** For a resource found by uuid: 404 (`notFound`) when the caller may not read it, else as `authorize`. */
export function authorizeFound(ctx: ApiContext, fqn: string, permission: string, notFound: string): Promise<void> {
  return accessOf(ctx).requireFound(fqn, permission, notFound);
}

/** Whether the caller holds `permit <permission>` on `fqn`; records nothing. */
export function canAccess(ctx: ApiContext, fqn: string, permission: string): boolean {
  return ctx.state.access?.can(fqn, permission) ?? false;
}

/** The items the caller may read. Listings filter before paging, so pages and counts see only these. */
export function readable<T>(ctx: ApiContext, items: readonly T[], fqnOf: (item: T) => string): T[] {
  return accessOf(ctx).readable(items, fqnOf);
}

/** The caller's check of what a body refers to (references.ts); every create and update that takes references needs it. */
export function references(ctx: ApiContext): ReferenceCheck {
  return accessOf(ctx).references;
}

/** The policy caller a stored principal (`created_by`, `updated_by`) stands for; undefined for the controller's own. */
function callerOfPrincipal(principal: string): Caller | undefined {
  const ldap = /^(.+)@ldap\.platform\.local$/.exec(principal);
  if (ldap) return { name: ldap[1]!, mechanism: 'ldap', principal };
  const basic = /^(.+)@platform\.local$/.exec(principal);
  if (basic) return { name: basic[1]!, mechanism: 'basic', principal };
  return undefined;
}

/**
 * Which packages a principal may `use`, for the dependencies resolved on its behalf
 * (references.ts, UsableBy). Records written before authentication existed (`anonymous`)
 * are not filtered. Checked against the policy of the moment, like every other check.
 */
export function usable(policy: PolicyService): UsableBy {
  // Each policy change makes a new engine: its number keys what a principal may use, for caches.
  const generations = new WeakMap<PolicyEngine, number>();
  let next = 0;
  return (principal) => {
    const caller = callerOfPrincipal(principal);
    if (!caller) return undefined;
    const engine = policy.engine;
    let generation = generations.get(engine);
    if (generation === undefined) generations.set(engine, (generation = next++));
    return { visible: (fqn) => engine.check(caller, fqn, 'use').allowed, visibleKey: `${principal}@${generation}` };
  };
}

/** What the token endpoint needs from policy for one caller. */
export interface TokenGrant {
  /** `tokenTimeout` of the `auth::/` realm, else 86400. */
  ttlSeconds: number;
  /** `defaultNamespace` of the `auth::/` realm, else `/sandbox/<name>`. */
  defaultNamespace: string;
  /** `principal` of the `auth::/` realm, when policy names the principal (identity providers). */
  principal?: string;
}

/**
 * At the token endpoint, once the credentials are verified: a token is issued
 * only to a caller holding `permit issue` on `auth::/` (the bootstrap policy
 * gives it to everyone). A refusal records `auth.deny` and, as the audit
 * realm's `log` asks, `policy.access.denied`, then throws ForbiddenError (403).
 * With `recordAllow` (identity providers) an issue allowed records `auth.allow`;
 * `details` (what the provider said: e-mail, issuer) go into both records.
 */
export async function authorizeTokenIssue(
  policy: PolicyService,
  audit: AuditTrail,
  caller: Caller,
  change: ChangeContext,
  options: { recordAllow?: boolean; details?: Record<string, unknown> } = {},
): Promise<TokenGrant> {
  const engine = policy.engine;
  const decision = engine.check(caller, AUTH_REALM, 'issue');
  const level = auditLevel(engine, caller);
  const details = options.details ?? {};
  if (!decision.allowed) {
    const missing = `${decision.missingClaim} on ${AUTH_REALM}`;
    await audit.record(change, 'auth.deny', `auth::/::${caller.name}`, { mechanism: caller.mechanism, ...details, reason: `policy: no ${missing}` });
    if (level !== 'none') await audit.record(change, 'policy.access.denied', AUTH_REALM, claimPayload('issue'));
    throw new ForbiddenError(`policy does not give ${caller.principal} ${missing}: no token is issued`, [missing]);
  }
  if (level === 'allow') {
    await audit.record(change, 'policy.access.allowed', AUTH_REALM, claimPayload('issue'));
  }
  const settings = engine.settings(caller, AUTH_REALM);
  if (options.recordAllow) {
    await audit.record(change, 'auth.allow', `auth::/::${caller.name}`, { mechanism: caller.mechanism, ...details, ...(settings.principal ? { principal: settings.principal } : {}) });
  }
  return {
    ttlSeconds: settings.tokenTimeoutSeconds ?? DEFAULT_TOKEN_TTL_SECONDS,
    defaultNamespace: settings.defaultNamespace ?? `/sandbox/${caller.name}`,
    ...(settings.principal ? { principal: settings.principal } : {}),
  };
}

/**
 * The FQN a create body names, checked (400 when malformed) so that the caller
 * is authorized on exactly the FQN the resource will have.
 */
export function bodyFqn(body: Record<string, unknown>, type: ResourceType): string {
  const fqn = body['fqn'];
  if (typeof fqn !== 'string') {
    throw new InvalidRequestError(`fqn: expected a string, got ${fqn === undefined ? 'nothing' : fqn === null ? 'null' : typeof fqn}; a ${type} FQN such as ${type}::/sandbox/me::name`);
  }
  parseFqn(fqn, { type });
  return fqn;
}
