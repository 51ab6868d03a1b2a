/**
 * The audit log. An AuditLogItem is written in the same store batch as the
 * change it describes (`entry()` gives the operation to add to that batch), so
 * a change is never without its record, nor a record without its change.
 * Events that change nothing (a token issued, an access check, a download) are
 * written on their own (`record()`).
 *
 * Keys are `audit/<timestamp ns, 20 digits>/<uuid>`: time order is key order.
 */
import type { AuditItemKey, AuditTrail, ChangeContext, Deps } from '../context.js';
import { parseFqn } from '../model/fqn.js';
import { keys } from '../store/keys.js';
import type { BatchOp } from '../store/store.js';
import { AUDIT_EVENTS, type AuditEvent } from '../model/audit-events.js';

export interface AuditLogItem {
  uuid: string;
  event_type: AuditEvent;
  event_type_int: number;
  fqn: string;
  localname: string;
  namespace: string;
  resource_type: string;
  principal_name: string;
  on_behalf_of: string;
  /** UNIX seconds. */
  timestamp: number;
  audit_payload: Record<string, unknown>;
}


export interface AuditQuery {
  /** UNIX seconds, inclusive. */
  startTime?: number;
  endTime?: number;
  eventType?: AuditEvent;
  /** Full FQN, a namespace FQN (that namespace and below), with `*` for any type. */
  fqn?: string;
  limit: number;
  offset: number;
  /** Oldest first instead of most recent first. */
  reverse: boolean;
}

export interface AuditPage {
  items: AuditLogItem[];
  /** More items follow this page. */
  more: boolean;
}

function describe(fqn: string): Pick<AuditLogItem, 'fqn' | 'localname' | 'namespace' | 'resource_type'> {
  const [type = '', namespace = '', localname = ''] = fqn.split('::');
  return { fqn, resource_type: type, namespace, localname };
}

/** A matcher for the `fqn` query parameter. */
function fqnFilter(query: string): (item: AuditLogItem) => boolean {
  const star = query.startsWith('*::');
  const parsed = parseFqn(star ? `job::${query.slice(3)}` : query, { localName: 'optional', field: 'query fqn' });
  return (item) => {
    if (!star && item.resource_type !== parsed.type) return false;
    if (parsed.localName !== undefined) return item.namespace === parsed.namespace && item.localname === parsed.localName;
    return parsed.namespace === '/' || item.namespace === parsed.namespace || item.namespace.startsWith(parsed.namespace + '/');
  };
}

export class AuditLog implements AuditTrail {
  constructor(private readonly deps: Pick<Deps, 'store' | 'clock' | 'ids'>) {}

  /**
   * The store operation recording `event`; put it in the batch of the change.
   * `at` (time and uuid) rewrites an item written before, such as an aggregate
   * whose count grew; by default the item is new, stamped now.
   */
  entry(ctx: ChangeContext, event: AuditEvent, fqn: string, payload: Record<string, unknown> = {}, at?: AuditItemKey): BatchOp {
    const ns = at?.ns ?? this.deps.clock.nowNs();
    const item: AuditLogItem = {
      uuid: at?.uuid ?? this.deps.ids.uuid(),
      event_type: event,
      event_type_int: AUDIT_EVENTS[event],
      ...describe(fqn),
      principal_name: ctx.principal,
      on_behalf_of: ctx.onBehalfOf ?? ctx.principal,
      timestamp: Number(ns / 1_000_000_000n),
      audit_payload: payload,
    };
    return { type: 'put', key: keys.audit(ns, item.uuid), value: JSON.stringify(item) };
  }

  /** Records an event that comes with no other change. */
  async record(ctx: ChangeContext, event: AuditEvent, fqn: string, payload: Record<string, unknown> = {}): Promise<void> {
    await this.deps.store.batch([this.entry(ctx, event, fqn, payload)]);
  }

  /** A page of the log, most recent first unless `reverse`. */
  async query(q: AuditQuery): Promise<AuditPage> {
    const range = {
      prefix: keys.auditPrefix,
      ...(q.startTime === undefined ? {} : { gte: keys.auditTimeBound(q.startTime) }),
      ...(q.endTime === undefined ? {} : { lt: keys.auditTimeBound(q.endTime + 1) }),
      reverse: !q.reverse,
    };
    const matchFqn = q.fqn ? fqnFilter(q.fqn) : () => true;
    const items: AuditLogItem[] = [];
    let skipped = 0;
    for await (const [, value] of this.deps.store.iterate(range)) {
      const item = JSON.parse(value) as AuditLogItem;
      if (q.eventType && item.event_type !== q.eventType) continue;
      if (!matchFqn(item)) continue;
      if (skipped < q.offset) {
        skipped++;
        continue;
      }
      if (items.length === q.limit) return { items, more: true };
      items.push(item);
    }
    return { items, more: false };
  }
}
