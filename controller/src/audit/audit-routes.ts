/** GET /audit (the log, paged) and GET /audit/events (the event type names). */
import { queryValue, sendJson, v1, type ApiContext, type Endpoint } from '../api/endpoint.js';
import { queryBool, queryInt } from '../api/query.js';
import { InvalidRequestError } from '../errors.js';
import { authorize } from '../policy/access.js';
import { AUDIT_REALM } from '../policy/permissions.js';
import { optional } from '../util/json.js';
import type { AuditLog } from './audit-log.js';
import { AUDIT_EVENTS, isAuditEvent } from '../model/audit-events.js';

export const AUDIT_DEFAULT_LIMIT = 200;
export const AUDIT_MAX_LIMIT = 1000;

function queryTime(ctx: ApiContext, name: string): number | undefined {
  const v = queryValue(ctx, name);
  if (v === undefined || v === '') return undefined;
  const n = Number(v);
  if (!Number.isFinite(n) || n < 0) throw new InvalidRequestError(`query ${name}: "${v}" is not a UNIX time in seconds`);
  return n;
}

/** The same request with another offset: the Prev and Next links. */
function pageLink(ctx: ApiContext, offset: number): string {
  const params = new URLSearchParams(ctx.querystring);
  params.set('offset', String(offset));
  return `/v1${ctx.path}?${params.toString()}`;
}

export function auditEndpoints(audit: AuditLog): Endpoint[] {
  /** The whole log is one realm: reading any of it needs `permit read` on `audit::/`. */
  const needRead = (ctx: ApiContext) => authorize(ctx, AUDIT_REALM, 'read');
  return [
    {
      method: 'GET',
      path: '/audit',
      media: v1('audit'),
      handler: async (ctx) => {
        await needRead(ctx);
        const eventType = queryValue(ctx, 'event_type') || undefined;
        if (eventType !== undefined && !isAuditEvent(eventType)) {
          throw new InvalidRequestError(`query event_type: "${eventType}" is not an audit event; GET /audit/events lists them`);
        }
        const limit = queryInt(ctx, 'limit', 1, AUDIT_MAX_LIMIT) ?? AUDIT_DEFAULT_LIMIT;
        const offset = queryInt(ctx, 'offset', 0) ?? 0;
        const startTime = queryTime(ctx, 'start_time');
        const endTime = queryTime(ctx, 'end_time');
        if (startTime !== undefined && endTime !== undefined && endTime < startTime) {
          throw new InvalidRequestError('query end_time is before start_time');
        }
        const page = await audit.query({
          ...optional('startTime', startTime),
          ...optional('endTime', endTime),
          ...optional('eventType', eventType),
          ...optional('fqn', queryValue(ctx, 'fqn') || undefined),
          limit,
          offset,
          reverse: queryBool(ctx, 'reverse'),
        });
        if (offset > 0) ctx.set('Prev', pageLink(ctx, Math.max(0, offset - limit)));
        if (page.more) ctx.set('Next', pageLink(ctx, offset + limit));
        sendJson(ctx, v1('audit'), page.items);
      },
    },
    {
      method: 'GET',
      path: '/audit/events',
      media: v1('auditlogtype'),
      handler: async (ctx) => {
        await needRead(ctx);
        sendJson(ctx, v1('auditlogtype'), Object.keys(AUDIT_EVENTS));
      },
    },
  ];
}
