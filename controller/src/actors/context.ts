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
}

/** Who asks for a change, and the request it came in. */
export interface ChangeContext {
  principal: string;
  requestId: string;
}
