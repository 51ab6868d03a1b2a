/**
 * A standalone router's feed: the controller's route table over `RouteTableService.Watch`
 * (proto/src/router.proto). It reconnects with backoff for as long as it runs, asking for what it
 * missed since the epoch and version it has; the router keeps serving its table meanwhile.
 *
 *   connecting ──stream opens──▶ following ──stream ends or fails──▶ waiting (backoff) ──▶ connecting
 *        ▲                                                                    │
 *        └────────────────────────────────────────────────────────────────────┘   stop() from any: stopped
 */
import { activeControllerOf, ControllerAddresses, controllerList, createRouteTableClient, grpc, joinMetadata, type RouteTableServiceClient, type WireTableUpdate } from '@platform/proto';
import type { Logger } from '@platform/proto/common';
import type { TableUpdate } from '../route-table.js';
import { updateFromWire } from '../route-wire.js';
import type { TableFeed } from './router.js';

export interface FollowerOptions {
  /**
   * The controller's gRPC address, host:port; several, comma-separated, for controllers sharing
   * etcd (a standby names the active one, dialed next at once; one that cannot be reached is
   * followed by the next).
   */
  controller: string;
  joinSecret: string;
  routerName: string;
  log: Logger;
  /** Backoff bounds between reconnections. Defaults 200 ms and 5 s. */
  minBackoffMs?: number;
  maxBackoffMs?: number;
}

type State = 'connecting' | 'following' | 'waiting' | 'stopped';

export class TableFollower {
  readonly #controllers: ControllerAddresses<RouteTableServiceClient>;
  #state: State = 'connecting';
  #epoch = '';
  #version = 0;
  #backoff: number;
  #timer: NodeJS.Timeout | undefined;
  #call: grpc.ClientReadableStream<WireTableUpdate> | undefined;
  #listener: ((u: TableUpdate) => void) | undefined;
  /** Told each time a connection's first update arrives (the router is in step again). */
  onSynced: ((epoch: string, version: number) => void) | undefined;

  constructor(private readonly o: FollowerOptions) {
    this.#controllers = new ControllerAddresses(controllerList(o.controller), (address) =>
      createRouteTableClient(address, grpc.credentials.createInsecure(), {
        'grpc.keepalive_time_ms': 30_000,
        'grpc.keepalive_timeout_ms': 10_000,
      }),
    );
    this.#backoff = o.minBackoffMs ?? 200;
  }

  get state(): State {
    return this.#state;
  }

  /** The feed for a Router: one listener, updates in order. */
  readonly feed: TableFeed = (listener) => {
    this.#listener = listener;
    if (this.#state === 'connecting' && !this.#call) this.#connect();
    return () => this.stop();
  };

  #setState(next: State): void {
    if (this.#state === next) return;
    this.o.log.debug('route table follower', { from: this.#state, to: next });
    this.#state = next;
  }

  #connect(): void {
    if (this.#state === 'stopped') return;
    this.#setState('connecting');
    const call = this.#controllers.client().watch({ epoch: this.#epoch, version: this.#version, routerName: this.o.routerName }, joinMetadata(this.o.joinSecret));
    this.#call = call;
    let first = true;
    call.on('data', (wire: WireTableUpdate) => {
      const update = updateFromWire(wire);
      if (update.kind === 'change' && (update.epoch !== this.#epoch || update.version !== this.#version + 1) && !first) {
        // A gap cannot happen on one stream; if it did, start over with a snapshot.
        this.o.log.warn('route table update out of order; asking for a snapshot', { have: this.#version, got: update.version });
        this.#epoch = '';
        call.cancel();
        return;
      }
      this.#epoch = update.epoch;
      this.#version = update.version;
      this.#listener?.(update);
      if (first) {
        first = false;
        this.o.log.info('route table followed', { controller: this.#controllers.address, epoch: this.#epoch, version: this.#version, snapshot: update.kind === 'snapshot' });
        this.onSynced?.(this.#epoch, this.#version);
      }
    });
    // Headers come first: the stream is open (a router that missed nothing hears nothing more yet).
    call.on('metadata', () => {
      this.#setState('following');
      this.#backoff = this.o.minBackoffMs ?? 200;
    });
    const retry = (why: string, err?: grpc.ServiceError) => {
      if (this.#call !== call) return;
      this.#call = undefined;
      if (this.#state === 'stopped') return;
      this.#setState('waiting');
      const from = this.#controllers.address;
      const named = activeControllerOf(err);
      if (named) {
        // A standby: the active controller is followed next, at once.
        this.#controllers.redirect(named);
        this.#backoff = this.o.minBackoffMs ?? 200;
        this.o.log.info('a standby controller sent this router on to the active one', { from, to: named });
      } else {
        this.#controllers.failed();
        this.o.log.warn('route table stream ended; reconnecting', { controller: from, next: this.#controllers.address, reason: why, in_ms: this.#backoff });
      }
      this.#timer = setTimeout(() => this.#connect(), this.#backoff);
      this.#timer.unref();
      this.#backoff = Math.min(this.#backoff * 2, this.o.maxBackoffMs ?? 5_000);
    };
    call.on('error', (err: grpc.ServiceError) => retry(err.details || err.message, err));
    call.on('end', () => retry('the controller ended the stream'));
  }

  stop(): void {
    this.#setState('stopped');
    if (this.#timer) clearTimeout(this.#timer);
    this.#call?.cancel();
    this.#call = undefined;
    this.#controllers.close();
  }
}
