/**
 * The agent's session with the controller: one Connect stream at a time.
 *
 *   IDLE ─start()─▶ CONNECTING ──Hello written──▶ OPEN ──Welcome──▶ WELCOMED
 *                      ▲                            │                  │
 *                      └──── backoff (≤ 5 s) ◀──────┴── error / end ───┘
 *   any ─stop()─▶ STOPPED
 *
 * - Hello is built at each connect (handler.hello()), so it lists the latest state of every
 *   instance. Messages may be sent once Hello is written (OPEN): the stream keeps their order.
 * - A Welcome with `refused` is logged; the call is ended and retried after the longest backoff.
 *   No Welcome within `welcomeTimeoutMs` ends the call as well.
 * - Heartbeats every Welcome.heartbeat_interval_ms (2 s when 0), timed from when each was due so
 *   that the lag is measured.
 * - Any error or end of the stream: back to CONNECTING after a backoff; instances keep running.
 *   With several controllers (`controllers`): a standby's refusal names the active controller,
 *   dialed next at once; a controller that cannot be reached, or that ended the stream, is
 *   followed by the next one given.
 */
import type { AgentMessage, AgentServiceClient, ControllerMessage, FlushLogs, Hello, InstanceFiles, JobDrains, JobEgress, LinkTargets, NetworkState, ListFiles, LogLine, Resources, Snapshot, StartInstance, StopInstance, Welcome } from '@platform/proto';
import { grpc, joinMetadata } from '@platform/proto';
import { IllegalTransitionError, StateMachine, type GuardedState, type Logger } from '@platform/proto/common';
import type { AgentMetrics } from '../metrics/metrics.js';
import type { BlobSource } from '../packages/cache.js';
import { Backoff } from './backoff.js';
import { activeControllerOf, type ControllerAddresses } from '@platform/proto';

export type SessionState = 'idle' | 'connecting' | 'open' | 'welcomed' | 'stopped';

/** The transitions of the diagram above; `connecting -> connecting` is a retry after a backoff. */
export const SESSION_MACHINE = new StateMachine<SessionState>('session', {
  idle: ['connecting', 'stopped'],
  connecting: ['connecting', 'open', 'stopped'],
  open: ['welcomed', 'connecting', 'stopped'],
  welcomed: ['welcomed', 'connecting', 'stopped'], // a second Welcome on one stream is applied again, as before
  stopped: [],
});

/** A transition that the session's table does not allow: a bug in the session, never the peer's doing. */
export const SessionStateError = IllegalTransitionError;
export type SessionStateError = IllegalTransitionError<SessionState>;

/** `to`, when the table allows `from -> to`; an IllegalTransitionError otherwise. */
export function sessionTransition(from: SessionState, to: SessionState): SessionState {
  return SESSION_MACHINE.check(from, to);
}

export interface SessionHandler {
  hello(): Hello;
  /** The Hello written on this session was accepted. */
  welcome(welcome: Welcome, hello: Hello): void;
  start(msg: StartInstance): void;
  stop(msg: StopInstance): void;
  listFiles(msg: ListFiles): void;
  /** Answered with an UploadSnapshot call of the same request id. */
  snapshot(msg: Snapshot): void;
  /** Ships the instance's log lines written so far, then answers LogsFlushed. */
  flushLogs(msg: FlushLogs): void;
  /** Where a linked job is served now (links/). */
  linkTargets?(msg: LinkTargets): void;
  /** A job's log drains now (logs/drains.ts). */
  jobDrains?(msg: JobDrains): void;
  networkState?(msg: NetworkState): void;
  /** New contents of an instance's platform files (its app token, renewed). */
  instanceFiles?(msg: InstanceFiles): void;
  /** What a job may reach outside its instances' own networks now (network/host-networks.ts). */
  jobEgress?(msg: JobEgress): void;
  /** Measured use, for heartbeats (best effort). */
  usage(): Resources;
}

export interface SessionOptions {
  /** The controller to dial, or (`controllers`) the controllers of a cluster, one at a time. */
  client?: AgentServiceClient;
  controllers?: ControllerAddresses<AgentServiceClient>;
  joinToken: string;
  handler: SessionHandler;
  log: Logger;
  metrics?: AgentMetrics;
  random?: () => number;
  now?: () => number;
  welcomeTimeoutMs?: number;
  maxBackoffMs?: number;
}

type Call = grpc.ClientDuplexStream<AgentMessage, ControllerMessage>;

export class Session {
  readonly #state: GuardedState<SessionState>;
  #call: Call | undefined;
  #hello: Hello | undefined;
  #backoff: Backoff;
  #reconnect: NodeJS.Timeout | undefined;
  #welcomeTimer: NodeJS.Timeout | undefined;
  #heartbeat: NodeJS.Timeout | undefined;
  #backedUp = false;
  #refused = false;
  #authWarned = false;
  readonly #now: () => number;

  constructor(private readonly opts: SessionOptions) {
    this.#backoff = new Backoff(200, opts.maxBackoffMs ?? 5000, opts.random);
    this.#now = opts.now ?? Date.now;
    this.#state = SESSION_MACHINE.start('idle', opts.log);
  }

  get state(): SessionState {
    return this.#state.current;
  }

  /** The one place where the state changes: refuses what the table does not allow, logs every change. */
  #transition(to: SessionState): void {
    this.#state.set(to);
  }

  /** True when a message can be written now (open, not backed up). */
  canSend(): boolean {
    return (this.state === 'open' || this.state === 'welcomed') && !this.#backedUp;
  }

  start(): void {
    if (this.state !== 'idle') return;
    this.#connect();
  }

  /** Ends the stream (the controller sees the agent leave) and stops reconnecting. */
  stop(): void {
    if (this.state === 'stopped') return;
    this.#transition('stopped');
    clearTimeout(this.#reconnect);
    this.#clearTimers();
    const call = this.#call;
    this.#call = undefined;
    if (call) {
      try {
        call.end();
      } catch {
        // already closed
      }
      setTimeout(() => call.cancel(), 1000).unref();
    }
  }

  /** Writes `msg`; false (nothing written) when the stream is not open. */
  send(msg: AgentMessage): boolean {
    const call = this.#call;
    if (!call || (this.state !== 'open' && this.state !== 'welcomed')) return false;
    try {
      if (!call.write(msg)) {
        this.#backedUp = true;
        call.once('drain', () => (this.#backedUp = false));
      }
      return true;
    } catch {
      return false;
    }
  }

  sendLogs(lines: LogLine[]): boolean {
    return this.send({ logs: { lines } });
  }

  /** FetchBlob over the same channel, with the join secret. */
  /** The client of the controller dialed now. */
  client(): AgentServiceClient {
    return this.opts.controllers?.client() ?? this.opts.client!;
  }

  blobSource(): BlobSource {
    const { joinToken } = this.opts;
    const client = () => this.client();
    return {
      async *fetch(digest: string, signal: AbortSignal): AsyncIterable<Uint8Array> {
        const call = client().fetchBlob({ digest }, joinMetadata(joinToken));
        const onAbort = () => call.cancel();
        signal.addEventListener('abort', onAbort, { once: true });
        try {
          for await (const chunk of call as AsyncIterable<{ data?: Uint8Array | null }>) {
            if (chunk.data && chunk.data.length) yield chunk.data;
          }
        } finally {
          signal.removeEventListener('abort', onAbort);
          // The consumer may stop early (a length or digest mismatch): end the call (no-op when done).
          call.cancel();
        }
      },
    };
  }

  #connect(): void {
    if (this.state === 'stopped') return;
    this.#transition('connecting');
    this.#refused = false;
    this.#backedUp = false;
    const { joinToken, handler, log } = this.opts;
    let call: Call;
    try {
      call = this.client().connect(joinMetadata(joinToken));
    } catch (err) {
      log.warn('cannot open the controller stream', { err });
      this.#scheduleReconnect();
      return;
    }
    this.#call = call;
    let ended = false;
    const onEnd = (err?: Error) => {
      if (ended) return;
      ended = true;
      if (this.#call === call) this.#closed(err);
    };
    call.on('data', (msg: ControllerMessage) => this.#onMessage(call, msg));
    call.on('error', (err: Error) => onEnd(err));
    call.on('end', () => onEnd());
    call.on('close', () => onEnd());
    const hello = handler.hello();
    this.#hello = hello;
    call.write({ hello });
    this.#transition('open');
    this.#welcomeTimer = setTimeout(() => {
      log.warn('no Welcome from the controller; reconnecting', { timeout_ms: this.opts.welcomeTimeoutMs ?? 15_000 });
      call.cancel();
    }, this.opts.welcomeTimeoutMs ?? 15_000);
    this.#welcomeTimer.unref();
  }

  #onMessage(call: Call, msg: ControllerMessage): void {
    if (call !== this.#call) return;
    const { handler, log } = this.opts;
    if (msg.welcome) {
      clearTimeout(this.#welcomeTimer);
      const w = msg.welcome;
      if (w.refused) {
        this.#refused = true;
        log.warn('the controller refused this agent; retrying later', { reason: w.refused });
        call.cancel();
        return;
      }
      this.#transition('welcomed');
      this.#authWarned = false;
      this.#backoff.reset();
      this.opts.metrics?.connects.inc();
      log.info('connected to the controller', { controller_id: w.controllerId ?? '', adopt: w.adopt?.length ?? 0, stop: w.stop?.length ?? 0 });
      this.#startHeartbeats(w.heartbeatIntervalMs || 2000);
      handler.welcome(w, this.#hello ?? {});
      return;
    }
    // A failing handler must not take the stream (or the agent) down: log it and go on.
    try {
      if (msg.start) handler.start(msg.start);
      else if (msg.stop) handler.stop(msg.stop);
      else if (msg.listFiles) handler.listFiles(msg.listFiles);
      else if (msg.snapshot) handler.snapshot(msg.snapshot);
      else if (msg.flushLogs) handler.flushLogs(msg.flushLogs);
      else if (msg.linkTargets) handler.linkTargets?.(msg.linkTargets);
      else if (msg.jobDrains) handler.jobDrains?.(msg.jobDrains);
      else if (msg.networkState) handler.networkState?.(msg.networkState);
      else if (msg.instanceFiles) handler.instanceFiles?.(msg.instanceFiles);
      else if (msg.jobEgress) handler.jobEgress?.(msg.jobEgress);
    } catch (err) {
      log.error('handling a controller message failed', { err });
    }
  }

  #startHeartbeats(intervalMs: number): void {
    let due = this.#now() + intervalMs;
    const beat = () => {
      const now = this.#now();
      this.opts.metrics?.heartbeatLag.observe(Math.max(0, now - due) / 1000);
      this.send({ heartbeat: { sentAtMs: now, used: this.opts.handler.usage() } });
      due += intervalMs;
      if (due < now) due = now + intervalMs;
      this.#heartbeat = setTimeout(beat, due - now);
      this.#heartbeat.unref();
    };
    this.#heartbeat = setTimeout(beat, intervalMs);
    this.#heartbeat.unref();
  }

  #clearTimers(): void {
    clearTimeout(this.#welcomeTimer);
    clearTimeout(this.#heartbeat);
  }

  #closed(err?: Error): void {
    const wasWelcomed = this.state === 'welcomed';
    this.#call = undefined;
    this.#clearTimers();
    if (this.state === 'stopped') return;
    this.#transition('connecting');
    const controllers = this.opts.controllers;
    const named = activeControllerOf(err);
    if (controllers && named) {
      // A standby: the active controller is dialed next, at once.
      this.opts.log.info('a standby controller sent this agent on to the active one', { from: controllers.address, to: named });
      controllers.redirect(named);
      this.#backoff.reset();
    } else if (controllers && (err || wasWelcomed)) {
      controllers.failed();
    }
    if (named) {
      // Said above.
    } else if (wasWelcomed) {
      this.opts.metrics?.disconnects.inc();
      this.opts.log.warn('disconnected from the controller', { err: err?.message ?? 'stream ended' });
    } else if ((err as { code?: number } | undefined)?.code === grpc.status.UNAUTHENTICATED) {
      // Once per streak: an operator must fix the secret; retrying continues meanwhile.
      if (!this.#authWarned) this.opts.log.warn('the controller refused the join secret; retrying', { err: err?.message });
      this.#authWarned = true;
    } else if (!this.#refused) {
      this.opts.log.debug('cannot reach the controller', { err: err?.message ?? 'stream ended' });
    }
    this.#scheduleReconnect();
  }

  #scheduleReconnect(): void {
    if (this.state === 'stopped') return;
    const delay = this.#refused ? this.#backoff.max() : this.#backoff.next();
    this.#reconnect = setTimeout(() => this.#connect(), delay);
    this.#reconnect.unref();
  }
}
