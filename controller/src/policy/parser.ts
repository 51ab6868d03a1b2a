/**
 * The parser of the policy language: recursive descent over the lexer's
 * tokens, one function per grammar rule of docs/policy.md:
 *
 *   document  = { realm } ;
 *   realm     = [ "on" ] REALM "{" { rule } "}" ;
 *   rule      = "if" "(" condition ")" "{" { rule } "}" | claim [ ";" ] ;
 *   condition = conjunct { "||" conjunct } ;
 *   conjunct  = primary { "&&" primary } ;
 *   primary   = "(" condition ")" | operand comparator operand ;
 *   operand   = CLAIMREF | STRING | TEMPLATE ;
 *   claim     = "permit" IDENT { "," IDENT } | "role" IDENT
 *             | "tokenTimeout" STRING | "defaultNamespace" STRING | "principal" STRING
 *             | "log" ( "allow" | "deny" | "none" ) | QUOTA ( NUMBER | STRING ) ;
 *
 * Every error is a PolicyParseError naming the line and column of the token
 * where the document stopped making sense.
 *
 * Parsing and evaluating recurse, so nesting is bounded: parentheses and `if`
 * blocks at most MAX_NESTING deep, at most MAX_CONDITION_TERMS comparisons in
 * one condition (a condition's tree is never deeper than its comparisons).
 */
import { PolicyParseError } from './errors.js';
import { describeToken, tokenize, type Token } from './lexer.js';
import { ALL_PERMISSIONS, isRealmType } from './permissions.js';
import { isQuotaName, parseQuotaValue, QUOTA_NAMES, quotaValueHint, type QuotaName } from './quotas.js';

export type Comparator = '==' | '!=' | 'beginsWith' | 'endsWith' | 'fqnMatch';
export const COMPARATORS: readonly Comparator[] = ['==', '!=', 'beginsWith', 'endsWith', 'fqnMatch'];

export type Operand = { kind: 'claim'; key: string } | { kind: 'string'; value: string } | { kind: 'template'; name: string };

export type Condition =
  | { kind: 'and' | 'or'; left: Condition; right: Condition }
  | { kind: 'compare'; op: Comparator; left: Operand; right: Operand };

export type LogLevel = 'none' | 'deny' | 'allow';
export const LOG_LEVELS: readonly LogLevel[] = ['none', 'deny', 'allow'];

export { QUOTA_NAMES } from './quotas.js';

export interface Position {
  line: number;
  column: number;
}

export type Claim =
  | ({ kind: 'permit'; permissions: string[] } & Position)
  | ({ kind: 'role'; role: string } & Position)
  | ({ kind: 'tokenTimeout'; seconds: number } & Position)
  | ({ kind: 'defaultNamespace'; namespace: string } & Position)
  | ({ kind: 'principal'; principal: string } & Position)
  | ({ kind: 'log'; level: LogLevel } & Position)
  /** `value` as written; `amount` in the quota's unit (policy/quotas.ts). */
  | ({ kind: 'quota'; name: QuotaName; value: string; amount: number } & Position);

export type Rule = Claim | ({ kind: 'if'; condition: Condition; body: Rule[] } & Position);

/** One namespace segment of a realm name: literal text, or `[variable]` that matches any one segment. */
export type Segment = { literal: string } | { variable: string };

export interface Realm extends Position {
  /** The realm name as written, e.g. `job::/sandbox/[name]`. */
  name: string;
  /** A resource type, `*` for every type, or `role` for a role definition. */
  type: string;
  segments: Segment[];
  localName?: string;
  rules: Rule[];
}

export interface ParsedDocument {
  name: string;
  realms: Realm[];
}

const SEGMENT = /^[A-Za-z0-9_.@+-]+$/;
const PRINCIPAL = /^[^\s"'\\]{1,256}$/;
const LOCAL_NAME = /^[A-Za-z0-9_.@+-]+(\/[A-Za-z0-9_.@+-]+)*$/;
const MAX_TOKEN_TIMEOUT_SECONDS = 366 * 86_400;
/** How deep parentheses and `if` blocks may nest. */
export const MAX_NESTING = 32;
/** How many comparisons one condition may hold. */
export const MAX_CONDITION_TERMS = 256;
const DURATION_UNITS: Record<string, number> = { '': 1, s: 1, m: 60, min: 60, h: 3600, d: 86_400 };

/** `"3600s"`, `"90m"`, `"12h"`, `"1d"` or plain seconds; undefined when not a duration. */
export function parseDurationSeconds(text: string): number | undefined {
  const m = /^(\d{1,9})(s|m|min|h|d)?$/.exec(text.trim());
  if (!m) return undefined;
  return Number(m[1]) * DURATION_UNITS[m[2] ?? '']!;
}

/** Why `ns` (without templates) is not a namespace, or undefined. */
function namespaceProblem(ns: string): string | undefined {
  if (!ns.startsWith('/')) return `namespace "${ns}" must start with "/"`;
  if (ns === '/') return undefined;
  for (const seg of ns.slice(1).split('/')) {
    if (seg === '') return `namespace "${ns}" has an empty segment`;
    if (seg === '.' || seg === '..' || !SEGMENT.test(seg)) return `namespace "${ns}" has a segment "${seg}" with characters other than letters, digits and _.@+-`;
  }
  return undefined;
}

/** Where a rule sits: its realm, inside a role definition or not, under a condition on the caller's claims or not. */
interface Where {
  realm: Realm;
  inRole: boolean;
  onCaller: boolean;
}

/** Whether `c` compares a claim of the caller (not only the realm's [variables] and strings). */
function usesCallerClaims(c: Condition): boolean {
  if (c.kind !== 'compare') return usesCallerClaims(c.left) || usesCallerClaims(c.right);
  return c.left.kind === 'claim' || c.right.kind === 'claim';
}

class Parser {
  #pos = 0;
  /** Parentheses and `if` blocks open now. */
  #nesting = 0;
  /** Comparisons in the condition being parsed. */
  #terms = 0;

  constructor(
    private readonly docName: string,
    private readonly tokens: Token[],
  ) {}

  get #peek(): Token {
    return this.tokens[this.#pos]!;
  }

  #next(): Token {
    const t = this.tokens[this.#pos]!;
    if (t.kind !== 'eof') this.#pos++;
    return t;
  }

  #fail(at: Position, message: string): never {
    throw new PolicyParseError(this.docName, at.line, at.column, message);
  }

  #isPunct(value: string): boolean {
    return this.#peek.kind === 'punct' && this.#peek.value === value;
  }

  /** Runs `inner` one nesting level deeper, refusing beyond MAX_NESTING at `at`. */
  #nested<T>(at: Position, inner: () => T): T {
    if (this.#nesting >= MAX_NESTING) this.#fail(at, `parentheses and "if" blocks nest deeper than ${MAX_NESTING} levels`);
    this.#nesting++;
    try {
      return inner();
    } finally {
      this.#nesting--;
    }
  }

  #expectPunct(value: string): Token {
    const t = this.#peek;
    if (t.kind !== 'punct' || t.value !== value) this.#fail(t, `expected "${value}", found ${describeToken(t)}`);
    return this.#next();
  }

  document(): ParsedDocument {
    const realms: Realm[] = [];
    while (this.#peek.kind !== 'eof') realms.push(this.#realm());
    return { name: this.docName, realms };
  }

  #realm(): Realm {
    if (this.#peek.kind === 'ident' && this.#peek.value === 'on') this.#next();
    const t = this.#next();
    if (t.kind !== 'realm') this.#fail(t, `expected a realm such as job::/sandbox/tom, found ${describeToken(t)}`);
    const realm = this.#realmName(t);
    this.#expectPunct('{');
    const variables = new Set(realm.segments.flatMap((s) => ('variable' in s ? [s.variable] : [])));
    realm.rules = this.#rules(variables, { realm, inRole: realm.type === 'role', onCaller: false });
    this.#expectPunct('}');
    return realm;
  }

  #realmName(t: Token): Realm {
    const parts = t.value.split('::');
    if (parts.length < 2 || parts.length > 3) this.#fail(t, `realm "${t.value}" is not of the form <type>::<namespace>[::<name>]`);
    const [type, namespace, localName] = parts as [string, string, string | undefined];
    if (!isRealmType(type)) this.#fail(t, `"${type}" is not a realm type`);
    if (!namespace.startsWith('/')) this.#fail(t, `realm "${t.value}": the namespace must start with "/"`);
    const segments: Segment[] = [];
    if (namespace !== '/') {
      for (const seg of namespace.slice(1).split('/')) {
        const v = /^\[([A-Za-z_][A-Za-z0-9_]*)\]$/.exec(seg);
        if (v) segments.push({ variable: v[1]! });
        else if (seg !== '.' && seg !== '..' && SEGMENT.test(seg)) segments.push({ literal: seg });
        else this.#fail(t, `realm "${t.value}": "${seg}" is not a namespace segment (letters, digits, _.@+- or a whole [variable])`);
      }
    }
    const names = segments.flatMap((s) => ('variable' in s ? [s.variable] : []));
    if (new Set(names).size !== names.length) this.#fail(t, `realm "${t.value}" uses a template variable twice`);
    if (localName !== undefined && !LOCAL_NAME.test(localName)) this.#fail(t, `realm "${t.value}": "${localName}" is not a resource name`);
    if (type === 'role' && (segments.length !== 1 || !('literal' in segments[0]!) || localName !== undefined)) {
      this.#fail(t, `a role is defined as role::/<role name>, not "${t.value}"`);
    }
    return {
      name: t.value,
      type,
      segments,
      ...(localName === undefined ? {} : { localName }),
      rules: [],
      line: t.line,
      column: t.column,
    };
  }

  #rules(variables: ReadonlySet<string>, where: Where): Rule[] {
    const rules: Rule[] = [];
    for (;;) {
      if (this.#isPunct(';')) {
        this.#next();
        continue;
      }
      if (this.#isPunct('}') || this.#peek.kind === 'eof') return rules;
      rules.push(this.#rule(variables, where));
    }
  }

  #rule(variables: ReadonlySet<string>, where: Where): Rule {
    const t = this.#peek;
    if (t.kind === 'ident' && t.value === 'if') {
      this.#next();
      this.#expectPunct('(');
      this.#terms = 0;
      const condition = this.#condition(variables);
      this.#expectPunct(')');
      this.#expectPunct('{');
      const inner = { ...where, onCaller: where.onCaller || usesCallerClaims(condition) };
      const body = this.#nested(t, () => this.#rules(variables, inner));
      this.#expectPunct('}');
      return { kind: 'if', condition, body, line: t.line, column: t.column };
    }
    return this.#claim(where);
  }

  #condition(variables: ReadonlySet<string>): Condition {
    let left = this.#conjunct(variables);
    while (this.#isPunct('||')) {
      this.#next();
      left = { kind: 'or', left, right: this.#conjunct(variables) };
    }
    return left;
  }

  #conjunct(variables: ReadonlySet<string>): Condition {
    let left = this.#primary(variables);
    while (this.#isPunct('&&')) {
      this.#next();
      left = { kind: 'and', left, right: this.#primary(variables) };
    }
    return left;
  }

  #primary(variables: ReadonlySet<string>): Condition {
    if (this.#isPunct('(')) {
      const open = this.#next();
      const inner = this.#nested(open, () => this.#condition(variables));
      this.#expectPunct(')');
      return inner;
    }
    if (++this.#terms > MAX_CONDITION_TERMS) this.#fail(this.#peek, `a condition holds more than ${MAX_CONDITION_TERMS} comparisons`);
    const left = this.#operand(variables);
    const t = this.#next();
    const op = (t.kind === 'punct' || t.kind === 'ident' ? t.value : '') as Comparator;
    if (!COMPARATORS.includes(op)) this.#fail(t, `expected a comparison (==, !=, beginsWith, endsWith, fqnMatch), found ${describeToken(t)}`);
    const right = this.#operand(variables);
    return { kind: 'compare', op, left, right };
  }

  #operand(variables: ReadonlySet<string>): Operand {
    const t = this.#next();
    switch (t.kind) {
      case 'claimref':
        return { kind: 'claim', key: t.value };
      case 'string':
        return { kind: 'string', value: t.value };
      case 'template':
        if (!variables.has(t.value)) this.#fail(t, `[${t.value}] is not a variable of this realm's name`);
        return { kind: 'template', name: t.value };
      default:
        return this.#fail(t, `expected a claim such as auth_server@platform->name, a string or a [variable], found ${describeToken(t)}`);
    }
  }

  /** Settings and quotas belong to the realm a caller works in, not to a role's grants. */
  #refuseInRole(inRole: boolean, t: Token, what: 'settings' | 'quotas'): void {
    if (inRole) this.#fail(t, `a role grants permits and roles only; ${what} go in the realm itself`);
  }

  /**
   * A quota limits a namespace whoever uses it: it sits in a `quota::` (or `*::`) realm without a
   * resource name, and not under a condition on the caller's claims (only on the realm's
   * [variables] and strings), which would make the limit depend on who asks.
   */
  #checkQuotaPlace(t: Token, where: Where): void {
    const realm = where.realm;
    if (realm.type !== 'quota' && realm.type !== '*') this.#fail(t, `a quota goes in a quota:: realm such as quota::/sandbox/[name], not in ${realm.name}`);
    if (realm.localName !== undefined) this.#fail(t, `a quota limits a namespace: its realm names no resource (${realm.name})`);
    if (where.onCaller) this.#fail(t, 'a quota limits a namespace whoever uses it: it cannot sit under a condition on the caller\'s claims');
  }

  #claim(where: Where): Claim {
    const inRole = where.inRole;
    const t = this.#next();
    const at = { line: t.line, column: t.column };
    if (t.kind !== 'ident') this.#fail(t, `expected a claim (permit, role, log, tokenTimeout, defaultNamespace, principal, a quota) or "if", found ${describeToken(t)}`);
    switch (t.value) {
      case 'permit': {
        const permissions: string[] = [];
        for (;;) {
          const p = this.#next();
          if (p.kind !== 'ident') this.#fail(p, `expected a permission name, found ${describeToken(p)}`);
          if (!ALL_PERMISSIONS.has(p.value)) this.#fail(p, `"${p.value}" is not a permission; permissions are ${[...ALL_PERMISSIONS].sort().join(', ')}`);
          permissions.push(p.value);
          if (!this.#isPunct(',')) break;
          this.#next();
        }
        return { kind: 'permit', permissions, ...at };
      }
      case 'role': {
        const r = this.#next();
        if (r.kind !== 'ident' || !SEGMENT.test(r.value)) this.#fail(r, `expected a role name, found ${describeToken(r)}`);
        return { kind: 'role', role: r.value, line: r.line, column: r.column };
      }
      case 'tokenTimeout': {
        this.#refuseInRole(inRole, t, 'settings');
        const v = this.#next();
        const seconds = v.kind === 'string' ? parseDurationSeconds(v.value) : undefined;
        if (seconds === undefined) this.#fail(v, `expected a duration such as "3600s", "90m", "12h" or "1d", found ${describeToken(v)}`);
        if (seconds! < 1 || seconds! > MAX_TOKEN_TIMEOUT_SECONDS) this.#fail(v, `tokenTimeout must be between 1 second and ${MAX_TOKEN_TIMEOUT_SECONDS / 86_400} days`);
        return { kind: 'tokenTimeout', seconds: seconds!, ...at };
      }
      case 'defaultNamespace': {
        this.#refuseInRole(inRole, t, 'settings');
        const v = this.#next();
        if (v.kind !== 'string') this.#fail(v, `expected a namespace string such as "/dev/team", found ${describeToken(v)}`);
        const problem = namespaceProblem(v.value);
        if (problem) this.#fail(v, problem);
        return { kind: 'defaultNamespace', namespace: v.value, ...at };
      }
      case 'principal': {
        this.#refuseInRole(inRole, t, 'settings');
        const v = this.#next();
        if (v.kind !== 'string' || !PRINCIPAL.test(v.value)) this.#fail(v, `expected a principal such as "alice@corp.platform.local" (1 to 256 characters, no spaces or quotes), found ${describeToken(v)}`);
        return { kind: 'principal', principal: v.value, ...at };
      }
      case 'log': {
        this.#refuseInRole(inRole, t, 'settings');
        const v = this.#next();
        if (v.kind !== 'ident' || !LOG_LEVELS.includes(v.value as LogLevel)) this.#fail(v, `expected allow, deny or none after "log", found ${describeToken(v)}`);
        return { kind: 'log', level: v.value as LogLevel, ...at };
      }
      default: {
        if (isQuotaName(t.value)) {
          this.#refuseInRole(inRole, t, 'quotas');
          this.#checkQuotaPlace(t, where);
          const v = this.#next();
          const amount = v.kind === 'number' || v.kind === 'string' ? parseQuotaValue(t.value, v.value) : undefined;
          if (amount === undefined) this.#fail(v, `expected ${quotaValueHint(t.value)} after "${t.value}", found ${describeToken(v)}`);
          return { kind: 'quota', name: t.value, value: v.value, amount: amount!, ...at };
        }
        return this.#fail(t, `"${t.value}" is not a claim; claims are permit, role, log, tokenTimeout, defaultNamespace, principal and the quotas ${QUOTA_NAMES.join(', ')}`);
      }
    }
  }
}

/** Parses one document; throws PolicyParseError with the line and column of the first problem. */
export function parsePolicy(docName: string, text: string): ParsedDocument {
  return new Parser(docName, tokenize(docName, text)).document();
}
