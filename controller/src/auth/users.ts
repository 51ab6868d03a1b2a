/**
 * Basic-auth users kept by the controller: salted scrypt hashes in the store
 * (`user/<name>`), mirrored in memory (users are few and read on every request
 * to check that a token's user still exists and has not changed password).
 *
 * Wrong passwords are slowed down per user name and per source address by a
 * LoginThrottle (see there).
 */
import type { Deps } from '../context.js';
import { Mailbox } from '../actors/mailbox.js';
import { AuthenticationError, ConflictError, InvalidRequestError, NotFoundError } from '../errors.js';
import { keys } from '../store/keys.js';
import { formatTimestampNs } from '../util/clock.js';
import { ADMIN_USER, type StoredUser } from './bootstrap.js';
import { LoginThrottle } from './login-throttle.js';
import { hashPassword, verifyPassword } from './passwords.js';

/** The principal of a basic-auth user. */
export function principalOf(user: string): string {
  return `${user}@platform.local`;
}

const NAME_RE = /^[a-z0-9][a-z0-9._-]{0,63}$/;

export interface UserView {
  name: string;
  principal: string;
  created_at: string;
  updated_at: string;
}

export class UserService {
  readonly #users = new Map<string, StoredUser>();
  readonly #throttle: LoginThrottle;
  readonly #writes = new Mailbox();
  /** Compared against when a user does not exist, so that timing does not tell; made on first need. */
  #decoyHash: Promise<string> | undefined;

  constructor(private readonly deps: Deps) {
    this.#throttle = new LoginThrottle(deps.clock);
  }

  async load(): Promise<void> {
    for await (const [, value] of this.deps.store.iterate({ prefix: keys.user('') })) {
      const user = JSON.parse(value) as StoredUser;
      this.#users.set(user.name, user);
    }
  }

  static checkName(name: string): string {
    if (!NAME_RE.test(name)) {
      throw new InvalidRequestError(`user name "${name}" must be 1 to 64 of a-z, 0-9, ".", "_" and "-", starting with a letter or digit`);
    }
    return name;
  }

  /**
   * Checks a user name and password sent from address `source`. Refuses with
   * ThrottledError while the user or the source must wait, and
   * AuthenticationError (the same for an unknown user and a wrong password)
   * otherwise.
   */
  async authenticate(name: string, password: string, source?: string): Promise<StoredUser> {
    // No user has such a name (the rule is public), so there is nothing to protect
    // by counting it, and not counting keeps long junk names out of memory.
    if (!NAME_RE.test(name)) throw new AuthenticationError('wrong user name or password');
    return this.#throttle.attempt(name, async () => {
      const user = this.#users.get(name);
      const ok = await verifyPassword(password, user?.password_hash ?? (await (this.#decoyHash ??= hashPassword('decoy password that matches nothing'))));
      if (user && ok) return user;
      throw new AuthenticationError('wrong user name or password');
    }, source);
  }

  /** The user, if it exists. */
  get(name: string): StoredUser | undefined {
    return this.#users.get(name);
  }

  list(): UserView[] {
    return [...this.#users.values()]
      .sort((a, b) => (a.name < b.name ? -1 : 1))
      .map((u) => ({ name: u.name, principal: principalOf(u.name), created_at: u.created_at, updated_at: u.updated_at ?? u.created_at }));
  }

  /** Creates the user or changes its password; tokens issued before stop working. */
  setPassword(name: string, password: string): Promise<{ created: boolean }> {
    UserService.checkName(name);
    if (password.length < 8 || password.length > 1024) {
      throw new InvalidRequestError('password: must be 8 to 1024 characters');
    }
    return this.#writes.post(async () => {
      const now = formatTimestampNs(this.deps.clock.nowNs());
      const existing = this.#users.get(name);
      const user: StoredUser = {
        name,
        password_hash: await hashPassword(password),
        created_at: existing?.created_at ?? now,
        updated_at: now,
        generation: (existing?.generation ?? 0) + 1,
        // A new account is another account, even under a name used before.
        account: existing?.account ?? this.deps.ids.uuid(),
      };
      await this.deps.store.batch([{ type: 'put', key: keys.user(name), value: JSON.stringify(user) }]);
      this.#users.set(name, user);
      this.#throttle.clear(name);
      return { created: existing === undefined };
    });
  }

  delete(name: string): Promise<void> {
    return this.#writes.post(async () => {
      if (name === ADMIN_USER) throw new ConflictError(`the bootstrap administrator "${ADMIN_USER}" cannot be deleted; change its password instead`);
      if (!this.#users.has(name)) throw new NotFoundError(`user "${name}" not found`);
      await this.deps.store.batch([{ type: 'del', key: keys.user(name) }]);
      this.#users.delete(name);
    });
  }
}
