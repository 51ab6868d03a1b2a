/**
 * The controller's end of `RouteTableService.Watch` (proto/src/router.proto): standalone routers
 * follow the route table through it. It keeps the last changes so that a router reconnecting
 * within the same epoch gets only what it missed; otherwise it gets a snapshot.
 */
import { grpc, routeTableServiceDefinition, type RequestReport, type RequestReportAck, type WatchRequest, type WireTableUpdate } from '@platform/proto';
import type { Logger } from '@platform/proto/common';
import type { RequestStats } from './request-stats.js';
import type { RouteTable, TableChange } from './route-table.js';
import { requestsFromWire, updateToWire } from './route-wire.js';

/** Changes kept for catching up; a router further behind gets a snapshot. */
const HISTORY = 4096;

export interface RouteWatchOptions {
  table: RouteTable;
  /** True when the call presents the cluster's secret. */
  authorized: (metadata: grpc.Metadata) => boolean;
  /** Where standalone routers' request counts go. */
  requests: RequestStats;
  log: Logger;
}

export class RouteWatchService {
  readonly #history: TableChange[] = [];
  readonly #calls = new Set<grpc.ServerWritableStream<WatchRequest, WireTableUpdate>>();
  readonly #unsubscribe: () => void;

  constructor(private readonly o: RouteWatchOptions) {
    this.#unsubscribe = o.table.subscribe((u) => {
      if (u.kind !== 'change') return;
      this.#history.push(u);
      if (this.#history.length > HISTORY) this.#history.shift();
    });
  }

  get definition(): typeof routeTableServiceDefinition {
    return routeTableServiceDefinition;
  }

  get implementation(): grpc.UntypedServiceImplementation {
    return {
      watch: (call: grpc.ServerWritableStream<WatchRequest, WireTableUpdate>) => this.#watch(call),
      reportRequests: (call: grpc.ServerUnaryCall<RequestReport, RequestReportAck>, callback: grpc.sendUnaryData<RequestReportAck>) => this.#report(call, callback),
    };
  }

  #report(call: grpc.ServerUnaryCall<RequestReport, RequestReportAck>, callback: grpc.sendUnaryData<RequestReportAck>): void {
    if (!this.o.authorized(call.metadata)) {
      this.o.log.warn('router report refused: wrong join secret', { peer: call.getPeer() });
      callback({ code: grpc.status.UNAUTHENTICATED, details: 'the join secret is missing or wrong' });
      return;
    }
    const r = call.request;
    if (!r.routerId || !(typeof r.sequence === 'number' && Number.isSafeInteger(r.sequence) && r.sequence > 0)) {
      callback({ code: grpc.status.INVALID_ARGUMENT, details: 'router_id and a positive integer sequence are required' });
      return;
    }
    const counted = this.o.requests.report(r.routerId, r.sequence, (r.jobs ?? []).map(requestsFromWire));
    if (!counted) this.o.log.debug('router report seen before; not counted again', { router: r.routerName || r.routerId, sequence: r.sequence });
    callback(null, { counted });
  }

  /** Changes after `version` of the current epoch, or undefined when they are not all kept. */
  #since(epoch: string, version: number, current: number): TableChange[] | undefined {
    if (epoch !== this.o.table.epoch || version > current) return undefined;
    if (version === current) return [];
    const first = this.#history[0];
    if (!first || first.version > version + 1) return undefined;
    return this.#history.filter((c) => c.version > version);
  }

  #watch(call: grpc.ServerWritableStream<WatchRequest, WireTableUpdate>): void {
    if (!this.o.authorized(call.metadata)) {
      this.o.log.warn('router refused: wrong join secret', { peer: call.getPeer() });
      call.emit('error', Object.assign(new Error('the join secret is missing or wrong'), { code: grpc.status.UNAUTHENTICATED, details: 'the join secret is missing or wrong', metadata: new grpc.Metadata() }));
      return;
    }
    const name = call.request.routerName || call.getPeer();
    this.#calls.add(call);
    // Headers at once: a router that is current hears nothing else until a change.
    call.sendMetadata(new grpc.Metadata());
    const unsubscribe = this.o.table.subscribe((u) => {
      if (u.kind === 'change') {
        call.write(updateToWire(u));
        return;
      }
      const missed = this.#since(call.request.epoch ?? '', call.request.version ?? 0, u.version);
      if (missed) for (const c of missed) call.write(updateToWire({ kind: 'change', ...c }));
      else call.write(updateToWire(u));
      this.o.log.info('router following the route table', {
        router: name,
        version: u.version,
        ...(missed ? { caught_up_changes: missed.length } : { snapshot_entries: u.entries.length }),
      });
    });
    const end = () => {
      unsubscribe();
      this.#calls.delete(call);
    };
    call.on('cancelled', end);
    call.on('close', end);
    call.on('error', end);
  }

  /** Ends every watch (the controller is stopping: routers reconnect to the next one). */
  stop(): void {
    this.#unsubscribe();
    for (const call of this.#calls) call.end();
    this.#calls.clear();
  }
}
