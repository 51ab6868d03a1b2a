/**
 * The permissions of each realm type (behaviour notes: "Permissions by realm").
 * A `permit` claim may name any permission in this table; the parser refuses
 * names outside it, so that a typo (`permit reed`) is an error and not a
 * silently useless grant.
 */
export const REALM_PERMISSIONS = {
  job: ['create', 'read', 'update', 'delete', 'start', 'stop', 'map', 'ssh', 'link', 'promote', 'bind'],
  package: ['create', 'read', 'update', 'delete', 'use'],
  stagpipe: ['create', 'read', 'update', 'delete', 'use'],
  service: ['create', 'read', 'delete', 'bind'],
  provider: ['create', 'read', 'delete', 'bind'],
  binding: ['create', 'read', 'delete'],
  network: ['create', 'read', 'delete', 'join'],
  subnetpool: ['create', 'read', 'delete'],
  secret: ['create', 'read', 'update', 'delete', 'install'],
  route: ['map', 'read'],
  gateway: ['promote', 'read'],
  sempiperule: ['create', 'read', 'delete'],
  cluster: ['read', 'update'],
  policy: ['read', 'update'],
  policydoc: ['create', 'read', 'update', 'delete'],
  audit: ['read'],
  auth: ['issue', 'read', 'update'],
  quota: ['read', 'update'],
} as const satisfies Record<string, readonly string[]>;

export type Permission = (typeof REALM_PERMISSIONS)[keyof typeof REALM_PERMISSIONS][number];

/** The realms whose claims guard the controller's own endpoints (tokens and users, the audit log, policy). */
export const AUTH_REALM = 'auth::/';

export const AUDIT_REALM = 'audit::/';
export const POLICY_REALM = 'policy::/';

/** Every permission of every realm type: what the built-in role `admin` grants. */
export const ALL_PERMISSIONS: ReadonlySet<string> = new Set(Object.values(REALM_PERMISSIONS).flat());

/** Realm types a policy may name: the table's, `*` (every type) and `role` (role definitions). */
export function isRealmType(type: string): boolean {
  return type === '*' || type === 'role' || Object.hasOwn(REALM_PERMISSIONS, type);
}

/** How long an access token lives when the `auth::/` realm's policy sets no `tokenTimeout` (one day). */
export const DEFAULT_TOKEN_TTL_SECONDS = 86_400;
