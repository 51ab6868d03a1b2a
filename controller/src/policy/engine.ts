/**
 * The policy engine: decides whether a caller holds a claim on an FQN.
 *
 * Semantics (docs/policy.md has the long form):
 * - A realm covers an FQN when the types agree (`*` covers every type) and the
 *   realm's namespace is a prefix of the FQN's at segment boundaries
 *   (`job::/a` covers `job::/a`, `job::/a::x` and `job::/a/b::y`, not
 *   `job::/ab`). A realm with a name covers that resource (and names below it,
 *   `x/...`) only. A `[variable]` segment matches any one segment and binds
 *   it for the realm's conditions.
 * - Permits are a union: every covering realm of every document adds what its
 *   matching rules grant; nothing takes a grant away. No grant means denied.
 * - `role r` grants what the rules of the realm `role::/r` grant the caller;
 *   the built-in `admin` grants every permission.
 * - Settings (tokenTimeout, defaultNamespace, log): the most specific
 *   covering realm wins (more namespace segments, then a name); among equally
 *   specific ones the later wins (documents in name order, rules in text order).
 * - Quotas belong to namespaces, not callers (`quotasFor`): every covering
 *   `quota::` or `*::` realm limits the namespace it names (its [variables]
 *   bound), so the quotas of /teams and of /teams/a both hold for a job in
 *   /teams/a; for one namespace and quota name the later realm wins. Their
 *   conditions are read without any caller's claims (the parser refuses a
 *   quota under a condition on them).
 * - A comparison whose claim the caller does not have is false, `!=` included:
 *   a missing claim never grants.
 *
 * An engine is immutable once built; `PolicyService` swaps in a new one on
 * every change. Results are cached per (caller, FQN) so that the check on the
 * request path is a map lookup.
 */
import { LruCache } from '../util/lru.js';
import { PolicyParseError } from './errors.js';
import { parsePolicy, type Claim, type Comparator, type Condition, type LogLevel, type Operand, type ParsedDocument, type Realm, type Rule } from './parser.js';
import { ALL_PERMISSIONS } from './permissions.js';
import type { QuotaName } from './quotas.js';

/**
 * Who asks. `mechanism` picks the claim issuer: basic -> auth_server@platform, ldap ->
 * ldap_auth@platform, an identity provider `corp` -> corp_auth@platform, an app token ->
 * app_auth@platform.
 */
export interface Caller {
  name: string;
  mechanism: string;
  principal: string;
  /**
   * More claims of the same issuer, by attribute (`email`, `email_domain`, `group`...): what an
   * identity provider said of the user. A list holds several values: `==` holds when one of them
   * is equal, `!=` when none is.
   */
  claims?: Readonly<Record<string, string | readonly string[]>>;
}

/** The issuer of a mechanism's claims in conditions (`<issuer>->name`). */
export function issuerOf(mechanism: string): string {
  if (mechanism === 'basic') return 'auth_server@platform';
  if (mechanism === 'ldap') return 'ldap_auth@platform';
  return `${mechanism}_auth@platform`;
}

type ClaimValue = string | readonly string[];

/** The claims a caller brings to conditions: `<issuer>->name`, `<issuer>->principal` and its other claims. */
export function callerClaims(caller: Caller): Map<string, ClaimValue> {
  const issuer = issuerOf(caller.mechanism);
  const claims = new Map<string, ClaimValue>();
  for (const [attribute, value] of Object.entries(caller.claims ?? {})) claims.set(`${issuer}->${attribute}`, value);
  claims.set(`${issuer}->name`, caller.name);
  claims.set(`${issuer}->principal`, caller.principal);
  return claims;
}

/**
 * The part of a grant's cache key that names the caller (mechanism, name, principal, extra
 * claims), made once per caller object: each key is then this and the FQN, two strings that
 * exist already, where a key spelled out in full held a copy of the caller's part for every FQN
 * it was asked about (100,000 jobs: 100,000 copies). Remembered for lasting callers only (a
 * caller made for one check would only add an entry for the collector to clear).
 */
const CALLER_KEYS = new WeakMap<Caller, string>();
const CLAIMS_KEYS = new WeakMap<object, string>();
function callerKey(caller: Caller): string {
  let key = CALLER_KEYS.get(caller);
  if (key !== undefined) return key;
  key = [caller.mechanism, caller.name, caller.principal, claimsKey(caller), ''].join('\u0000');
  if (LASTING.has(caller)) CALLER_KEYS.set(caller, key);
  return key;
}
function claimsKey(caller: Caller): string {
  const claims = caller.claims;
  if (!claims) return '';
  let key = CLAIMS_KEYS.get(claims);
  if (key === undefined) CLAIMS_KEYS.set(claims, (key = JSON.stringify(Object.entries(claims).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))));
  return key;
}

export type Decision = { allowed: true } | { allowed: false; missingClaim: string };

export interface PolicySettings {
  tokenTimeoutSeconds?: number;
  defaultNamespace?: string;
  log?: LogLevel;
  /** `principal` of the `auth::/` realm: the principal a token is issued for (identity providers). */
  principal?: string;
}

/** A quota that holds for a namespace (see `PolicyEngine.quotasFor`). */
export interface QuotaLimit {
  name: QuotaName;
  /** In the quota's unit (policy/quotas.ts): bytes, bits per second, ms/s, instances. */
  amount: number;
  /** As written (`2GB`). */
  text: string;
  /** The namespace the quota limits (the realm's, its [variables] bound), e.g. `/sandbox/tom`. */
  scope: string;
  /** The realm as written, e.g. `quota::/sandbox/[name]`. */
  realm: string;
}

export interface PolicySource {
  name: string;
  text: string;
}

interface SplitFqn {
  type: string;
  segments: string[];
  localName: string | undefined;
}

/** A lenient split of an FQN; undefined for text that is not one (such an FQN is denied). */
function splitFqn(fqn: string): SplitFqn | undefined {
  const parts = fqn.split('::');
  if (parts.length < 2 || parts.length > 3) return undefined;
  const [type, ns, localName] = parts as [string, string, string | undefined];
  if (!ns.startsWith('/') || type === '') return undefined;
  const segments = ns === '/' ? [] : ns.slice(1).split('/');
  if (segments.some((s) => s === '')) return undefined;
  return { type, segments, localName: localName === '' ? undefined : localName };
}

interface CompiledRealm {
  realm: Realm;
  /** Position across all documents: later wins among equally specific settings. */
  order: number;
  specificity: number;
}

/** The bindings of a realm's `[variables]` when it covers `fqn`, or undefined when it does not cover it. */
function cover(realm: Realm, fqn: SplitFqn): ReadonlyMap<string, string> | undefined {
  if (realm.type !== '*' && realm.type !== fqn.type) return undefined;
  if (realm.segments.length > fqn.segments.length) return undefined;
  let bindings: Map<string, string> | undefined;
  for (let i = 0; i < realm.segments.length; i++) {
    const seg = realm.segments[i]!;
    const actual = fqn.segments[i]!;
    if ('literal' in seg) {
      if (seg.literal !== actual) return undefined;
    } else {
      (bindings ??= new Map()).set(seg.variable, actual);
    }
  }
  if (realm.localName !== undefined) {
    if (realm.segments.length !== fqn.segments.length || fqn.localName === undefined) return undefined;
    if (fqn.localName !== realm.localName && !fqn.localName.startsWith(realm.localName + '/')) return undefined;
  }
  return bindings ?? NO_BINDINGS;
}

const NO_BINDINGS: ReadonlyMap<string, string> = new Map();
/** The claims quotas are read with: none (quotas do not depend on who asks). */
const NO_CLAIMS: ReadonlyMap<string, ClaimValue> = new Map();
const NO_QUOTAS: readonly QuotaLimit[] = [];

/** Whether `rules` hold a quota claim (at any depth). */
function hasQuota(rules: readonly Rule[]): boolean {
  return rules.some((r) => r.kind === 'quota' || (r.kind === 'if' && hasQuota(r.body)));
}

function operandValue(o: Operand, claims: ReadonlyMap<string, ClaimValue>, bindings: ReadonlyMap<string, string>): ClaimValue | undefined {
  switch (o.kind) {
    case 'claim':
      return claims.get(o.key);
    case 'string':
      return o.value;
    case 'template':
      return bindings.get(o.name);
  }
}

/** `fqn` lies within `pattern` by the realm rule (prefix at segment boundaries, `*` type). */
export function fqnWithin(fqn: string, pattern: string): boolean {
  const f = splitFqn(fqn);
  const p = splitFqn(pattern);
  if (!f || !p) return false;
  const realm: Realm = {
    name: pattern,
    type: p.type,
    segments: p.segments.map((literal) => ({ literal })),
    ...(p.localName === undefined ? {} : { localName: p.localName }),
    rules: [],
    line: 0,
    column: 0,
  };
  return cover(realm, f) !== undefined;
}

/** One comparison of two single values. */
function compare(op: Comparator, left: string, right: string): boolean {
  switch (op) {
    case '==':
      return left === right;
    case '!=':
      return left !== right;
    case 'beginsWith':
      return left.startsWith(right);
    case 'endsWith':
      return left.endsWith(right);
    case 'fqnMatch':
      return fqnWithin(left, right);
  }
}

function holds(c: Condition, claims: ReadonlyMap<string, ClaimValue>, bindings: ReadonlyMap<string, string>): boolean {
  switch (c.kind) {
    case 'and':
      return holds(c.left, claims, bindings) && holds(c.right, claims, bindings);
    case 'or':
      return holds(c.left, claims, bindings) || holds(c.right, claims, bindings);
    case 'compare': {
      const left = operandValue(c.left, claims, bindings);
      const right = operandValue(c.right, claims, bindings);
      if (left === undefined || right === undefined) return false;
      const lefts = typeof left === 'string' ? [left] : left;
      const rights = typeof right === 'string' ? [right] : right;
      // Several values (an identity provider's groups): `!=` holds when no pair is equal, every
      // other comparison when one pair holds. An empty list holds nothing, `!=` included.
      if (lefts.length === 0 || rights.length === 0) return false;
      if (c.op === '!=') return lefts.every((l) => rights.every((r) => l !== r));
      return lefts.some((l) => rights.some((r) => compare(c.op, l, r)));
    }
  }
}

/** The claims of `rules` whose conditions hold, in text order. */
function matchingClaims(rules: readonly Rule[], claims: ReadonlyMap<string, ClaimValue>, bindings: ReadonlyMap<string, string>, out: Claim[] = []): Claim[] {
  for (const rule of rules) {
    if (rule.kind === 'if') {
      if (holds(rule.condition, claims, bindings)) matchingClaims(rule.body, claims, bindings, out);
    } else {
      out.push(rule);
    }
  }
  return out;
}

/** What one caller holds on one FQN. */
interface Grant {
  permits: ReadonlySet<string>;
  settings: PolicySettings;
}

const CACHE_SIZE = 100_000;
/** Distinct grants kept for sharing: as many as policy's rules and the callers' claims make, bounded. */
const EQUAL_GRANTS_SIZE = 1_000;
/**
 * Decisions remembered per caller object, in front of the shared cache: the few resources a
 * client reads again and again. Small, as there may be one per remembered token (10,000).
 */
const PER_CALLER_CACHE_SIZE = 64;

/** The name of a role definition `role::/<name>` (the parser allows exactly one literal segment). */
function roleName(realm: Realm): string {
  return (realm.segments[0] as { literal: string }).literal;
}

/** Callers used again and again (see `lastingCaller`); others are looked up by key only. */
const LASTING = new WeakSet<Caller>();

/**
 * Marks `caller` as one object used for many checks (a client's requests with one token share
 * it): the engine then remembers its decisions by the object and the FQN. A caller made for one
 * check needs no mark.
 */
export function lastingCaller(caller: Caller): Caller {
  LASTING.add(caller);
  return caller;
}

export class PolicyEngine {
  readonly #realms: CompiledRealm[];
  readonly #roles: Map<string, Realm[]>;
  readonly #grants = new LruCache<string, Grant>(CACHE_SIZE, false);
  /** The grants of `#grants` by what they hold (`#shared`). */
  readonly #equalGrants = new LruCache<string, Grant>(EQUAL_GRANTS_SIZE, false);
  /** The realms that hold quotas, in settings order (least specific first). */
  readonly #quotaRealms: CompiledRealm[];
  readonly #quotas = new LruCache<string, readonly QuotaLimit[]>(CACHE_SIZE, false);
  /** Decisions by caller object, then FQN; a caller object no longer used goes with its entries. */
  readonly #byCaller = new WeakMap<Caller, LruCache<string, Grant>>();

  private constructor(docs: readonly ParsedDocument[]) {
    const realms: CompiledRealm[] = [];
    this.#roles = new Map();
    let order = 0;
    for (const doc of docs) {
      for (const realm of doc.realms) {
        if (realm.type === 'role') {
          const name = roleName(realm);
          const list = this.#roles.get(name) ?? [];
          list.push(realm);
          this.#roles.set(name, list);
          continue;
        }
        realms.push({ realm, order: order++, specificity: realm.segments.length * 2 + (realm.localName === undefined ? 0 : 1) });
      }
    }
    // Settings are applied from least to most specific, so that the last applied wins.
    this.#realms = realms.sort((a, b) => a.specificity - b.specificity || a.order - b.order);
    this.#quotaRealms = this.#realms.filter(({ realm }) => (realm.type === 'quota' || realm.type === '*') && hasQuota(realm.rules));
  }

  /**
   * Parses and checks documents (in name order) into an engine. Throws
   * PolicyParseError for a syntax error, and for a role that is used but
   * defined nowhere or a redefinition of the built-in `admin`.
   */
  static build(sources: readonly PolicySource[]): PolicyEngine {
    const sorted = [...sources].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    const docs = sorted.map((s) => parsePolicy(s.name, s.text));
    const defined = new Set<string>(['admin']);
    for (const doc of docs) {
      for (const realm of doc.realms) {
        if (realm.type !== 'role') continue;
        const name = roleName(realm);
        if (name === 'admin') throw new PolicyParseError(doc.name, realm.line, realm.column, 'the role admin is built in (every permission) and cannot be redefined');
        defined.add(name);
      }
    }
    for (const doc of docs) {
      const visit = (rules: readonly Rule[]): void => {
        for (const r of rules) {
          if (r.kind === 'if') visit(r.body);
          else if (r.kind === 'role' && !defined.has(r.role)) {
            throw new PolicyParseError(doc.name, r.line, r.column, `role "${r.role}" is not defined; define it with a realm role::/${r.role} { permit ... }`);
          }
        }
      };
      for (const realm of doc.realms) visit(realm.rules);
    }
    return new PolicyEngine(docs);
  }

  /** Whether `caller` holds `permit <permission>` on `fqn`; denied ones name the missing claim. */
  check(caller: Caller, fqn: string, permission: string): Decision {
    if (this.#grant(caller, fqn).permits.has(permission)) return { allowed: true };
    return { allowed: false, missingClaim: `permit ${permission}` };
  }

  /** Every permission `caller` holds on `fqn`. */
  permits(caller: Caller, fqn: string): ReadonlySet<string> {
    return this.#grant(caller, fqn).permits;
  }

  /** The settings that apply to `caller` at `fqn` (e.g. tokenTimeout at `auth::/`, log at `audit::/`). */
  settings(caller: Caller, fqn: string): PolicySettings {
    return this.#grant(caller, fqn).settings;
  }

  /**
   * The quotas that hold for jobs in `namespace` (`/sandbox/tom/app`): those of every covering
   * quota realm, each limiting the realm's own namespace (`/sandbox/tom` for
   * `quota::/sandbox/[name]`). Read without a caller: quotas are the namespace's.
   */
  quotasFor(namespace: string): readonly QuotaLimit[] {
    if (this.#quotaRealms.length === 0) return NO_QUOTAS;
    let known = this.#quotas.get(namespace);
    if (known !== undefined) return known;
    const split = splitFqn(`quota::${namespace}`);
    const found = new Map<string, QuotaLimit>();
    if (split) {
      for (const { realm } of this.#quotaRealms) {
        const bindings = cover(realm, split);
        if (bindings === undefined) continue;
        const scope = '/' + split.segments.slice(0, realm.segments.length).join('/');
        for (const claim of matchingClaims(realm.rules, NO_CLAIMS, bindings)) {
          if (claim.kind !== 'quota') continue;
          // Later realms of the same namespace win: delete first so that the order is the last setting's.
          const key = `${scope}\u0000${claim.name}`;
          found.delete(key);
          found.set(key, { name: claim.name, amount: claim.amount, text: claim.value, scope, realm: realm.name });
        }
      }
    }
    known = [...found.values()];
    this.#quotas.set(namespace, known);
    return known;
  }

  /**
   * Every quota as the documents write it, by realm (`quota::/sandbox/[name]` -> name -> value),
   * whatever the conditions: what a policy change changes of the quotas (`quota.update`).
   */
  quotaRules(): Map<string, Record<string, string>> {
    const out = new Map<string, Record<string, string>>();
    for (const { realm } of this.#quotaRealms) {
      const rules = out.get(realm.name) ?? {};
      const visit = (list: readonly Rule[]): void => {
        for (const r of list) {
          if (r.kind === 'if') visit(r.body);
          else if (r.kind === 'quota') rules[r.name] = r.value;
        }
      };
      visit(realm.rules);
      out.set(realm.name, rules);
    }
    return out;
  }

  #grant(caller: Caller, fqn: string): Grant {
    // First by the caller object (shared by a client's requests, see auth/authenticate.ts) and the
    // FQN alone: no key to build, and an FQN read from a stored record hashes once.
    if (!LASTING.has(caller)) return this.#grantByKey(caller, fqn);
    let mine = this.#byCaller.get(caller);
    if (mine === undefined) this.#byCaller.set(caller, (mine = new LruCache<string, Grant>(PER_CALLER_CACHE_SIZE, false)));
    const known = mine.get(fqn);
    if (known !== undefined) return known;
    const grant = this.#grantByKey(caller, fqn);
    mine.set(fqn, grant);
    return grant;
  }

  #grantByKey(caller: Caller, fqn: string): Grant {
    const key = callerKey(caller) + fqn;
    let grant = this.#grants.get(key);
    if (grant === undefined) {
      grant = this.#shared(this.#evaluate(caller, fqn));
      this.#grants.set(key, grant);
    }
    return grant;
  }

  /**
   * One object for equal grants: a caller holds the same permits and settings on most FQNs (an
   * administrator on every one), and each grant remembered in `#grants` (up to 100,000) held its
   * own set and settings.
   */
  #shared(grant: Grant): Grant {
    const permits = grant.permits === ALL_PERMISSIONS ? '*' : [...grant.permits].sort().join(' ');
    const signature = `${permits}\u0000${JSON.stringify(grant.settings)}`;
    const known = this.#equalGrants.get(signature);
    if (known !== undefined) return known;
    Object.freeze(grant.settings);
    this.#equalGrants.set(signature, grant);
    return grant;
  }

  #evaluate(caller: Caller, fqn: string): Grant {
    const permits = new Set<string>();
    const settings: PolicySettings = {};
    const split = splitFqn(fqn);
    if (!split) return { permits, settings };
    const claims = callerClaims(caller);
    const rolesSeen = new Set<string>();
    const grantRole = (role: string): void => {
      if (rolesSeen.has(role)) return;
      rolesSeen.add(role);
      if (role === 'admin') return; // every permission: ALL_PERMISSIONS itself, below
      for (const realm of this.#roles.get(role) ?? []) {
        for (const claim of matchingClaims(realm.rules, claims, NO_BINDINGS)) {
          if (claim.kind === 'permit') for (const p of claim.permissions) permits.add(p);
          else if (claim.kind === 'role') grantRole(claim.role);
        }
      }
    };
    for (const { realm } of this.#realms) {
      const bindings = cover(realm, split);
      if (bindings === undefined) continue;
      for (const claim of matchingClaims(realm.rules, claims, bindings)) {
        switch (claim.kind) {
          case 'permit':
            for (const p of claim.permissions) permits.add(p);
            break;
          case 'role':
            grantRole(claim.role);
            break;
          case 'tokenTimeout':
            settings.tokenTimeoutSeconds = claim.seconds;
            break;
          case 'defaultNamespace':
            settings.defaultNamespace = claim.namespace;
            break;
          case 'log':
            settings.log = claim.level;
            break;
          case 'principal':
            settings.principal = claim.principal;
            break;
          case 'quota':
            break; // the namespace's, whoever asks: quotasFor
        }
      }
    }
    // An administrator's grant holds the one set of every permission instead of a copy of it: a
    // grant is remembered per caller and FQN (100,000 of them), and each copy was ~2 KB.
    return { permits: rolesSeen.has('admin') ? ALL_PERMISSIONS : permits, settings };
  }
}
