import type { AuditLog } from '../audit/audit-log.js';
import type { Logger } from '../log/logger.js';
import type { Store } from '../store/store.js';
import type { Clock } from '../util/clock.js';
import type { IdSource } from '../util/ids.js';

/** What every actor and service of the controller is given. */
export interface Deps {
  store: Store;
  clock: Clock;
  ids: IdSource;
  log: Logger;
  /** Where every change records its AuditLogItem, in the change's own batch. */
  audit: AuditLog;
}

/** Who asks for a change, and the request it came in. */
export interface ChangeContext {
  principal: string;
  /** The user on whose behalf the principal acts, when that is someone else. */
  onBehalfOf?: string;
  requestId: string;
}
