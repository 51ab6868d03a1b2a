/**
 * Table updates on the wire (proto/src/router.proto) and back: the one place where the route
 * table's shapes meet the protobuf messages.
 */
import type { WireJobRequests, WireTableEntry, WireTableUpdate } from '@platform/proto';
import type { JobRequestWindow } from './request-stats.js';
import type { RouteType } from './route.js';
import type { TableEntry, TableUpdate } from './route-table.js';

export function entryToWire(e: TableEntry): WireTableEntry {
  return {
    type: e.type,
    endpoint: e.endpoint,
    paths: e.paths.map((p) => ({
      path: p.path,
      httpsOnly: p.https_only,
      jobs: p.jobs.map((j) => ({ job: j.job, weight: j.weight, stickyCookies: j.sticky_cookies, backends: j.backends.map((b) => ({ ...b })) })),
    })),
  };
}

export function updateToWire(u: TableUpdate): WireTableUpdate {
  return u.kind === 'snapshot'
    ? { epoch: u.epoch, version: u.version, snapshot: true, upserts: u.entries.map(entryToWire), removes: [] }
    : { epoch: u.epoch, version: u.version, snapshot: false, upserts: u.upserts.map(entryToWire), removes: u.removes };
}

export function entryFromWire(e: WireTableEntry): TableEntry {
  return {
    type: (e.type ?? 'http') as RouteType,
    endpoint: e.endpoint ?? '',
    paths: (e.paths ?? []).map((p) => ({
      path: p.path ?? '/',
      https_only: p.httpsOnly ?? false,
      jobs: (p.jobs ?? []).map((j) => ({
        job: j.job ?? '',
        weight: j.weight ?? 0,
        sticky_cookies: j.stickyCookies ?? [],
        backends: (j.backends ?? []).map((b) => ({ instance: b.instance ?? '', address: b.address ?? '' })),
      })),
    })),
  };
}

export function updateFromWire(u: WireTableUpdate): TableUpdate {
  const epoch = u.epoch ?? '';
  const version = u.version ?? 0;
  const entries = (u.upserts ?? []).map(entryFromWire);
  return u.snapshot
    ? { kind: 'snapshot', epoch, version, entries }
    : { kind: 'change', epoch, version, upserts: entries, removes: u.removes ?? [] };
}

export function requestsToWire(w: JobRequestWindow): WireJobRequests {
  return {
    job: w.jobUuid,
    requests: w.requests,
    errors: w.errors,
    latencySumMs: w.latencySumMs,
    latencyMaxMs: w.latencyMaxMs,
    latencyBuckets: w.latencyBuckets ?? [],
  };
}

export function requestsFromWire(w: WireJobRequests): JobRequestWindow {
  return {
    jobUuid: w.job ?? '',
    requests: w.requests ?? 0,
    errors: w.errors ?? 0,
    latencySumMs: w.latencySumMs ?? 0,
    latencyMaxMs: w.latencyMaxMs ?? 0,
    ...(w.latencyBuckets && w.latencyBuckets.length > 0 ? { latencyBuckets: w.latencyBuckets } : {}),
  };
}
