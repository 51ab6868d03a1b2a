/**
 * The context of the controller: what every actor and service is given (Deps) and who asks
 * for a change (ChangeContext). It sits just above the store in the floor plan
 * (docs/architecture.md), so that every layer above may use it and it uses none of them.
 */
import type { Logger } from '@platform/proto/common';
import type { AuditEvent } from './model/audit-events.js';
import type { BatchOp, Store } from './store/store.js';
import type { Clock } from './util/clock.js';
import type { IdSource } from './util/ids.js';

/** What every actor and service of the controller is given. */
export interface Deps {
  store: Store;
  clock: Clock;
  ids: IdSource;
  log: Logger;
  /** Where every change records its AuditLogItem, in the change's own batch. */
  audit: AuditTrail;
}

/** Who asks for a change, and the request it came in. */
export interface ChangeContext {
  principal: string;
  /** The user on whose behalf the principal acts, when that is someone else. */
  onBehalfOf?: string;
  requestId: string;
}

/**
 * Where changes are recorded (audit/audit-log.ts implements it). Declared here, not in
 * audit/, so that every service can record without depending on the audit domain.
 */
/** Where an audit item is kept: its time (ns since the epoch) and uuid. */
export interface AuditItemKey {
  ns: bigint;
  uuid: string;
}

export interface AuditTrail {
  /**
   * The store operation recording `event`; put it in the batch of the change it describes.
   * `at` rewrites an item written before (an aggregate whose count grew); by default the item
   * is new, stamped now.
   */
  entry(ctx: ChangeContext, event: AuditEvent, fqn: string, payload?: Record<string, unknown>, at?: AuditItemKey): BatchOp;
  /** Records an event that comes with no other change. */
  record(ctx: ChangeContext, event: AuditEvent, fqn: string, payload?: Record<string, unknown>): Promise<void>;
}
