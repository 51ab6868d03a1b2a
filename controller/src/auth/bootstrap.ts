/**
 * The bootstrap administrator. On the first start of a data directory the user
 * `admin` is created with the password given (PLATFORM_ADMIN_PASSWORD) or a
 * generated one, which is shown once and kept, readable only by the operator,
 * in `<data-dir>/admin-password`.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { customAlphabet } from 'nanoid';
import type { Deps } from '../context.js';
import { keys } from '../store/keys.js';
import { formatTimestampNs } from '../util/clock.js';
import { hashPassword } from './passwords.js';

export const ADMIN_USER = 'admin';

export interface StoredUser {
  name: string;
  password_hash: string;
  created_at: string;
  updated_at?: string;
  /** Bumped when the password changes; a token carries the generation it was issued in. */
  generation?: number;
  /**
   * Made (random) when the account is created and kept until it is deleted; a token carries it
   * (`acc`), so that a deleted account's tokens never work for a new account of the same name.
   * Absent only on accounts written before it existed (they get one at their next password change).
   */
  account?: string;
}

const generate = customAlphabet('abcdefghijkmnpqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789', 24);

export interface BootstrapResult {
  created: boolean;
  /** Set when this start generated the password. */
  generatedPassword?: string;
  passwordFile?: string;
}

export async function bootstrapAdmin(deps: Deps, dataDir: string, password: string | undefined): Promise<BootstrapResult> {
  if ((await deps.store.get(keys.user(ADMIN_USER))) !== undefined) return { created: false };
  const chosen = password && password.length > 0 ? password : generate();
  const user: StoredUser = {
    name: ADMIN_USER,
    password_hash: await hashPassword(chosen),
    created_at: formatTimestampNs(deps.clock.nowNs()),
    account: deps.ids.uuid(),
  };
  await deps.store.batch([{ type: 'put', key: keys.user(ADMIN_USER), value: JSON.stringify(user) }]);
  if (password) return { created: true };
  const passwordFile = join(dataDir, 'admin-password');
  await writeFile(passwordFile, chosen + '\n', { mode: 0o600 });
  return { created: true, generatedPassword: chosen, passwordFile };
}
